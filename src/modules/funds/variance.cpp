// get_budget_variance (catalogue §4.6): each line of a budget against the ledger's actuals for its
// fiscal year so far, with how much of the line is used and how much of the year has passed.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>
#include <string>

#include "core/clock.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/funds/apportionment.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/funds/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

double one_decimal(double v) { return std::round(v * 10.0) / 10.0; }

json variance_of(Database& db, const std::string& syndicate, const Budget& b, const std::string& as_of) {
    const auto year = accounting::fiscal_year_of(db, syndicate, std::to_string(b.fiscal_year) + "-" + declaration::fiscal_year_start(db, syndicate));
    const auto to = std::min(as_of, year.ends_on);
    const auto length = calendar_days_between(year.starts_on, year.ends_on) + 1;
    const auto elapsed = to < year.starts_on ? 0 : calendar_days_between(year.starts_on, to) + 1;
    // Each account's actual once; lines sharing an account share it by their budgets (largest
    // remainder), so the totals count it once.
    std::map<std::string, std::vector<std::size_t>> lines_of;
    std::vector<std::optional<std::string>> account_of(b.lines.size());
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
        const auto& l = b.lines[i];
        account_of[i] = l.account_id;
        if (!account_of[i] && l.kind == "contribution") account_of[i] = accounting::system_account(db, syndicate, l.fund, "contributions").id;
        if (account_of[i]) lines_of[*account_of[i]].push_back(i);
    }
    std::vector<std::optional<std::int64_t>> actual(b.lines.size());
    for (const auto& [account, members] : lines_of) {
        if (to < year.starts_on) continue;
        const auto net = accounting::account_activity(db, account, year.starts_on, to);
        std::vector<std::int64_t> weights;
        for (const auto i : members) weights.push_back(b.lines[i].amount_cents);
        if (std::all_of(weights.begin(), weights.end(), [](std::int64_t w) { return w == 0; })) weights.assign(weights.size(), 1);
        const auto kind = b.lines[members.front()].kind;
        const auto total = kind == "expense" ? net : -net;
        const auto shares = largest_remainder(total < 0 ? -total : total, weights);
        for (std::size_t k = 0; k < members.size(); ++k) actual[members[k]] = total < 0 ? -shares[k] : shares[k];
    }
    json lines = json::array();
    json totals = json::object();
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
        const auto& l = b.lines[i];
        const auto& got = actual[i];
        json row = {{"lineId", l.id}, {"fund", l.fund}, {"kind", l.kind}, {"label", l.label},
                    {"accountId", account_of[i] ? json(*account_of[i]) : json(nullptr)}, {"budgetCents", l.amount_cents},
                    {"actualCents", got ? json(*got) : json(nullptr)}, {"varianceCents", got ? json(*got - l.amount_cents) : json(nullptr)},
                    {"percentUsed", got && l.amount_cents ? json(one_decimal(100.0 * static_cast<double>(*got) / static_cast<double>(l.amount_cents)))
                                                          : json(nullptr)},
                    {"sharesAccount", account_of[i] && lines_of[*account_of[i]].size() > 1}};
        auto& t = totals[l.fund];
        if (t.is_null()) t = {{"expenseBudgetCents", 0}, {"expenseActualCents", 0}, {"incomeBudgetCents", 0}, {"incomeActualCents", 0}};
        const auto side = l.kind == "expense" ? std::string("expense") : std::string("income");
        t[side + "BudgetCents"] = t[side + "BudgetCents"].get<std::int64_t>() + l.amount_cents;
        t[side + "ActualCents"] = t[side + "ActualCents"].get<std::int64_t>() + got.value_or(0);
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

}  // namespace

json get_budget_variance(const ToolCall& call) {
    const auto a = call.arguments();
    const auto b = require_budget(call.db, call.caller.syndicate_id, a.text("budgetId"), "/budgetId");
    return variance_of(call.db, call.caller.syndicate_id, b, date_argument(a, "asOf").value_or(today(call)));
}

std::optional<json> budget_comparison(Database& db, const std::string& syndicate_id, int fiscal_year, const std::string& to) {
    const auto b = budget_of_year(db, syndicate_id, fiscal_year);
    if (!b) return std::nullopt;
    auto out = variance_of(db, syndicate_id, *b, to);
    out["status"] = b->status;
    return out;
}

std::optional<json> budget_forecast(Database& db, const std::string& syndicate_id, int fiscal_year) {
    const auto b = budget_of_year(db, syndicate_id, fiscal_year);
    if (!b) return std::nullopt;
    json lines = json::array();
    for (const auto& l : b->lines) lines.push_back({{"fund", l.fund}, {"kind", l.kind}, {"label", l.label}, {"amountCents", l.amount_cents}});
    const auto c = contributions_of(db, syndicate_id, *b);
    return json{{"budgetId", b->id}, {"fiscalYear", b->fiscal_year}, {"status", b->status}, {"lines", std::move(lines)},
                {"contributionsCents", {{"operating", c.operating}, {"contingency", c.contingency}, {"selfInsurance", c.self_insurance}, {"total", c.total()}}}};
}

}  // namespace syndic::funds
