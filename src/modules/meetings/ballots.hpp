// record_ballots: each co-owner's vote on a resolution, weighed by the voting roll (art. 1098).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "tools/registry.hpp"

namespace syndic::meetings {

nlohmann::json record_ballots(const ToolCall& call);

}  // namespace syndic::meetings
