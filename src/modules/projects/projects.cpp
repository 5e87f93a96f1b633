#include "modules/projects/projects.hpp"

#include "modules/logbook/open_projects.hpp"
#include "modules/projects/tools.hpp"

namespace syndic {

void register_projects_module(ToolTable& table) {
    *table.question<logbook::OpenProjects>(logbook::open_projects_question) = projects::open_projects;
    table.bind("list_projects", projects::list_projects);
    table.bind("create_project", projects::create_project);
    table.bind("update_project", projects::update_project);
    table.bind("delete_project", projects::delete_project);
    table.bind("get_project", projects::get_project);
    table.bind("approve_project", projects::approve_project);
    table.bind("add_project_quote", projects::add_project_quote);
    table.bind("award_project_contract", projects::award_project_contract);
    table.bind("add_project_task", projects::add_project_task);
    table.bind("update_project_task", projects::update_project_task);
    table.bind("record_project_expense", projects::record_project_expense);
    table.bind("add_change_order", projects::add_change_order);
    table.bind("decide_change_order", projects::decide_change_order);
    table.bind("add_project_update", projects::add_project_update);
    table.bind("complete_project", projects::complete_project);
    table.bind("close_project", projects::close_project);
    table.bind("get_project_budget", projects::get_project_budget);
    table.bind("add_warranty_claim", projects::add_warranty_claim);
    table.bind("update_warranty_claim", projects::update_warranty_claim);
}

}  // namespace syndic
