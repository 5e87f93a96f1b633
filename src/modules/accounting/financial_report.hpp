// The financial statements of a period (catalogue §4.4 get_financial_statements, art. 1087): per
// fund its balance sheet at the period's end and its income statement over the period (closing
// entries aside), the statement of debts and claims (what the co-owners owe by age, by unit for
// the board only; what the syndicate owes its suppliers; the co-owners' credit), and the budget
// compared and forecast when the funds module answers. get_financial_statements shows it;
// close_fiscal_year renders it. Knows storage; not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "modules/accounting/budget_questions.hpp"

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct ReportPeriod {
    std::string from, to;
    int fiscal_year = 0;          // the fiscal year `to` falls in
    bool whole_year = false;      // from and to are that year's bounds
    bool by_unit = false;         // receivables by unit, with the debtors' names (the board's)
    bool compare_to_budget = true;
};

struct FiscalYear;
// The fiscal year named `year`, or FISCAL_YEAR_NOT_FOUND at `field` when it has not begun on
// `today` or ends before the books' first entry (none at all yet: a syndicate's first year).
FiscalYear require_report_year(Database& db, const std::string& syndicate_id, std::int64_t year, const std::string& today,
                               const std::string& field);

nlohmann::json financial_report(Database& db, const std::string& syndicate_id, const ReportPeriod& period, const BudgetAnswers& budget);

}  // namespace syndic::accounting
