// The register of co-owners: who owns which unit and their share of the votes, one primary
// co-owner per unit, archival (soft delete) that revokes portal access, restore, bulk entry.
// Knows storage, core and the units register; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_co_owners_module(ToolTable& table);

}  // namespace syndic
