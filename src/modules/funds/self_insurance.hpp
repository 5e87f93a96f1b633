// The self-insurance fund's minimum contribution (art. 1071.1, r. 4.1 s. 2; catalogue §4.6
// get_self_insurance_requirement, link L15): F, the highest deductible of the policies in force on
// the first day of the fiscal year (earthquake and flood excluded); the capitalisation, the fund's
// net assets on a day less the authorised but unused uses; the formula, and the $100,000 rule.
// adopt_budget, get_budget and get_fund_position ask here. Not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::funds {

struct SelfInsuranceRequirement {
    std::string as_of, first_day;
    int fiscal_year = 0;
    std::int64_t deductible_cents = 0;  // F
    std::optional<nlohmann::json> source;  // the policy and coverage F comes from
    std::int64_t balance_cents = 0, authorized_unused_cents = 0, capitalisation_cents = 0;
    std::int64_t formula_cents = 0, required_cents = 0;
    std::string rule;  // "half", "difference" or "none"
    bool cap_applied = false;  // the $100,000 rule lowered the formula
    std::vector<std::string> steps, warnings;
};

// The requirement on `as_of` for `fiscal_year` (the one containing as_of when nullopt); a
// hypothetical deductible or balance replaces the recorded one.
SelfInsuranceRequirement self_insurance_requirement(Database& db, const std::string& syndicate_id, const std::string& as_of,
                                                    std::optional<int> fiscal_year,
                                                    std::optional<std::int64_t> hypothetical_deductible = std::nullopt,
                                                    std::optional<std::int64_t> hypothetical_balance = std::nullopt);

nlohmann::json requirement_json(const SelfInsuranceRequirement& r);

// Cents as dollars for the messages and steps a treasurer reads: "$12,500.05" (core/reader_format).
std::string dollars(std::int64_t cents);

}  // namespace syndic::funds
