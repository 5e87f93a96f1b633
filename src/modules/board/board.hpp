// The board of directors (catalogue §4.3): directors and their offices, ends of mandate (history
// kept), the interests directors declare (art. 324) and the manager's mandate (art. 1085). Knows
// the declaration's board parameters (declaration/parameters), resolutions and the directors in
// office (governance), co-owners' standing (accounting/standing) and insurance policies through
// storage; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_board_module(ToolTable& table);

}  // namespace syndic
