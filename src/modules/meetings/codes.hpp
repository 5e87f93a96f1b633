// The meetings module's own error codes (declared with their statuses in
// schemas/meetings/module.json). The core codes stay reachable as meetings::codes:: too, so a
// file of the module that includes this header still names codes::meeting_not_found.
#pragma once
#include "core/error.hpp"

namespace syndic::meetings::codes {
using namespace ::syndic::codes;
inline constexpr const char* ballots_required = "BALLOTS_REQUIRED";
inline constexpr const char* agenda_request_too_late = "AGENDA_REQUEST_TOO_LATE";
inline constexpr const char* not_a_general_meeting = "NOT_A_GENERAL_MEETING";
inline constexpr const char* quorum_reached = "QUORUM_REACHED";
inline constexpr const char* co_owner_not_present = "CO_OWNER_NOT_PRESENT";
inline constexpr const char* vote_suspended = "VOTE_SUSPENDED";
inline constexpr const char* signer_not_entitled = "SIGNER_NOT_ENTITLED";
inline constexpr const char* already_adopted = "ALREADY_ADOPTED";
inline constexpr const char* minutes_not_final = "MINUTES_NOT_FINAL";
inline constexpr const char* meeting_not_yet_held = "MEETING_NOT_YET_HELD";
inline constexpr const char* conflict_of_interest = "CONFLICT_OF_INTEREST";
}  // namespace syndic::meetings::codes
