// Work done on a component, as the logbook records it (record_maintenance's rules), for the modules
// that record it within their own act: a resolved request (requests), a closed project (projects).
// Knows the call and the arguments; not JSON-RPC.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

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

}  // namespace syndic::logbook
