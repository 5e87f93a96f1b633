// The tools of a convened meeting that has not ended well or that grows: add_agenda_item (a
// co-owner's question within 5 days of the notice, art. 1088) and adjourn_meeting (a meeting
// without quorum reconvened, art. 1089). Thin handlers over the store, the rules and the roll.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "tools/registry.hpp"

namespace syndic::meetings {

nlohmann::json add_agenda_item(const ToolCall& call);
nlohmann::json adjourn_meeting(const ToolCall& call);

}  // namespace syndic::meetings
