// The accounting module (catalogue §4.4): the syndicate's books in three segregated funds
// (operating, contingency, self-insurance), and the standing of each unit that the voting roll and
// the board ask (standing.hpp). Knows storage, the declaration and the units; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_accounting_module(ToolTable& table);

}  // namespace syndic
