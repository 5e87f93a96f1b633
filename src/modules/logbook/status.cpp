// The logbook's status (catalogue §4.7 get_logbook; art. 1070.2, Reg. 991-2025): established by its
// initial preparation (by 2028-08-14), revised by a professional every 5 years (10 for a small,
// horizontal or low building: s. 5), updated by the board at least once a year; and what is late.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::logbook {

using nlohmann::json;

namespace {

// Reg. 991-2025 s. 5: 10 years for a building of 8 private portions or fewer (parking and storage
// aside), a horizontal one, or one of 3 storeys or fewer entirely above ground; 5 otherwise.
std::pair<int, std::string> revision_interval(Database& db, const std::string& syndicate_id) {
    const auto shape = declaration::building_shape(db, syndicate_id);
    auto q = db.prepare("SELECT count(*) FROM units WHERE syndicate_id = ? AND deleted_at IS NULL AND type NOT IN ('parking', 'storage')");
    bind_parameters(*q, syndicate_id);
    q->executeStep();
    const auto portions = q->getColumn(0).getInt64();
    if (shape.horizontal) return {10, "horizontal co-ownership (Reg. 991-2025 s. 5)"};
    if (shape.storeys_above_ground && *shape.storeys_above_ground <= 3)
        return {10, std::to_string(*shape.storeys_above_ground) + " storeys above ground, 3 or fewer (Reg. 991-2025 s. 5)"};
    if (portions <= 8) return {10, std::to_string(portions) + " private portions, parking and storage aside: 8 or fewer (Reg. 991-2025 s. 5)"};
    return {5, std::to_string(portions) + " private portions" +
                   (shape.storeys_above_ground ? ", " + std::to_string(*shape.storeys_above_ground) + " storeys above ground" : std::string()) +
                   " (Reg. 991-2025 s. 5; the declaration's storeysAboveGround and horizontal may shorten it)"};
}

json person(SQLite::Statement& q, int first) {
    if (q.getColumn(first).isNull()) return nullptr;
    return {{"name", q.getColumn(first).getString()}, {"firm", nullable_text(q.getColumn(first + 1))},
            {"order", nullable_text(q.getColumn(first + 2))}, {"memberNumber", nullable_text(q.getColumn(first + 3))}};
}

}  // namespace

json revision_json(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"kind", q.getColumn(1).getString()},
            {"performedOn", q.getColumn(2).getString()},
            {"preparer", person(q, 3)},
            {"independenceAttested", q.getColumn(7).getInt64() != 0},
            {"worksNotDone", json::parse(q.getColumn(8).getString())},
            {"documentId", nullable_text(q.getColumn(9))},
            {"notes", nullable_text(q.getColumn(10))},
            {"createdAt", shown_time(q.getColumn(11))}};
}

const char* const revision_columns =
    "id, kind, performed_on, preparer_name, preparer_firm, preparer_order, preparer_member_number, independence_attested, works_not_done, "
    "document_id, notes, created_at";

json logbook_status(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto day = today(call);
    const auto [interval, reason] = revision_interval(call.db, syndicate);
    json out = {{"preparedOn", nullptr}, {"preparer", nullptr}, {"lastProfessionalRevisionOn", nullptr}, {"revisionIntervalYears", interval},
                {"revisionIntervalReason", reason}, {"nextProfessionalRevisionDue", nullptr}, {"lastAnnualUpdateOn", nullptr},
                {"nextAnnualUpdateDue", nullptr}, {"deadline", "2028-08-14"}, {"revisions", json::array()}, {"documentId", nullptr}};
    auto q = call.db.prepare(std::string("SELECT ") + revision_columns +
                             " FROM logbook_revisions WHERE syndicate_id = ? ORDER BY performed_on, created_at, id");
    bind_parameters(*q, syndicate);
    std::optional<std::string> professional;  // the latest preparation or professional revision
    while (q->executeStep()) {
        auto r = revision_json(*q);
        const auto kind = r["kind"].get<std::string>();
        const auto on = r["performedOn"].get<std::string>();
        if (kind == "initial-preparation" && out["preparedOn"].is_null()) out["preparedOn"] = on;
        if (kind != "annual-update") {
            professional = on;
            out["preparer"] = r["preparer"];
        }
        if (kind == "professional-revision") out["lastProfessionalRevisionOn"] = on;
        out["lastAnnualUpdateOn"] = on;
        out["documentId"] = r["documentId"];
        out["revisions"].push_back(std::move(r));
    }
    const bool established = !out["preparedOn"].is_null();
    if (professional) out["nextProfessionalRevisionDue"] = add_calendar_months(*professional, 12 * interval);
    if (!out["lastAnnualUpdateOn"].is_null()) out["nextAnnualUpdateDue"] = add_calendar_months(out["lastAnnualUpdateOn"].get<std::string>(), 12);
    json counts = {{"good", 0}, {"fair", 0}, {"poor", 0}, {"critical", 0}, {"unknown", 0}, {"total", 0}};
    auto c = call.db.prepare("SELECT condition, count(*) FROM logbook_components WHERE syndicate_id = ? AND deleted_at IS NULL GROUP BY condition");
    bind_parameters(*c, syndicate);
    while (c->executeStep()) {
        counts[c->getColumn(0).getString()] = c->getColumn(1).getInt64();
        counts["total"] = counts["total"].get<std::int64_t>() + c->getColumn(1).getInt64();
    }
    out["counts"] = std::move(counts);
    out["overdueSchedules"] = json::array();
    auto s = call.db.prepare(std::string("SELECT ") + schedule_columns +
                             " FROM maintenance_schedules s JOIN logbook_components c ON c.id = s.component_id WHERE s.syndicate_id = ? "
                             "AND s.active = 1 AND s.next_due_on < ? AND c.deleted_at IS NULL ORDER BY s.next_due_on, c.name, s.id");
    bind_parameters(*s, syndicate, day);
    while (s->executeStep()) out["overdueSchedules"].push_back(schedule_row(*s, day, 60));
    out["componentsPastLife"] = json::array();
    auto p = call.db.prepare("SELECT r.id, r.name, " SYNDIC_REPLACEMENT_YEAR ", r.condition FROM logbook_components r WHERE r.syndicate_id = ?1 "
                             "AND r.deleted_at IS NULL AND " SYNDIC_REPLACEMENT_YEAR " < ?2 ORDER BY 3, r.name, r.id");
    bind_parameters(*p, syndicate, this_year(call));
    while (p->executeStep())
        out["componentsPastLife"].push_back({{"id", p->getColumn(0).getString()}, {"name", p->getColumn(1).getString()},
                                             {"replacementYear", p->getColumn(2).getInt64()}, {"condition", p->getColumn(3).getString()}});
    out["compliance"] = {{"established", established},
                         {"annualUpdateDue", established && out["nextAnnualUpdateDue"].get<std::string>() < day},
                         {"revisionDue", established && out["nextProfessionalRevisionDue"].get<std::string>() < day}};
    return out;
}

json get_logbook(const ToolCall& call) { return logbook_status(call); }

}  // namespace syndic::logbook
