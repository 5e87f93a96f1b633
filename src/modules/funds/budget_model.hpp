// A budget as the funds tools read it (catalogue §4.6): its lines, the contributions it asks of
// the co-owners by fund, and the legal minimums it is checked against (the contingency fund's 5 %
// or the fund study's recommendation, art. 1071; the self-insurance formula, art. 1071.1). The
// pools it gives the apportionment are those the assessment notices bill. Not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "modules/funds/apportionment.hpp"
#include "modules/funds/self_insurance.hpp"

namespace syndic {
class Database;
}

namespace syndic::funds {

struct BudgetLine {
    std::string id, fund, kind, label;
    std::optional<std::string> account_id, common_portion_id;
    std::int64_t amount_cents = 0;
};

struct Budget {
    std::string id, status, created_at, updated_at;
    int fiscal_year = 0;
    std::optional<std::string> consultation_meeting_id, consulted_on, adopted_on, resolution_id, contingency_justification, notes;
    std::string lines_changed_at;  // UTC instant: a meeting before it was not consulted on these lines
    std::vector<BudgetLine> lines;
};

// BUDGET_NOT_FOUND at `field` unless the syndicate has it.
Budget require_budget(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field);
// The budget of a fiscal year, if one exists.
std::optional<Budget> budget_of_year(Database& db, const std::string& syndicate_id, int fiscal_year);

// The pools the budget's contributions are shared in: per fund the general lines together, and
// apart the lines of each restricted common portion whose costs go to its users (art. 1064); the
// operating fund's expenses less its other income, the protected funds' contribution lines. A pool
// whose income exceeds its expenses asks nothing (a warning in `warnings`).
std::vector<Pool> pools_of(Database& db, const std::string& syndicate_id, const Budget& budget, std::vector<std::string>* warnings = nullptr);

// What the co-owners are asked, by fund: the sum of the fund's pools, exactly what the notices bill.
struct Contributions {
    std::int64_t operating = 0, contingency = 0, self_insurance = 0;
    std::int64_t total() const { return operating + contingency + self_insurance; }
};
Contributions contributions_of(Database& db, const std::string& syndicate_id, const Budget& budget,
                               std::vector<std::string>* warnings = nullptr);

// The contingency fund study's recommendation for a year.
struct StudyRecommendation {
    std::string study_id, received_on;
    std::int64_t contribution_cents = 0;
    int fiscal_year = 0;  // the year recommended for: another year's when the study stops earlier
};
// The latest study received on or before `day`: its recommendation for `fiscal_year`, else for the
// nearest year before it, else for its first year (with a warning added to `warnings`).
std::optional<StudyRecommendation> study_recommendation(Database& db, const std::string& syndicate_id, int fiscal_year,
                                                        const std::string& day, std::vector<std::string>& warnings);

struct Checks {
    std::int64_t contingency_minimum_cents = 0, self_insurance_minimum_cents = 0;
    std::string contingency_basis;  // "five-percent" or "fund-study"
    std::optional<StudyRecommendation> study;
    bool contingency_ok = true, self_insurance_ok = true;
    SelfInsuranceRequirement self_insurance;
    std::vector<std::string> warnings;
};
// The budget checked on `as_of` (the adoption day, or today for a budget not adopted).
Checks checks_of(Database& db, const std::string& syndicate_id, const Budget& budget, const std::string& as_of);

// The budget as the tools show it.
nlohmann::json budget_json(Database& db, const std::string& syndicate_id, const Budget& budget, const Checks& checks);

}  // namespace syndic::funds
