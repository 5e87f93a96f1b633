// The contractors register (entrepreneurs et professionnels): who does what for the syndicate,
// with the Quebec numbers that identify them (RBQ licence, NEQ) and when their insurance ends.
// Knows storage and core; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_contractors_module(ToolTable& table);

}  // namespace syndic
