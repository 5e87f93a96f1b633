// A general meeting called at the co-owners' written request (art. 352, catalogue §3.2): who asked
// and when, how many votes they hold, and by when the board must call the meeting (21 days).
// Checks the request and shows it; knows no tool calls.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

#include "core/clock.hpp"
#include "modules/meetings/store.hpp"

namespace syndic::meetings {

inline constexpr int requisition_call_days = 21;     // art. 352: the board calls it within 21 days
inline constexpr int requisition_votes_percent = 10;  // art. 352: co-owners holding 10 % of the votes

// A requisition calls a general meeting: NOT_A_GENERAL_MEETING at /requisition for a board one
// (a requisitioned meeting changed into a board meeting, too).
void require_requisitioned_type(const std::string& meeting_type);

// The requisition argument of update_meeting, checked, as it is stored; nullopt
// for null (none, or cleared). NOT_A_GENERAL_MEETING for a board meeting; CO_OWNER_NOT_FOUND at
// /requisition/coOwnerIds/i for one who is not an active co-owner of the syndicate; a co-owner
// listed twice or a request received after `today` is invalid.
std::optional<std::string> checked_requisition(Database& db, const std::string& syndicate_id, const std::string& meeting_type,
                                               const nlohmann::json& value, const std::string& today);

// The meeting's requisition as shown, or null: the request, the share of all votes its co-owners
// hold today, the day the meeting must be called by, the day it was (its notice), and whether the
// call is late (after that day, or not yet made once it has passed).
nlohmann::json requisition_json(Database& db, const std::string& syndicate_id, const Meeting& m, Instant now);

}  // namespace syndic::meetings
