// Reading requests (catalogue §4.9 list_requests, get_request): most urgent and oldest first, with
// their comments and links; overdue while still open after their due day.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "modules/requests/tools.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::requests {

using nlohmann::json;

namespace {

#define SYNDIC_STILL_OPEN "(r.status IN ('open', 'acknowledged', 'in-progress'))"

const char* const columns =
    "r.id, r.number, r.requester_co_owner_id, r.requester_occupancy_id, r.requester_name, r.unit_id, u.number, r.category, r.location, "
    "r.common_portion_id, r.component_id, r.priority, r.status, (" SYNDIC_STILL_OPEN " AND r.due_on < :today), r.assignee_director_id, "
    "r.contractor_id, r.description, r.due_on, r.outside_syndicate_scope, r.resolution, r.renovation_decision, r.resolved_on, r.project_id, "
    "r.maintenance_record_id, r.dispute_id, r.document_ids, r.created_at, r.updated_at";

json row(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"number", q.getColumn(1).getString()},
            {"requesterCoOwnerId", nullable_text(q.getColumn(2))},
            {"requesterOccupancyId", nullable_text(q.getColumn(3))},
            {"requesterName", q.getColumn(4).getString()},
            {"unitId", nullable_text(q.getColumn(5))},
            {"unitNumber", nullable_text(q.getColumn(6))},
            {"category", q.getColumn(7).getString()},
            {"location", q.getColumn(8).getString()},
            {"commonPortionId", nullable_text(q.getColumn(9))},
            {"componentId", nullable_text(q.getColumn(10))},
            {"priority", q.getColumn(11).getString()},
            {"status", q.getColumn(12).getString()},
            {"overdue", q.getColumn(13).getInt64() != 0},
            {"assigneeDirectorId", nullable_text(q.getColumn(14))},
            {"contractorId", nullable_text(q.getColumn(15))},
            {"description", q.getColumn(16).getString()},
            {"dueOn", q.getColumn(17).getString()},
            {"outsideSyndicateScope", q.getColumn(18).getInt64() != 0},
            {"resolution", nullable_text(q.getColumn(19))},
            {"renovationDecision", nullable_text(q.getColumn(20))},
            {"resolvedOn", nullable_text(q.getColumn(21))},
            {"links", {{"projectId", nullable_text(q.getColumn(22))}, {"maintenanceRecordId", nullable_text(q.getColumn(23))},
                       {"disputeId", nullable_text(q.getColumn(24))}}},
            {"documentIds", json::parse(q.getColumn(25).getString())},
            {"createdAt", shown_time(q.getColumn(26))},
            {"updatedAt", shown_time(q.getColumn(27))}};
}

const char* const from = " FROM requests r LEFT JOIN units u ON u.id = r.unit_id";

}  // namespace

json request_json(const ToolCall& call, const std::string& id, const std::string& field) {
    auto q = call.db.prepare(std::string("SELECT ") + columns + from + " WHERE r.id = :id AND r.syndicate_id = :syndicate");
    q->bind(":id", id);
    q->bind(":syndicate", call.caller.syndicate_id);
    q->bind(":today", today(call));
    if (!q->executeStep()) throw record_not_found("requests", id, field);
    return row(*q);
}

std::string due_on(const ToolCall& call, const std::string& made_on, const std::string& priority) {
    const std::string name = priority == "urgent" ? "requestSlaUrgentDays" : priority == "high" ? "requestSlaHighDays"
                             : priority == "low"  ? "requestSlaLowDays" : "requestSlaNormalDays";
    return add_calendar_days(made_on, static_cast<int>(setting_int(call.db, call.caller.syndicate_id, name)));
}

json list_requests(const ToolCall& call) {
    const auto a = call.arguments();
    const auto search = a.optional_text("search");
    return list_page(
        call, columns,
        std::string(from) +
            " WHERE r.syndicate_id = :syndicate AND (:status IS NULL OR r.status = :status) AND (:category IS NULL OR r.category = :category) "
            "AND (:priority IS NULL OR r.priority = :priority) AND (:unitId IS NULL OR r.unit_id = :unitId) "
            "AND (:assigneeDirectorId IS NULL OR r.assignee_director_id = :assigneeDirectorId) "
            "AND (:overdue IS NULL OR (" SYNDIC_STILL_OPEN " AND r.due_on < :today) = :overdue) "
            "AND (:search IS NULL OR instr(r.search_text, :search) > 0)",
        // Still open first, then the most urgent, then the oldest.
        "NOT " SYNDIC_STILL_OPEN ", CASE r.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END, r.created_at, r.id",
        {{"status"}, {"category"}, {"priority"}, {"unitId"}, {"assigneeDirectorId"}, {"overdue", ListValue::boolean},
         {"search", ListValue::folded_search}},
        row);
}

json get_request(const ToolCall& call) {
    const auto id = call.arguments().text("id");
    auto out = request_json(call, id);
    out["comments"] = json::array();
    auto q = call.db.prepare("SELECT id, author, body, visibility, created_at FROM request_comments WHERE request_id = ? ORDER BY created_at, id");
    bind_parameters(*q, id);
    while (q->executeStep())
        out["comments"].push_back({{"id", q->getColumn(0).getString()}, {"author", q->getColumn(1).getString()},
                                   {"body", q->getColumn(2).getString()}, {"visibility", q->getColumn(3).getString()},
                                   {"createdAt", shown_time(q->getColumn(4))}});
    return out;
}

}  // namespace syndic::requests

#undef SYNDIC_STILL_OPEN
