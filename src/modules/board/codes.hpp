// The board module's own error codes (schemas/board/module.json declares each with its status).
#pragma once
#include "modules/governance/in_office.hpp"

namespace syndic::board::codes {
inline constexpr const char* co_owner_required = "CO_OWNER_REQUIRED";
using ::syndic::governance::codes::director_not_found;  // the signers of the board's written resolutions too
inline constexpr const char* already_ended = "ALREADY_ENDED";
inline constexpr const char* board_full = "BOARD_FULL";
inline constexpr const char* duplicate_officer = "DUPLICATE_OFFICER";
inline constexpr const char* director_disqualified = "DIRECTOR_DISQUALIFIED";
}  // namespace syndic::board::codes
