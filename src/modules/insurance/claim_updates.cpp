// update_insurance_claim (catalogue §3.3): a claim followed through the insurer's answer (open →
// accepted | denied | withdrawn; accepted → paid → closed; denied → closed), its indemnity booked
// to the fund that receives it when paid, and its deductible charged back to the co-owner
// responsible for the loss (art. 1074.2 [verify]) into the self-insurance fund that paid it.
#include <SQLiteCpp/Statement.h>

#include <map>
#include <set>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/insurance/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::insurance {

using nlohmann::json;

namespace {

bool allowed(const std::string& from, const std::string& to) {
    static const std::map<std::string, std::set<std::string>> next = {
        {"open", {"accepted", "denied", "withdrawn"}}, {"accepted", {"paid"}}, {"paid", {"closed"}}, {"denied", {"closed"}}};
    const auto it = next.find(from);
    return it != next.end() && it->second.count(to);
}

// Books the indemnity received: the fund's bank debited, its insurance indemnities credited.
std::string book_indemnity(const ToolCall& call, const Arguments& a, const json& claim, std::int64_t cents, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto fund = a.text_or("indemnityFund", "operating");
    const auto day = date_argument(a, "indemnityReceivedOn").value_or(today(call));
    if (day > today(call)) throw invalid_argument("/indemnityReceivedOn", "is after today", "An indemnity is received on a day that has come.");
    accounting::require_open_period(call.db, syndicate, day, "/indemnityReceivedOn");
    accounting::EntryDraft entry{day, "Indemnité d'assurance — sinistre du " + claim["occurredOn"].get<std::string>(), "adjustment", {}, std::nullopt,
                                 std::nullopt};
    entry.lines.push_back(accounting::make_line(accounting::system_account(call.db, syndicate, fund, "bank"), cents, 0));
    entry.lines.push_back(accounting::make_line(accounting::system_account(call.db, syndicate, fund, "insurance-indemnities"), 0, cents));
    return accounting::post_entry(call.db, syndicate, entry, now);
}

// Charges the deductible to the responsible co-owner's unit, into the self-insurance fund.
std::string recover_deductible(const ToolCall& call, const json& claim, const std::string& co_owner, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    if (!claim["deductibleRecoveryChargeId"].is_null())
        throw invalid_argument("/recoverDeductible", "was charged already", "The deductible was charged back already (charge " +
                                                                                claim["deductibleRecoveryChargeId"].get<std::string>() + ").");
    const auto cents = claim["deductibleCents"].get<std::int64_t>();
    if (cents <= 0) throw invalid_argument("/recoverDeductible", "has no deductible", "The claim's deductible is 0: nothing to charge back.");
    auto q = call.db.prepare("SELECT unit_id FROM co_owners WHERE id = ?");
    bind_parameters(*q, co_owner);
    q->executeStep();
    const auto day = today(call);
    accounting::ChargeDraft d;
    d.unit_id = q->getColumn(0).getString();
    d.kind = "deductible-recovery";
    d.description = "Franchise d'assurance — sinistre du " + claim["occurredOn"].get<std::string>() + " (art. 1074.2 C.c.Q.)";
    d.posted_on = day;
    d.due_on = add_calendar_days(day, 30);
    d.entry_source = "adjustment";
    d.source_type = "insurance-claim";
    d.source_id = claim["id"].get<std::string>();
    d.funds = {{"self-insurance", cents}};
    const auto charge = accounting::create_charge(call.db, syndicate, d, now);
    call.name_event("charge.created", "charge", charge);
    return charge;
}

}  // namespace

json update_insurance_claim(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto id = a.text("id");
    require_record_exists(call.db, syndicate, "insurance_claims", id, "/id");
    if (a.given("responsibleCoOwnerId")) require_record_exists(call.db, syndicate, "co_owners", a.text("responsibleCoOwnerId"), "/responsibleCoOwnerId");
    const auto documents = a.texts("documentIds");
    for (std::size_t i = 0; i < documents.size(); ++i)
        require_record_exists(call.db, syndicate, "documents", documents[i], "/documentIds/" + std::to_string(i));
    auto claim = claim_json(call.db, syndicate, id);
    const auto from = claim["status"].get<std::string>();
    const auto to = a.text_or("status", from);
    if (from == "closed" || from == "withdrawn" || (to != from && !allowed(from, to)))
        throw DomainError(syndic::codes::invalid_status_transition, "The claim is " + from + (to != from ? "; it does not go to " + to : std::string()) +
                                                                        " (open → accepted, denied or withdrawn; accepted → paid → closed; denied → closed).")
            .at(to != from ? "/status" : "/id")
            .with("status", from);
    const bool booked = !claim["indemnityEntryId"].is_null();
    if (booked && a.given("indemnityCents") && a.integer("indemnityCents") != claim["indemnityCents"].get<std::int64_t>())
        throw invalid_argument("/indemnityCents", "is booked already", "The indemnity was booked when paid; it no longer changes.");
    const auto indemnity = a.optional_integer("indemnityCents").value_or(claim["indemnityCents"].is_null() ? -1 : claim["indemnityCents"].get<std::int64_t>());
    if (to == "paid" && from != "paid" && indemnity < 0)
        throw invalid_argument("/indemnityCents", "is required to mark it paid", "Give the indemnity the insurer paid (indemnityCents).");
    const auto now = to_utc_iso(call.clock.now());
    std::optional<std::string> entry = booked ? std::optional<std::string>(claim["indemnityEntryId"].get<std::string>()) : std::nullopt;
    if (to == "paid" && from != "paid" && indemnity > 0) entry = book_indemnity(call, a, claim, indemnity, now);
    const auto responsible = a.optional_text("responsibleCoOwnerId").value_or(claim["responsibleCoOwnerId"].is_null() ? "" : claim["responsibleCoOwnerId"].get<std::string>());
    if (a.given("deductibleCents")) claim["deductibleCents"] = a.integer("deductibleCents");
    std::optional<std::string> recovery = claim["deductibleRecoveryChargeId"].is_null() ? std::nullopt
                                                                                        : std::optional<std::string>(claim["deductibleRecoveryChargeId"].get<std::string>());
    if (a.flag("recoverDeductible", false)) {
        if (responsible.empty())
            throw invalid_argument("/recoverDeductible", "needs the co-owner responsible", "Name the co-owner responsible for the loss (responsibleCoOwnerId).");
        recovery = recover_deductible(call, claim, responsible, now);
    }
    json all_documents = claim["documentIds"];
    for (const auto& d : documents) {
        if (std::find(all_documents.begin(), all_documents.end(), d) == all_documents.end()) all_documents.push_back(d);
        documents::attach(call.db, syndicate, d, "insurance-claim", id, now);
    }
    auto q = call.db.prepare(
        "UPDATE insurance_claims SET status = ?, claim_number = coalesce(?, claim_number), indemnity_cents = ?, indemnity_entry_id = ?, "
        "deductible_cents = ?, responsible_co_owner_id = ?, deductible_recovery_charge_id = ?, document_ids = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, to, a.optional_nonblank("claimNumber"), indemnity < 0 ? std::nullopt : std::optional<std::int64_t>(indemnity), entry,
                    claim["deductibleCents"].get<std::int64_t>(), responsible.empty() ? std::nullopt : std::optional<std::string>(responsible),
                    recovery, all_documents.dump(), now, id);
    q->exec();
    call.name_event("insurance_claim.updated", "insurance-claim", id);
    return claim_json(call.db, syndicate, id);
}

}  // namespace syndic::insurance
