#include "modules/logbook/logbook.hpp"

#include "modules/funds/plan_question.hpp"
#include "modules/logbook/open_projects.hpp"
#include "modules/logbook/records.hpp"
#include "modules/record_table.hpp"
#include "storage/settings.hpp"
#include "modules/logbook/tools.hpp"

namespace syndic {

void register_logbook_module(ToolTable& table) {
    const auto open = table.question<logbook::OpenProjects>(logbook::open_projects_question);
    table.bind("get_logbook", logbook::get_logbook);
    table.bind("record_logbook_revision", [open](const ToolCall& call) -> ToolResult { return logbook::record_logbook_revision(call, *open); });
    table.bind("list_logbook_components", logbook::list_logbook_components);
    table.bind("get_logbook_component", logbook::get_logbook_component);
    table.bind("create_logbook_component", logbook::create_logbook_component);
    table.bind("update_logbook_component", logbook::update_logbook_component);
    table.bind("delete_logbook_component", [open](const ToolCall& call) -> ToolResult { return logbook::delete_logbook_component(call, *open); });
    table.bind("set_maintenance_schedule", logbook::set_maintenance_schedule);
    table.bind("list_maintenance_due", logbook::list_maintenance_due);
    table.bind("record_maintenance", logbook::record_maintenance);
    table.bind("list_maintenance_history", logbook::list_maintenance_history);
    table.bind("record_inspection", logbook::record_inspection);
    *table.question<funds::MajorWorksPlanTotal>(funds::major_works_plan_question) = [open](const ToolCall& call) -> std::optional<std::int64_t> {
        const auto plan = logbook::major_works_plan(call, logbook::this_year(call), 25,
                                                    setting_number(call.db, call.caller.syndicate_id, "constructionInflationPercent"), *open);
        if (plan["totalPlannedCents"] == 0 && plan["unplanned"].empty()) return std::nullopt;  // nothing in the logbook to plan
        return plan["totalPlannedCents"].get<std::int64_t>();
    };
    table.bind("get_major_works_plan", [open](const ToolCall& call) -> ToolResult { return logbook::get_major_works_plan(call, *open); });
}

}  // namespace syndic
