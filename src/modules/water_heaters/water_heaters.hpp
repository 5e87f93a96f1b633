// The water heaters register (chauffe-eau): where each tank is, what protects against its leaks,
// and when the syndicate's insurer wants it replaced. Knows storage and core; not JSON-RPC.
#pragma once
#include <string>

#include "tools/registry.hpp"

namespace syndic {

class Database;

void register_water_heaters_module(ToolTable& table);

// The age in years at which the syndicate's water heaters are to be replaced (10 by default; some
// insurers allow 12). Setting it (1 to 30) throws std::invalid_argument outside that range.

}  // namespace syndic
