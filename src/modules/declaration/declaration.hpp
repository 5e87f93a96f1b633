// The declaration of co-ownership's fractions: reading the sum of unit fractions and rebalancing
// them proportionally to exactly 100. Knows the units register and storage; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_declaration_tools(ToolTable& table);

}  // namespace syndic
