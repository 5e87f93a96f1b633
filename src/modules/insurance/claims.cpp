// list_insurance_claims and record_insurance_claim (catalogue §3.3): a claim opened on a policy in
// force on the day of the loss, its deductible the policy's for that peril (else its highest), paid
// from the self-insurance fund under the board's authorisation (art. 1071.1: the result proposes
// the authorize_fund_use call); claims of the last years feed the attestation.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/insurance/perils.hpp"
#include "modules/insurance/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::insurance {

using nlohmann::json;

json claim_json(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT c.id, c.policy_id, c.claim_number, c.occurred_on, c.reported_on, c.peril, c.description, c.location, c.unit_ids, "
        "c.estimated_loss_cents, c.deductible_cents, c.indemnity_cents, c.status, c.responsible_co_owner_id, "
        "c.deductible_recovery_charge_id, (SELECT a.id FROM fund_use_authorizations a WHERE a.insurance_claim_id = c.id "
        "AND a.status <> 'cancelled' ORDER BY a.created_at DESC LIMIT 1), c.document_ids, c.created_at, c.updated_at, c.indemnity_entry_id "
        "FROM insurance_claims c WHERE c.id = ? AND c.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw std::logic_error("no claim " + id);
    return {{"id", q->getColumn(0).getString()},
            {"policyId", q->getColumn(1).getString()},
            {"claimNumber", nullable_text(q->getColumn(2))},
            {"occurredOn", q->getColumn(3).getString()},
            {"reportedOn", q->getColumn(4).getString()},
            {"peril", q->getColumn(5).getString()},
            {"description", q->getColumn(6).getString()},
            {"location", q->getColumn(7).getString()},
            {"unitIds", json::parse(q->getColumn(8).getString())},
            {"estimatedLossCents", q->getColumn(9).getInt64()},
            {"deductibleCents", q->getColumn(10).getInt64()},
            {"indemnityCents", nullable_integer(q->getColumn(11))},
            {"status", q->getColumn(12).getString()},
            {"responsibleCoOwnerId", nullable_text(q->getColumn(13))},
            {"deductibleRecoveryChargeId", nullable_text(q->getColumn(14))},
            {"fundUseAuthorizationId", nullable_text(q->getColumn(15))},
            {"projectId", nullptr},
            {"documentIds", json::parse(q->getColumn(16).getString())},
            {"createdAt", shown_time(q->getColumn(17))},
            {"updatedAt", shown_time(q->getColumn(18))},
            {"indemnityEntryId", nullable_text(q->getColumn(19))}};
}

json list_insurance_claims(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto page = page_request(a);
    const auto years = a.optional_integer("lastYears");
    const auto since = years ? std::optional<std::string>(add_calendar_months(today(call), -12 * static_cast<int>(*years))) : std::nullopt;
    const std::string where =
        " FROM insurance_claims c WHERE c.syndicate_id = ?1 AND (?2 IS NULL OR c.policy_id = ?2) AND (?3 IS NULL OR c.status = ?3) "
        "AND (?4 IS NULL OR EXISTS (SELECT 1 FROM json_each(c.unit_ids) u WHERE u.value = ?4)) AND (?5 IS NULL OR c.occurred_on >= ?5) "
        "AND (?6 IS NULL OR c.occurred_on <= ?6) AND (?7 IS NULL OR c.occurred_on >= ?7)";
    std::vector<std::string> ids;
    const auto total = read_page(
        call.db, "SELECT count(*)" + where, "SELECT c.id" + where + " ORDER BY c.occurred_on DESC, c.id LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) {
            bind_parameters(q, syndicate, a.optional_text("policyId"), a.optional_text("status"), a.optional_text("unitId"),
                            date_argument(a, "from"), date_argument(a, "to"), since);
        },
        [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
    json data = json::array();
    for (const auto& id : ids) data.push_back(claim_json(call.db, syndicate, id));
    return page_envelope(std::move(data), page, total);
}

namespace {

// The policy's coverages when it is in force on `day` (POLICY_NOT_IN_FORCE otherwise).
json coverages_in_force(Database& db, const std::string& syndicate_id, const std::string& policy_id, const std::string& day) {
    auto q = db.prepare("SELECT coverages, start_date, end_date, policy_number FROM insurance_policies WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, policy_id, syndicate_id);
    q->executeStep();
    const auto start = q->getColumn(1).getString(), end = q->getColumn(2).getString();
    if (day < start || day >= end)
        throw DomainError("POLICY_NOT_IN_FORCE", "The policy " + q->getColumn(3).getString() + " covers from " + start + " until " + end +
                                                     ": it was not in force on " + day + ", the day of the loss.")
            .at("/occurredOn")
            .with("startDate", start)
            .with("endDate", end);
    return json::parse(q->getColumn(0).getString());
}

}  // namespace

json record_insurance_claim(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto policy = a.text("policyId");
    require_record_exists(call.db, syndicate, "insurance_policies", policy, "/policyId", RecordState::active);
    const auto units = a.texts("unitIds");
    for (std::size_t i = 0; i < units.size(); ++i)
        require_record_exists(call.db, syndicate, "units", units[i], "/unitIds/" + std::to_string(i), RecordState::active);
    if (a.given("responsibleCoOwnerId"))
        require_record_exists(call.db, syndicate, "co_owners", a.text("responsibleCoOwnerId"), "/responsibleCoOwnerId");
    const auto occurred = *date_argument(a, "occurredOn");
    const auto reported = *date_argument(a, "reportedOn");
    const auto day = today(call);
    if (reported < occurred || reported > day)
        throw DomainError(codes::invalid_date_range, "A loss is reported on or after the day it occurred (" + occurred + ") and not after today (" +
                                                         day + "); " + reported + " is not.")
            .at("/reportedOn");
    const auto location = a.text("location");
    if (location != "common" && units.empty())
        throw invalid_argument("/unitIds", "names no unit", "A loss in a private portion names the units it touched (unitIds).");
    const auto peril = a.nonblank("peril");
    const auto coverages = coverages_in_force(call.db, syndicate, policy, occurred);
    const auto deductible = a.optional_integer("deductibleCents").value_or(deductible_for(coverages, peril));
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO insurance_claims (id, syndicate_id, policy_id, occurred_on, reported_on, peril, description, location, unit_ids, "
        "estimated_loss_cents, deductible_cents, responsible_co_owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, policy, occurred, reported, peril, a.nonblank("description"), location, json(units).dump(),
                    a.integer("estimatedLossCents"), deductible, a.optional_text("responsibleCoOwnerId"), now, now);
    q->exec();
    call.name_event("insurance_claim.created", "insurance-claim", id);
    auto out = claim_json(call.db, syndicate, id);
    // Art. 1071.1: the deductible comes out of the self-insurance fund, by the board's authorisation.
    out["proposedFundUse"] = nullptr;
    if (deductible > 0)
        out["proposedFundUse"] = {{"tool", "authorize_fund_use"},
                                  {"arguments", {{"fund", "self-insurance"}, {"amountCents", deductible}, {"use", "deductible"},
                                                 {"purpose", "Franchise — sinistre du " + occurred + " (" + peril + ")"},
                                                 {"insuranceClaimId", id}, {"resolutionId", "<a passed resolution of the board>"}}}};
    return out;
}

}  // namespace syndic::insurance
