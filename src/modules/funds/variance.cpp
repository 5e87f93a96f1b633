// get_budget_variance (catalogue §4.6): each line of a budget against the ledger's actuals for its
// fiscal year so far, with how much of the line is used and how much of the year has passed.
#include <SQLiteCpp/Statement.h>

#include <cmath>
#include <string>

#include "core/clock.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/funds/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

double one_decimal(double v) { return std::round(v * 10.0) / 10.0; }

}  // namespace

json get_budget_variance(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto b = require_budget(call.db, syndicate, a.text("budgetId"), "/budgetId");
    const auto year = accounting::fiscal_year_of(call.db, syndicate, std::to_string(b.fiscal_year) + "-" +
                                                                         accounting::fiscal_year_of(call.db, syndicate, today(call)).starts_on.substr(5));
    const auto as_of = date_argument(a, "asOf").value_or(today(call));
    const auto to = std::min(as_of, year.ends_on);
    const auto length = calendar_days_between(year.starts_on, year.ends_on) + 1;
    const auto elapsed = to < year.starts_on ? 0 : calendar_days_between(year.starts_on, to) + 1;
    json lines = json::array();
    json totals = json::object();
    for (const auto& l : b.lines) {
        std::optional<std::string> account = l.account_id;
        if (!account && l.kind == "contribution") account = accounting::system_account(call.db, syndicate, l.fund, "contributions").id;
        std::optional<std::int64_t> actual;
        if (account && to >= year.starts_on) {
            const auto net = accounting::account_activity(call.db, *account, year.starts_on, to);
            actual = l.kind == "expense" ? net : -net;
        }
        json row = {{"lineId", l.id}, {"fund", l.fund}, {"kind", l.kind}, {"label", l.label}, {"accountId", account ? json(*account) : json(nullptr)},
                    {"budgetCents", l.amount_cents}, {"actualCents", actual ? json(*actual) : json(nullptr)},
                    {"varianceCents", actual ? json(*actual - l.amount_cents) : json(nullptr)},
                    {"percentUsed", actual && l.amount_cents ? json(one_decimal(100.0 * static_cast<double>(*actual) / static_cast<double>(l.amount_cents)))
                                                             : json(nullptr)}};
        auto& t = totals[l.fund];
        if (t.is_null()) t = {{"expenseBudgetCents", 0}, {"expenseActualCents", 0}, {"incomeBudgetCents", 0}, {"incomeActualCents", 0}};
        const auto side = l.kind == "expense" ? std::string("expense") : std::string("income");
        t[side + "BudgetCents"] = t[side + "BudgetCents"].get<std::int64_t>() + l.amount_cents;
        t[side + "ActualCents"] = t[side + "ActualCents"].get<std::int64_t>() + actual.value_or(0);
        lines.push_back(std::move(row));
    }
    return {{"budgetId", b.id},
            {"fiscalYear", b.fiscal_year},
            {"from", year.starts_on},
            {"to", to},
            {"percentOfYearElapsed", one_decimal(100.0 * elapsed / length)},
            {"lines", std::move(lines)},
            {"totals", std::move(totals)}};
}

}  // namespace syndic::funds
