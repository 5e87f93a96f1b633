// The maintenance to do (catalogue §4.7): recurring tasks on components, each due its frequency
// after it was last done (else after its start), and the list of what is due within a horizon,
// overdue first. The next date is kept on the row so what is due reads by index.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::logbook {

using nlohmann::json;

const char* const schedule_columns =
    "s.id, s.component_id, c.name, s.task, s.frequency_months, s.start_on, s.last_done_on, s.next_due_on, s.responsible_contractor_id, "
    "s.responsible, s.legal_basis, s.active, s.created_at, s.updated_at";

json schedule_row(SQLite::Statement& q, const std::string& today, int horizon_days) {
    const auto next = q.getColumn(7).getString();
    const bool active = q.getColumn(11).getInt64() != 0;
    const int days = calendar_days_between(today, next);
    const char* status = !active ? "stopped" : days < 0 ? "overdue" : days <= horizon_days ? "due" : "scheduled";
    return {{"id", q.getColumn(0).getString()},
            {"componentId", q.getColumn(1).getString()},
            {"componentName", q.getColumn(2).getString()},
            {"task", q.getColumn(3).getString()},
            {"frequencyMonths", q.getColumn(4).getInt64()},
            {"startOn", q.getColumn(5).getString()},
            {"lastDoneOn", nullable_text(q.getColumn(6))},
            {"nextDueOn", next},
            {"status", status},
            {"daysUntilDue", days},
            {"responsibleContractorId", nullable_text(q.getColumn(8))},
            {"responsible", nullable_text(q.getColumn(9))},
            {"legalBasis", nullable_text(q.getColumn(10))},
            {"active", active},
            {"createdAt", shown_time(q.getColumn(12))},
            {"updatedAt", shown_time(q.getColumn(13))}};
}

json schedule_json(Database& db, const std::string& id, const std::string& today, int horizon_days) {
    auto q = db.prepare(std::string("SELECT ") + schedule_columns +
                        " FROM maintenance_schedules s JOIN logbook_components c ON c.id = s.component_id WHERE s.id = ?");
    bind_parameters(*q, id);
    if (!q->executeStep()) throw std::logic_error("no schedule " + id);
    return schedule_row(*q, today, horizon_days);
}

namespace {

struct Schedule {
    std::string task, start_on;
    std::optional<std::string> last_done_on;
    std::int64_t frequency_months = 0;
};

// The schedule `id` of the component (SCHEDULE_NOT_FOUND when it is another's or none).
Schedule require_schedule(const ToolCall& call, const std::string& id, const std::string& component_id) {
    auto q = call.db.prepare(
        "SELECT task, start_on, last_done_on, frequency_months FROM maintenance_schedules WHERE id = ? AND syndicate_id = ? AND component_id = ?");
    bind_parameters(*q, id, call.caller.syndicate_id, component_id);
    if (!q->executeStep()) throw record_not_found("maintenance_schedules", id, "/scheduleId");
    return {q->getColumn(0).getString(), q->getColumn(1).getString(), optional_text(*q, 2), q->getColumn(3).getInt64()};
}

}  // namespace

json set_maintenance_schedule(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto component_id = a.text("componentId");
    require_component(call, component_id, "/componentId");
    const auto day = today(call);
    Schedule s;
    const bool creating = !a.given("scheduleId");
    if (!creating) s = require_schedule(call, a.text("scheduleId"), component_id);
    if (a.given("responsibleContractorId"))
        require_record_exists(call.db, syndicate, "contractors", a.text("responsibleContractorId"), "/responsibleContractorId", RecordState::active);
    if (creating)
        for (const char* field : {"task", "frequencyMonths"})
            if (!a.given(field))
                throw invalid_argument(std::string("/") + field, "is required for a new schedule",
                                       "A new schedule says its task and how often it recurs (frequencyMonths); to change one, give scheduleId.");
    if (a.given("task")) s.task = a.nonblank("task");
    if (a.given("frequencyMonths")) s.frequency_months = a.integer("frequencyMonths");
    if (a.given("startOn")) s.start_on = *date_argument(a, "startOn");
    else if (creating) s.start_on = day;
    if (a.has("lastDoneOn")) s.last_done_on = date_argument(a, "lastDoneOn");
    if (s.last_done_on && *s.last_done_on > day)
        throw DomainError(codes::invalid_date_range, "Maintenance is done on a day that has come: " + *s.last_done_on + " is after today.")
            .at("/lastDoneOn");
    const auto next = add_calendar_months(s.last_done_on.value_or(s.start_on), static_cast<int>(s.frequency_months));
    const auto now = to_utc_iso(call.clock.now());
    std::string id;
    if (creating) {
        id = new_record_id();
        auto q = call.db.prepare(
            "INSERT INTO maintenance_schedules (id, syndicate_id, component_id, task, frequency_months, start_on, last_done_on, next_due_on, "
            "responsible_contractor_id, responsible, legal_basis, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        bind_parameters(*q, id, syndicate, component_id, s.task, s.frequency_months, s.start_on, s.last_done_on, next,
                        a.optional_text("responsibleContractorId"), a.optional_nonblank("responsible"), a.optional_nonblank("legalBasis"),
                        a.flag("active", true) ? 1 : 0, now, now);
        q->exec();
    } else {
        id = a.text("scheduleId");
        auto q = call.db.prepare(
            "UPDATE maintenance_schedules SET task = ?, frequency_months = ?, start_on = ?, last_done_on = ?, next_due_on = ?, "
            "responsible_contractor_id = CASE WHEN ?6 THEN ?7 ELSE responsible_contractor_id END, "
            "responsible = CASE WHEN ?8 THEN ?9 ELSE responsible END, legal_basis = CASE WHEN ?10 THEN ?11 ELSE legal_basis END, "
            "active = coalesce(?12, active), updated_at = ?13 WHERE id = ?14");
        const auto active = a.optional_flag("active");
        bind_parameters(*q, s.task, s.frequency_months, s.start_on, s.last_done_on, next, a.has("responsibleContractorId") ? 1 : 0,
                        a.optional_text("responsibleContractorId"), a.has("responsible") ? 1 : 0, a.optional_nonblank("responsible"),
                        a.has("legalBasis") ? 1 : 0, a.optional_nonblank("legalBasis"),
                        active ? std::optional<int>(*active ? 1 : 0) : std::nullopt, now, id);
        q->exec();
    }
    return schedule_json(call.db, id, day);
}

json list_maintenance_due(const ToolCall& call) {
    const auto a = call.arguments();
    const auto day = today(call);
    const int within = static_cast<int>(a.integer_or("withinDays", 60));
    const auto horizon = add_calendar_days(day, within);
    const std::string from_where =
        " FROM maintenance_schedules s JOIN logbook_components c ON c.id = s.component_id WHERE s.syndicate_id = ?1 AND s.active = 1 "
        "AND s.next_due_on <= ?2 AND c.deleted_at IS NULL AND (?3 IS NULL OR c.category = ?3) AND (?4 = 0 OR s.legal_basis IS NOT NULL)";
    auto bind = [&](SQLite::Statement& q) {
        bind_parameters(q, call.caller.syndicate_id, horizon, a.optional_text("category"), a.flag("legalOnly", false) ? 1 : 0);
    };
    json data = json::array();
    const auto page = page_request(a);
    const auto total = read_page(call.db, "SELECT count(*)" + from_where,
                                 std::string("SELECT ") + schedule_columns + from_where + " ORDER BY s.next_due_on, c.name, s.id LIMIT ?100 OFFSET ?101",
                                 page, bind, [&](SQLite::Statement& q) { data.push_back(schedule_row(q, day, within)); });
    auto overdue = call.db.prepare("SELECT count(*)" + from_where + " AND s.next_due_on < ?5");
    bind_parameters(*overdue, call.caller.syndicate_id, horizon, a.optional_text("category"), a.flag("legalOnly", false) ? 1 : 0, day);
    overdue->executeStep();
    auto out = page_envelope(std::move(data), page, total);
    out["overdueCount"] = overdue->getColumn(0).getInt64();
    return out;
}

}  // namespace syndic::logbook
