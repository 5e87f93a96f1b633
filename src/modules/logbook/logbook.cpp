#include "modules/logbook/logbook.hpp"

#include "modules/logbook/tools.hpp"

namespace syndic {

void register_logbook_module(ToolTable& table) {
    table.bind("get_logbook", logbook::get_logbook);
    table.bind("record_logbook_revision", logbook::record_logbook_revision);
    table.bind("list_logbook_components", logbook::list_logbook_components);
    table.bind("get_logbook_component", logbook::get_logbook_component);
    table.bind("create_logbook_component", logbook::create_logbook_component);
    table.bind("update_logbook_component", logbook::update_logbook_component);
    table.bind("delete_logbook_component", logbook::delete_logbook_component);
    table.bind("set_maintenance_schedule", logbook::set_maintenance_schedule);
    table.bind("list_maintenance_due", logbook::list_maintenance_due);
    table.bind("record_maintenance", logbook::record_maintenance);
    table.bind("list_maintenance_history", logbook::list_maintenance_history);
    table.bind("record_inspection", logbook::record_inspection);
    table.bind("get_major_works_plan", logbook::get_major_works_plan);
}

}  // namespace syndic
