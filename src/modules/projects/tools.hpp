// The projects module's tool handlers (catalogue §4.8), one file per part: lifecycle.cpp (the
// project as a record), views.cpp (get_project), approval.cpp (the decisions), contract.cpp (quotes
// and the award), work.cpp (tasks, change orders, progress), money.cpp (invoices and budget),
// closing.cpp (acceptance and closing), warranty.cpp; projects.cpp binds them.
#pragma once
#include <nlohmann/json.hpp>

#include "modules/logbook/open_projects.hpp"
#include "tools/registry.hpp"

namespace syndic::projects {

nlohmann::json list_projects(const ToolCall& call);
nlohmann::json create_project(const ToolCall& call);
nlohmann::json update_project(const ToolCall& call);
nlohmann::json delete_project(const ToolCall& call);
nlohmann::json get_project(const ToolCall& call);
nlohmann::json approve_project(const ToolCall& call);
nlohmann::json add_project_quote(const ToolCall& call);
nlohmann::json award_project_contract(const ToolCall& call);
nlohmann::json add_project_task(const ToolCall& call);
nlohmann::json update_project_task(const ToolCall& call);
nlohmann::json record_project_expense(const ToolCall& call);
nlohmann::json add_change_order(const ToolCall& call);
nlohmann::json decide_change_order(const ToolCall& call);
nlohmann::json add_project_update(const ToolCall& call);
nlohmann::json complete_project(const ToolCall& call);
nlohmann::json close_project(const ToolCall& call);
nlohmann::json get_project_budget(const ToolCall& call);
nlohmann::json add_warranty_claim(const ToolCall& call);
nlohmann::json update_warranty_claim(const ToolCall& call);

// The logbook's question: the open projects, with what the contingency fund has still to pay.
std::vector<logbook::OpenProject> open_projects(Database& db, const std::string& syndicate_id);

}  // namespace syndic::projects
