// get_financial_statements (catalogue §4.4, art. 1087): the statements of a fiscal year (to today
// while it runs) or of a period: balance sheet and income statement per fund, the statement of
// debts and claims (by unit with the debtors' names only when asked: the board's; the package
// mailed to the co-owners is the summary), the budget compared and the next year's forecast.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "modules/accounting/financial_report.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

ReportPeriod report_period(const ToolCall& call, const Arguments& a) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto now = today(call);
    ReportPeriod p;
    if (a.given("fiscalYear") && (a.given("from") || a.given("to")))
        throw invalid_argument("/fiscalYear", "goes without from and to", "Ask for a fiscal year, or a period from/to, not both.");
    if (a.given("from") || a.given("to")) {
        if (!a.given("from") || !a.given("to")) throw invalid_argument(a.given("from") ? "/to" : "/from", "is required with the other", "A period has both from and to.");
        p.from = *date_argument(a, "from");
        p.to = *date_argument(a, "to");
        if (p.from > p.to) throw invalid_argument("/from", "is after to", "The period runs from " + p.from + " to " + p.to + ": from comes first.");
        if (p.to > now) throw invalid_argument("/to", "is after today", "Statements are of days that have come; " + p.to + " is after today.");
        const auto fy = fiscal_year_of(call.db, syndicate, p.to);
        p.fiscal_year = fy.year;
        p.whole_year = p.from == fy.starts_on && p.to == fy.ends_on;
    } else {
        const auto year = a.optional_integer("fiscalYear").value_or(fiscal_year_of(call.db, syndicate, now).year);
        const auto fy = require_report_year(call.db, syndicate, year, now, "/fiscalYear");
        p.from = fy.starts_on;
        p.to = std::min(fy.ends_on, now);
        p.fiscal_year = fy.year;
        p.whole_year = p.to == fy.ends_on;
    }
    p.by_unit = a.text_or("detail", "summary") == "by-unit";
    p.compare_to_budget = a.flag("compareToBudget", true);
    return p;
}

}  // namespace

json get_financial_statements(const ToolCall& call, const BudgetAnswers& budget) {
    const auto a = call.arguments();
    return financial_report(call.db, call.caller.syndicate_id, report_period(call, a), budget);
}

}  // namespace syndic::accounting
