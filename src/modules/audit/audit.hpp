// The audit trail as a tool: reading the events the registry writes for every change
// (storage/audit_trail.hpp). Admins only; nothing here writes. Knows storage, not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_audit_module(ToolTable& table);

}  // namespace syndic
