// authorize_fund_use (catalogue §4.6, arts. 1071, 1071.1, link L14): the board authorises spending
// from the contingency fund on a major repair or replacement of common portions, or from the
// self-insurance fund on a deductible or uninsured damage, by a passed board resolution, within
// what the fund holds less what it has already authorised. The ledger keeps the authorisation and
// lets money out under it (accounting/fund_use.hpp).
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/error.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/funds/self_insurance.hpp"
#include "modules/funds/tools.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

json authorization_json(const accounting::FundUseAuthorization& a) {
    return {{"id", a.id},
            {"fund", a.fund},
            {"amountCents", a.amount_cents},
            {"purpose", a.purpose},
            {"use", a.use_kind},
            {"projectId", a.project_id ? json(*a.project_id) : json(nullptr)},
            {"insuranceClaimId", a.insurance_claim_id ? json(*a.insurance_claim_id) : json(nullptr)},
            {"resolutionId", a.resolution_id},
            {"status", a.status},
            {"usedCents", a.used_cents},
            {"remainingCents", a.remaining_cents()},
            {"createdAt", to_montreal_iso(stored_instant(a.created_at))}};
}

json authorize_fund_use(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    accounting::FundUseAuthorization draft;
    draft.fund = a.text("fund");
    draft.use_kind = a.text("use");
    draft.purpose = a.nonblank("purpose");
    draft.amount_cents = a.integer("amountCents");
    draft.resolution_id = a.text("resolutionId");
    governance::require_resolution_exists(call, draft.resolution_id, "/resolutionId");
    if (a.given("insuranceClaimId")) {
        require_record_exists(call.db, syndicate, "insurance_claims", a.text("insuranceClaimId"), "/insuranceClaimId");
        draft.insurance_claim_id = a.text("insuranceClaimId");
    }
    std::optional<std::string> project_works;  // what the project's works are, when it names one
    if (a.given("projectId")) {
        require_record_exists(call.db, syndicate, "projects", a.text("projectId"), "/projectId", RecordState::active);
        draft.project_id = a.text("projectId");
        // The projects module's row, read (the projects are built on the funds: no header to ask).
        auto p = call.db.prepare("SELECT CASE WHEN category = 'emergency' THEN coalesce(emergency_works, 'other') ELSE category END FROM projects WHERE id = ?");
        bind_parameters(*p, *draft.project_id);
        p->executeStep();
        project_works = p->getColumn(0).getString();
    }
    const bool contingency_use = draft.use_kind == "major-repair" || draft.use_kind == "replacement";
    if (draft.fund == "contingency" && project_works && *project_works != "major-repair" && *project_works != "replacement")
        throw DomainError("FUND_USE_NOT_ALLOWED", "The contingency fund pays only major repairs and replacements of common portions (art. 1071): "
                                                  "the project's works are " + *project_works + " (an emergency qualifies only when its works are one of those).")
            .at("/projectId")
            .with("fund", draft.fund);
    if ((draft.fund == "contingency") != contingency_use)
        throw DomainError("FUND_USE_NOT_ALLOWED",
                          draft.fund == "contingency"
                              ? "The contingency fund pays only major repairs and replacements of common portions (art. 1071), never "
                                "maintenance nor a deductible: use major-repair or replacement, or the self-insurance fund."
                              : "The self-insurance fund pays only a claim's deductible or damage to property the syndicate has an "
                                "insurable interest in that insurance or the contingency fund cannot cover (art. 1071.1): use deductible "
                                "or uninsured-damage.")
            .at("/use")
            .with("fund", draft.fund);
    if (draft.insurance_claim_id && draft.use_kind != "deductible")
        throw invalid_argument("/insuranceClaimId", "goes with the use deductible",
                               "A claim's authorisation pays its deductible from the self-insurance fund (use deductible).");
    const auto decision = governance::require_passed_resolution(call, draft.resolution_id, governance::DecisionBody::board, "simple",
                                                                "/resolutionId");
    // What the fund can pay: its cash (bank accounts), less what it owes its suppliers (holdbacks
    // kept included) and what it already authorised.
    const auto day = today(call);
    const auto balances = accounting::fund_balances(call.db, syndicate, draft.fund, day);
    const auto cash = balances.cash_cents;
    const auto available = cash - balances.payables_cents - accounting::authorized_unused(call.db, syndicate, draft.fund, day);
    if (draft.amount_cents > available)
        throw DomainError("FUND_INSUFFICIENT", "The " + draft.fund + " fund has " + dollars(cash) + " in its bank accounts, of which " +
                                                   dollars(std::max<std::int64_t>(available, 0)) + " are neither owed to suppliers nor authorised for "
                                                   "another use: less than the " + dollars(draft.amount_cents) + " asked.")
            .at("/amountCents")
            .with("availableCents", available)
            .with("cashCents", cash)
            .with("payablesCents", balances.payables_cents);
    json warnings = json::array();
    auto reused = call.db.prepare("SELECT purpose FROM fund_use_authorizations WHERE syndicate_id = ? AND resolution_id = ?");
    bind_parameters(*reused, syndicate, draft.resolution_id);
    while (reused->executeStep())
        warnings.push_back("This resolution already authorised another use (" + reused->getColumn(0).getString() +
                           "): check that it decided this one too.");
    const auto id = accounting::record_authorization(call.db, syndicate, draft, to_utc_iso(call.clock.now()));
    call.name_event("fund_use.authorized", "fund-use-authorization", id);
    auto out = authorization_json(accounting::require_authorization(call.db, syndicate, id, "/id"));
    out["decidedOn"] = decision.decided_on;
    out["warnings"] = warnings;
    return out;
}

}  // namespace syndic::funds
