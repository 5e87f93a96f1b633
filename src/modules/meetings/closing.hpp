// Decisions made without a meeting and the meeting's last act: record_written_resolution (signed by
// all those entitled to vote, art. 354; written_resolutions.cpp) and send_minutes (the final
// minutes to every co-owner, art. 1102.1; minutes_sending.cpp).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "tools/registry.hpp"

namespace syndic::meetings {

nlohmann::json record_written_resolution(const ToolCall& call);
nlohmann::json send_minutes(const ToolCall& call);

}  // namespace syndic::meetings
