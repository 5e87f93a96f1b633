// The logbook's inventory (catalogue §4.7): the components of the common portions and the
// private-portion equipment the syndicate maintains [S31], with their condition, installation year,
// expected life and replacement cost; archived (never erased) once gone, their history kept.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::logbook {

using nlohmann::json;

const RecordTable& components() {
    using enum FieldType;
    static const RecordTable table{
        "logbook_components",
        {{"code", "code", text},
         {"name", "name", required_text},
         {"category", "category", text},
         {"location", "location", text},
         {"commonPortionId", "common_portion_id", reference},
         {"privateUnitIds", "private_unit_ids", json_value},
         {"quantity", "quantity", number},
         {"quantityUnit", "quantity_unit", text},
         {"installedYear", "installed_year", integer},
         {"expectedLifeYears", "expected_life_years", integer},
         {"remainingLifeYears", "(" SYNDIC_REPLACEMENT_YEAR " - " SYNDIC_THIS_YEAR ")", integer, FieldRole::computed},
         {"condition", "condition", text},
         {"replacementCostCents", "replacement_cost_cents", integer},
         {"replacementYear", SYNDIC_REPLACEMENT_YEAR, integer, FieldRole::computed},
         {"replacementYearOverridden", "(r.replacement_year IS NOT NULL)", boolean, FieldRole::computed},
         {"replacementYearSet", "replacement_year", integer, FieldRole::hidden},
         {"warrantyUntil", "warranty_until", date},
         {"manufacturer", "manufacturer", text},
         {"model", "model", text},
         {"documentIds", "document_ids", json_value},
         {"notes", "notes", text},
         {"lastInspectedOn", "r.last_inspected_on", date, FieldRole::computed},
         {"searchText", "search_text", text, FieldRole::hidden}},
    };
    return table;
}

json require_component(const ToolCall& call, const std::string& id, const std::string& field) {
    return require_record(call, components(), id, field);
}

int this_year(const ToolCall& call) { return std::stoi(today(call).substr(0, 4)); }

namespace {

// The component's rules (create and update): where it is, its years, its search text.
void check_component(const ToolCall& call, const json& record, json& values) {
    const auto a = call.arguments();
    if (values.contains("commonPortionId") && values["commonPortionId"].is_string())
        require_record_exists(call.db, call.caller.syndicate_id, "common_portions", values["commonPortionId"].get<std::string>(), "/commonPortionId",
                              RecordState::active);
    if (values.contains("privateUnitIds"))
        require_records_exist(call.db, call.caller.syndicate_id, "units", values["privateUnitIds"].get<std::vector<std::string>>(), "/privateUnitIds",
                              RecordState::active);
    if (values.contains("documentIds"))
        require_records_exist(call.db, call.caller.syndicate_id, "documents", values["documentIds"].get<std::vector<std::string>>(), "/documentIds",
                              RecordState::active);
    const auto after = merged(record, values);
    const bool in_common = after.value("commonPortionId", json()).is_string();
    const bool in_units = !after.value("privateUnitIds", json::array()).empty();
    if (!in_common && !in_units)
        throw DomainError("COMPONENT_LOCATION_REQUIRED", "Say where the component is: the common portion it is part of (commonPortionId), or the "
                                                         "units whose private-portion equipment the syndicate maintains (privateUnitIds).")
            .at("/commonPortionId");
    const int year = this_year(call);
    if (values.contains("installedYear") && values["installedYear"].is_number() && values["installedYear"].get<int>() > year)
        throw invalid_argument("/installedYear", "is after this year",
                               "A component is installed already: " + std::to_string(values["installedYear"].get<int>()) + " is after " +
                                   std::to_string(year) + ". Plan a future replacement with replacementYear.");
    if (a.has("replacementYear")) {
        const auto given = a.value("replacementYear");
        if (given.is_number() && given.get<int>() < year)
            throw invalid_argument("/replacementYear", "is before this year",
                                   "A replacement year set by hand is this year or later; " + std::to_string(given.get<int>()) +
                                       " has passed. To say it is past its life, leave the year to installedYear + expectedLifeYears.");
        values["replacementYearSet"] = given;
    }
    if (values.contains("name") || values.contains("code") || values.contains("location")) {
        std::string search = fold_for_search(after["name"].get<std::string>());
        for (const char* key : {"code", "location"})
            if (after.value(key, json()).is_string()) search += "\n" + fold_for_search(after[key].get<std::string>());
        values["searchText"] = search;
    }
}

}  // namespace

json list_logbook_components(const ToolCall& call) {
    const auto a = call.arguments();
    return list_records(
        call, components(),
        "(?2 IS NULL OR r.category = ?2) AND (?3 IS NULL OR r.condition = ?3) AND (?4 IS NULL OR r.common_portion_id = ?4) AND "
        "(?5 IS NULL OR EXISTS (SELECT 1 FROM json_each(r.private_unit_ids) u WHERE u.value = ?5)) AND "
        "(?6 IS NULL OR " SYNDIC_REPLACEMENT_YEAR " < ?6) AND (?7 IS NULL OR instr(r.search_text, ?7) > 0)",
        // Next replacement first; those without a year last.
        SYNDIC_REPLACEMENT_YEAR " IS NULL, " SYNDIC_REPLACEMENT_YEAR ", r.name, r.id", [&](SQLite::Statement& q) {
            const auto search = a.optional_text("search");
            bind_parameters(q, call.caller.syndicate_id, a.optional_text("category"), a.optional_text("condition"),
                            a.optional_text("commonPortionId"), a.optional_text("unitId"), a.optional_integer("replacementBefore"),
                            search ? std::optional<std::string>(fold_for_search(trim(*search))) : std::nullopt);
        });
}

json get_logbook_component(const ToolCall& call) {
    const auto id = call.arguments().text("id");
    auto out = require_record_any_state(call, components(), id);
    const auto day = today(call);
    out["schedules"] = json::array();
    auto s = call.db.prepare(std::string("SELECT ") + schedule_columns +
                             " FROM maintenance_schedules s JOIN logbook_components c ON c.id = s.component_id WHERE s.component_id = ? "
                             "ORDER BY s.active DESC, s.next_due_on, s.id");
    bind_parameters(*s, id);
    while (s->executeStep()) out["schedules"].push_back(schedule_row(*s, day, 60));
    out["recentMaintenance"] = json::array();
    auto m = call.db.prepare(std::string("SELECT ") + maintenance_columns +
                             " FROM maintenance_records m JOIN logbook_components c ON c.id = m.component_id WHERE m.component_id = ? "
                             "ORDER BY m.performed_on DESC, m.created_at DESC, m.id LIMIT 20");
    bind_parameters(*m, id);
    while (m->executeStep()) out["recentMaintenance"].push_back(maintenance_row(*m));
    out["inspectionFindings"] = json::array();
    auto f = call.db.prepare(
        "SELECT i.id, i.performed_on, i.inspector_name, f.condition, f.remaining_life_years, f.recommendation, f.estimated_cost_cents, "
        "f.recommended_year FROM inspection_findings f JOIN inspections i ON i.id = f.inspection_id WHERE f.component_id = ? "
        "ORDER BY i.performed_on DESC, i.id");
    bind_parameters(*f, id);
    while (f->executeStep())
        out["inspectionFindings"].push_back({{"inspectionId", f->getColumn(0).getString()}, {"performedOn", f->getColumn(1).getString()},
                                             {"inspector", f->getColumn(2).getString()}, {"condition", f->getColumn(3).getString()},
                                             {"remainingLifeYears", nullable_integer(f->getColumn(4))},
                                             {"recommendation", nullable_text(f->getColumn(5))},
                                             {"estimatedCostCents", nullable_integer(f->getColumn(6))},
                                             {"recommendedYear", nullable_integer(f->getColumn(7))}});
    return out;
}

json create_logbook_component(const ToolCall& call) { return create_from_arguments(call, components(), check_component); }

json update_logbook_component(const ToolCall& call) { return update_from_arguments(call, components(), check_component); }

json delete_logbook_component(const ToolCall& call, const OpenProjects& open) {
    const auto id = call.arguments().text("id");
    const auto record = require_component(call, id, "/id");
    auto q = call.db.prepare("SELECT count(*) FROM maintenance_schedules WHERE component_id = ? AND active = 1");
    bind_parameters(*q, id);
    q->executeStep();
    const auto schedules = q->getColumn(0).getInt64();
    std::int64_t projects = 0;
    if (open)
        for (const auto& p : open(call.db, call.caller.syndicate_id))
            projects += std::count(p.component_ids.begin(), p.component_ids.end(), id);
    if (schedules > 0 || projects > 0)
        throw DomainError("COMPONENT_IN_USE", record["name"].get<std::string>() + " still has " + std::to_string(schedules) +
                                                  " active maintenance schedule(s) (stop them: set_maintenance_schedule, active false) and " +
                                                  std::to_string(projects) + " open project(s) working on it.")
            .at("/id")
            .with("schedules", schedules)
            .with("projects", projects);
    return archive_record(call, components(), id);
}

}  // namespace syndic::logbook
