// The logbook module's tool handlers (catalogue §4.7), one file per part: components.cpp (the
// inventory), schedules.cpp (maintenance to do), maintenance.cpp (work done), inspections.cpp,
// status.cpp (get_logbook, record_logbook_revision), plan.cpp (the 25-year plan); logbook.cpp binds them.
#pragma once
#include <nlohmann/json.hpp>

#include "modules/logbook/open_projects.hpp"
#include "tools/registry.hpp"

namespace syndic::logbook {

nlohmann::json get_logbook(const ToolCall& call);
nlohmann::json record_logbook_revision(const ToolCall& call, const OpenProjects& open);
nlohmann::json list_logbook_components(const ToolCall& call);
nlohmann::json get_logbook_component(const ToolCall& call);
nlohmann::json create_logbook_component(const ToolCall& call);
nlohmann::json update_logbook_component(const ToolCall& call);
nlohmann::json delete_logbook_component(const ToolCall& call, const OpenProjects& open);
nlohmann::json set_maintenance_schedule(const ToolCall& call);
nlohmann::json list_maintenance_due(const ToolCall& call);
nlohmann::json record_maintenance(const ToolCall& call);
nlohmann::json list_maintenance_history(const ToolCall& call);
nlohmann::json record_inspection(const ToolCall& call);
nlohmann::json get_major_works_plan(const ToolCall& call, const OpenProjects& open);

}  // namespace syndic::logbook
