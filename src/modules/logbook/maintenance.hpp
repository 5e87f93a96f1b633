// Work done on a component, as the logbook records it (record_maintenance's rules), for the modules
// that record it within their own act: a resolved request (requests), a closed project (projects).
// Knows the call and the arguments; not JSON-RPC.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/arguments.hpp"
#include "tools/registry.hpp"

namespace syndic::logbook {

// What else a record names when another module writes it.
struct MaintenanceLinks {
    std::optional<std::string> request_id, project_id;
};

// Records the work `a` describes (record_maintenance's arguments: componentId, kind, performedOn,
// description, scheduleId, contractorId, costCents, fund, invoiceNumber, fundUseAuthorizationId,
// paidOn, conditionAfter, documentIds), its refusals at `a`'s pointers; moves the schedule on,
// resets a replaced component, books the cost; names maintenance.recorded. Returns the record's id.
std::string record_work(const ToolCall& call, const Arguments& a, const MaintenanceLinks& links = {});

// The work a closed project did on a component (close_project, link L12): a maintenance record of
// the project, and the component renewed: installed in `installed_year`, its expected life when
// given, its condition, its replacement year back to installed + life. Names maintenance.recorded.
struct ProjectWork {
    std::string component_id, kind, performed_on, description, project_id, condition = "good";
    std::optional<std::string> contractor_id;
    std::optional<std::int64_t> cost_cents, expected_life_years;
    std::int64_t installed_year = 0;
    std::vector<std::string> document_ids;
};
std::string record_project_work(const ToolCall& call, const ProjectWork& work);

}  // namespace syndic::logbook
