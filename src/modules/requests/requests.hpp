// The requests module (catalogue §4.9): the co-owners' and residents' service requests, their
// priority and service delay, comments and replies, and their resolution into work recorded in the
// logbook. Knows the logbook (maintenance.hpp) and the governance questions (the directors alerted).
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_requests_module(ToolTable& table);

}  // namespace syndic
