// Opening a request (catalogue §4.9 create_request): for an active co-owner (or a current occupant,
// once the register keeps leases), on a unit or a common portion; a leak is urgent and alerts the
// directors at once; a private-portion request on equipment the syndicate does not maintain is
// accepted but flagged as the co-owner's own responsibility; due by the service delay of its priority.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/governance/in_office.hpp"
#include "modules/outbox_queue.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "modules/requests/tools.hpp"
#include "modules/yearly_number.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::requests {

using nlohmann::json;

namespace {

struct Requester {
    std::string name;
    std::optional<std::string> unit_id;
};

// The requester: an active co-owner (their name, and their unit); an occupant needs the register's
// leases, which are not kept yet: REQUESTER_NOT_FOUND.
Requester require_requester(const ToolCall& call, const Arguments& a) {
    if (a.given("requesterOccupancyId"))
        throw DomainError("REQUESTER_NOT_FOUND", "No current occupant with id " + a.text("requesterOccupancyId") +
                                                     " in this syndicate: the register of leases is not kept yet; open the request for the co-owner.")
            .at("/requesterOccupancyId");
    if (!a.given("requesterCoOwnerId"))
        throw invalid_argument("/requesterCoOwnerId", "is required", "Say who makes the request: requesterCoOwnerId (an active co-owner).");
    const auto id = a.text("requesterCoOwnerId");
    auto q = call.db.prepare("SELECT first_name || ' ' || last_name, unit_id FROM co_owners WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*q, id, call.caller.syndicate_id);
    if (!q->executeStep())
        throw DomainError("REQUESTER_NOT_FOUND", "No active co-owner with id " + id + " in this syndicate.").at("/requesterCoOwnerId");
    return {q->getColumn(0).getString(), optional_text(*q, 1)};
}

// Whether the syndicate maintains equipment in the unit (a logbook component there), or the one named.
bool maintained_in(Database& db, const std::string& syndicate_id, const std::string& unit_id, const std::optional<std::string>& component_id) {
    auto q = db.prepare(
        "SELECT 1 FROM logbook_components c WHERE c.syndicate_id = ?1 AND c.deleted_at IS NULL AND (?3 IS NULL OR c.id = ?3) "
        "AND EXISTS (SELECT 1 FROM json_each(c.private_unit_ids) u WHERE u.value = ?2) LIMIT 1");
    bind_parameters(*q, syndicate_id, unit_id, component_id);
    return q->executeStep();
}

// A leak alerts every director in office with an address, at once.
int alert_directors(const ToolCall& call, const json& request, const std::string& now) {
    int queued = 0;
    const auto& unit = request["unitNumber"];
    const auto where_fr = unit.is_string() ? "unité " + unit.get<std::string>() : std::string("parties communes");
    const auto where_en = unit.is_string() ? "unit " + unit.get<std::string>() : std::string("common portions");
    for (const auto& d : governance::directors_in_office(call.db, call.caller.syndicate_id, today(call))) {
        if (!d.email) continue;
        const bool en = d.language.value_or("fr") == "en";
        QueuedMessage m;
        m.recipient = *d.email;
        m.language = en ? "en" : "fr";
        m.subject = (en ? "Leak reported — request " : "Fuite signalée — demande ") + request["number"].get<std::string>();
        m.body = (en ? "A leak was reported by " : "Une fuite a été signalée par ") + request["requesterName"].get<std::string>() + " (" +
                 (en ? where_en : where_fr) + (en ? "):\n\n" : ")\u00a0:\n\n") + request["description"].get<std::string>() + "\n\n" +
                 (en ? "To answer by " : "À traiter d'ici le ") + request["dueOn"].get<std::string>() + ".";
        m.related_type = "request";
        m.related_id = request["id"];
        queue_outbox_message(call.db, call.caller.syndicate_id, m, now);
        ++queued;
    }
    return queued;
}

}  // namespace

json create_request(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    // Every record the call names exists, before any rule.
    if (a.given("unitId")) require_record_exists(call.db, syndicate, "units", a.text("unitId"), "/unitId", RecordState::active);
    if (a.given("commonPortionId"))
        require_record_exists(call.db, syndicate, "common_portions", a.text("commonPortionId"), "/commonPortionId", RecordState::active);
    if (a.given("componentId"))
        require_record_exists(call.db, syndicate, "logbook_components", a.text("componentId"), "/componentId", RecordState::active);
    const auto documents = a.texts("documentIds");
    require_records_exist(call.db, syndicate, "documents", documents, "/documentIds");
    const auto requester = require_requester(call, a);
    const auto unit_id = a.given("unitId") ? a.optional_text("unitId") : requester.unit_id;
    const auto location = a.text("location");
    if (location == "private" && !unit_id)
        throw invalid_argument("/unitId", "is required in a private portion", "A request in a private portion names its unit (unitId).");
    const auto category = a.text("category");
    const auto priority = a.text_or("priority", category == "leak" ? "urgent" : "normal");
    const auto day = today(call);
    const bool outside = location == "private" && !maintained_in(call.db, syndicate, *unit_id, a.optional_text("componentId"));
    const auto description = a.nonblank("description");
    const auto number = next_yearly_number(call.db, "requests", syndicate, "R-", day.substr(0, 4), 4);
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO requests (id, syndicate_id, number, requester_co_owner_id, requester_name, unit_id, category, location, common_portion_id, "
        "component_id, priority, description, due_on, outside_syndicate_scope, document_ids, search_text, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, number, a.optional_text("requesterCoOwnerId"), requester.name, unit_id, category, location,
                    a.optional_text("commonPortionId"), a.optional_text("componentId"), priority, description, due_on(call, day, priority),
                    outside ? 1 : 0, json(documents).dump(),
                    fold_for_search(number) + "\n" + fold_for_search(requester.name) + "\n" + fold_for_search(description), now, now);
    q->exec();
    for (const auto& document : documents) documents::attach(call.db, syndicate, document, "request", id, now);
    auto out = request_json(call, id);
    out["queued"] = category == "leak" ? alert_directors(call, out, now) : 0;
    return out;
}

}  // namespace syndic::requests
