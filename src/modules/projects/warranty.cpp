// Warranty claims (catalogue §4.8 add_warranty_claim, update_warranty_claim): a defect reported to the
// contractor within its window (poor workmanship 1 year after acceptance, art. 2120; loss of the
// work 5 years, art. 2118; or the contract's date), notified in writing by e-mail, then followed
// until repaired or refused, and closed.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/outbox_queue.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

// The written notice to the contractor (its e-mail), in French: queued, or none without an address.
int notify_contractor(const ToolCall& call, const Project& p, const json& claim, bool& without_email) {
    auto q = call.db.prepare("SELECT email, name FROM contractors WHERE id = ?");
    bind_parameters(*q, *p.contractor_id);
    q->executeStep();
    if (q->getColumn(0).isNull()) {
        without_email = true;
        return 0;
    }
    QueuedMessage m;
    m.recipient = q->getColumn(0).getString();
    m.language = "fr";
    m.subject = "Avis de réclamation sous garantie — projet " + p.number;
    m.body = "Madame, Monsieur,\n\nLe syndicat vous avise d'un défaut découvert le " + claim["discoveredOn"].get<std::string>() +
             " dans les travaux du projet " + p.number + " (" + p.title + "), reçus le " + *p.completed_on + " :\n\n" +
             claim["description"].get<std::string>() + "\n\nCe défaut est couvert par la garantie " +
             (claim["basis"] == "workmanship" ? std::string("contre les malfaçons (art. 2120 C.c.Q.)")
              : claim["basis"] == "loss-of-work" ? std::string("contre la perte de l'ouvrage (art. 2118 C.c.Q.)")
                                                 : std::string("prévue au contrat")) +
             ", jusqu'au " + claim["windowEndsOn"].get<std::string>() + ". Nous vous prions de communiquer avec nous pour convenir des réparations.";
    m.related_type = "warranty-claim";
    m.related_id = claim["id"];
    queue_outbox_message(call.db, call.caller.syndicate_id, m, to_utc_iso(call.clock.now()));
    return 1;
}

}  // namespace

json add_warranty_claim(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    const auto documents = a.texts("documentIds");
    require_records_exist(call.db, syndicate, "documents", documents, "/documentIds");
    require_status(p, {"completed", "closed"}, "a warranty runs from the acceptance of the work", "/projectId");
    if (!p.contractor_id) throw DomainError("NO_CONTRACT", "The project " + p.number + " had no contractor to claim from.").at("/projectId");
    const auto basis = a.text("basis");
    if (basis == "contractual" && !a.given("contractualEndsOn"))
        throw invalid_argument("/contractualEndsOn", "is required for a contractual warranty", "Give the day the contract's warranty ends.");
    auto w = call.db.prepare("SELECT warranty_ends_on, structural_warranty_ends_on FROM projects WHERE id = ?");
    bind_parameters(*w, project_id);
    w->executeStep();
    const auto window = basis == "workmanship" ? w->getColumn(0).getString() : basis == "loss-of-work" ? w->getColumn(1).getString()
                                                                                                    : *date_argument(a, "contractualEndsOn");
    const auto discovered = *date_argument(a, "discoveredOn");
    require_not_future(call, discovered, "/discoveredOn");
    if (discovered < *p.completed_on)
        throw DomainError(codes::invalid_date_range, "A defect under warranty is discovered after the acceptance of " + *p.completed_on + ".").at("/discoveredOn");
    if (discovered > window)
        throw DomainError("WARRANTY_EXPIRED", "This warranty ended on " + window + "; the defect was discovered on " + discovered + ".")
            .at("/discoveredOn")
            .with("windowEndsOn", window);
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO warranty_claims (id, syndicate_id, project_id, contractor_id, discovered_on, description, basis, window_ends_on, document_ids, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, project_id, *p.contractor_id, discovered, a.nonblank("description"), basis, window, json(documents).dump(), now, now);
    q->exec();
    bool without_email = false;
    int queued = 0;
    if (a.flag("notify", true)) {
        queued = notify_contractor(call, p, warranty_claim_json(call.db, id), without_email);
        if (queued > 0) {
            auto n = call.db.prepare("UPDATE warranty_claims SET status = 'notified', notified_on = ? WHERE id = ?");
            bind_parameters(*n, today(call), id);
            n->exec();
        }
    }
    auto out = warranty_claim_json(call.db, id);
    out["queued"] = queued;
    out["withoutEmail"] = without_email;
    return out;
}

json update_warranty_claim(const ToolCall& call) {
    const auto a = call.arguments();
    const auto project_id = a.text("projectId");
    require_project(call, project_id, "/projectId");
    const auto id = a.text("claimId");
    require_child(call, "warranty_claims", id, project_id, "/claimId");
    const auto before = warranty_claim_json(call.db, id);
    const auto from = before["status"].get<std::string>();
    const auto to = a.text("status");
    const bool allowed = (from == "open" && to == "notified") || (from == "notified" && (to == "repaired" || to == "refused")) ||
                         ((from == "repaired" || from == "refused") && to == "closed");
    if (!allowed)
        throw DomainError(codes::invalid_status_transition, "A claim " + from + " cannot become " + to + ".").at("/status").with("status", from);
    auto q = call.db.prepare(
        "UPDATE warranty_claims SET status = ?1, notified_on = CASE WHEN ?1 = 'notified' THEN coalesce(notified_on, ?2) ELSE notified_on END, "
        "note = coalesce(?3, note), updated_at = ?4 WHERE id = ?5");
    bind_parameters(*q, to, today(call), a.optional_nonblank("note"), to_utc_iso(call.clock.now()), id);
    q->exec();
    return warranty_claim_json(call.db, id);
}

}  // namespace syndic::projects
