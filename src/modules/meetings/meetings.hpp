// General meetings and board meetings: scheduling, the notice (21 days, queued per co-owner in
// their language), attendance, quorum, resolutions and votes, and the minutes as a PDF document.
// Status moves forward only (decisions 6). The module's files, each with one job: store (rows and
// SQL), rules, presenter (records to JSON), notices, minutes, handlers (one thin function per
// tool, and this registration). Knows storage, core and the co-owners register; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_meetings_module(ToolTable& table);

}  // namespace syndic
