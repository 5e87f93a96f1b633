// The voting roll frozen as a whole (decisions.md §10): when the first votes or ballots are
// recorded, or the meeting is held, whichever comes first, its entries (after suspension, art.
// 1094, and the developer's cap, art. 1092) are kept in meeting_roll (meetings migration 007) and
// every later quorum, vote and outcome is measured on them: a payment entered later with an
// earlier day, or an NSF reversal, never rewrites a past roll. Art. 1091 is not frozen: it depends
// on who attends, and is applied each time (voting_roll).
#pragma once
#include <optional>
#include <string>

#include "core/clock.hpp"
#include "modules/meetings/voting_roll.hpp"

namespace syndic::meetings {

// The roll as frozen, with the attendance recorded now; nullopt while the roll is live.
std::optional<VotingRoll> frozen_roll(Database& db, const Meeting& m);

// Freezes the roll of `m` once, read on the meeting's day (or today, if that is earlier); a roll
// already frozen stays as it is. Nothing for a board meeting: its roll is its directors (board_roll.hpp).
void freeze_roll(Database& db, const std::string& syndicate_id, const Meeting& m, Instant now);

}  // namespace syndic::meetings
