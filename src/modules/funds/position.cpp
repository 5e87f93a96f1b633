// get_fund_position and get_self_insurance_requirement (catalogue §4.6): where each fund stands
// (its net assets, cash, what the funds owe each other, what authorisations still allow), the
// contingency fund against its study, the self-insurance fund against r. 4.1 s. 2.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/funds/self_insurance.hpp"
#include "modules/funds/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

// The first contingency fund study is due by 2028-08-14 (Reg. 991-2025), then every 5 years.
constexpr const char* first_study_due_on = "2028-08-14";

json contingency_position(Database& db, const std::string& syndicate_id, const std::string& as_of, int fiscal_year,
                          std::vector<std::string>& warnings) {
    json out = {{"latestStudy", nullptr}, {"recommendationCents", nullptr}, {"adoptedContributionCents", nullptr},
                {"shortfallCents", nullptr}, {"nextStudyDueOn", first_study_due_on}, {"majorWorksPlanTotalCents", nullptr}};
    auto q = db.prepare(
        "SELECT id, received_on, preparer_name, preparer_order FROM fund_studies WHERE syndicate_id = ? AND received_on <= ? "
        "ORDER BY received_on DESC, created_at DESC LIMIT 1");
    bind_parameters(*q, syndicate_id, as_of);
    if (q->executeStep()) {
        const auto received = q->getColumn(1).getString();
        out["latestStudy"] = {{"id", q->getColumn(0).getString()}, {"receivedOn", received},
                              {"preparer", q->getColumn(2).getString()}, {"order", q->getColumn(3).getString()}};
        out["nextStudyDueOn"] = add_calendar_months(received, 60);
    } else {
        warnings.push_back("No contingency fund study is recorded: the first is due by 2028-08-14 (Reg. 991-2025); until then the "
                           "contribution is at least 5 % of the operating contribution.");
    }
    const auto recommendation = study_recommendation(db, syndicate_id, fiscal_year, as_of, warnings);
    if (recommendation) out["recommendationCents"] = recommendation->contribution_cents;
    if (const auto budget = budget_of_year(db, syndicate_id, fiscal_year); budget && budget->status == "adopted") {
        const auto adopted = contributions_of(db, syndicate_id, *budget).contingency;
        out["adoptedContributionCents"] = adopted;
        if (recommendation) out["shortfallCents"] = std::max<std::int64_t>(0, recommendation->contribution_cents - adopted);
    }
    return out;
}

}  // namespace

json get_fund_position(const ToolCall& call, const MajorWorksPlanTotal& plan_total) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto as_of = date_argument(a, "asOf").value_or(today(call));
    const auto year = accounting::fiscal_year_of(call.db, syndicate, as_of);
    std::vector<std::string> warnings;
    json funds = json::object();
    for (const char* fund : accounting::funds) {
        const auto balances = accounting::fund_balances(call.db, syndicate, fund, as_of);
        const auto unused = std::string(fund) == "operating" ? 0 : accounting::authorized_unused(call.db, syndicate, fund, as_of);
        funds[fund] = {{"balanceCents", balances.net_assets_cents}, {"cashCents", balances.cash_cents},
                       {"interfundCents", balances.interfund_cents}, {"authorizedUnusedCents", unused},
                       {"payablesCents", balances.payables_cents},
                       // Free money: cash, less what is owed to suppliers (holdbacks kept included) and what
                       // authorisations still allow to be spent.
                       {"availableCents", balances.cash_cents - balances.payables_cents - unused}};
        if (const auto w = accounting::own_bank_warning(call.db, syndicate, fund)) warnings.push_back(*w);
    }
    funds["contingency"].update(contingency_position(call.db, syndicate, as_of, year.year, warnings));
    if (plan_total)
        if (const auto total = plan_total(call)) funds["contingency"]["majorWorksPlanTotalCents"] = *total;
    const auto requirement = self_insurance_requirement(call.db, syndicate, as_of, year.year);
    funds["self-insurance"]["requirement"] = requirement_json(requirement);
    for (const auto& w : requirement.warnings) warnings.push_back(w);
    return {{"asOf", as_of}, {"fiscalYear", year.year}, {"funds", std::move(funds)}, {"warnings", warnings}};
}

json get_self_insurance_requirement(const ToolCall& call) {
    const auto a = call.arguments();
    const auto as_of = date_argument(a, "asOf").value_or(today(call));
    const auto year = a.optional_integer("fiscalYear");
    return requirement_json(self_insurance_requirement(call.db, call.caller.syndicate_id, as_of,
                                                       year ? std::optional<int>(static_cast<int>(*year)) : std::nullopt,
                                                       a.optional_integer("hypotheticalDeductibleCents"),
                                                       a.optional_integer("hypotheticalBalanceCents")));
}

}  // namespace syndic::funds
