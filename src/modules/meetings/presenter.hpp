// How the meetings module's records are shown (interface 3.4): a meeting in brief or in full,
// its quorum and resolutions, its minutes documents with a download address for a remote caller.
// Reads rows through the store; knows no SQL, no rules beyond the outcome and quorum it shows.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "modules/meetings/board_roll.hpp"
#include "modules/meetings/notice_package.hpp"
#include "modules/meetings/notices.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"

namespace syndic {
struct CallerContext;
}

namespace syndic::meetings {

nlohmann::json quorum_json(const Quorum& q);
// get_voting_roll's answer: the entries and their totals.
nlohmann::json voting_roll_json(const Meeting& m, const VotingRoll& roll);
// get_voting_roll's answer at a board meeting: the directors in office, one vote each.
nlohmann::json board_roll_json(const Meeting& m, const BoardRoll& roll);
// A resolution as shown; `m` is its meeting (null for a written resolution).
nlohmann::json resolution_json(const Resolution& r, const Meeting* m);
// The meeting as shown; `full` adds attendees, resolutions and documents (with the server's
// paths), otherwise their counts. `now` sets the day the voting roll behind its quorum is read for.
nlohmann::json meeting_json(Database& db, const std::string& syndicate_id, const Meeting& m, bool full, Instant now);
// The meeting with `id` in full; MEETING_NOT_FOUND at /id.
nlohmann::json full_meeting(Database& db, const std::string& syndicate_id, const std::string& id, Instant now);
// A full meeting's documents as the caller sees them: a remote caller gets download addresses,
// never the server's paths.
nlohmann::json for_caller(nlohmann::json meeting, const CallerContext& caller);
// send_meeting_notice's answer: the meeting in full, how many messages were queued, who has no
// email, and what of the art. 1087 package is missing or was kept back (an aga's; empty otherwise).
nlohmann::json notice_sent_json(Database& db, const std::string& syndicate_id, const std::string& meeting_id,
                                const QueuedNotices& notices, const NoticePackage& package, Instant now);
// generate_minutes's answer: the document's record with its location for the caller.
nlohmann::json minutes_json(const MinutesRecord& record, const std::string& meeting_id, const CallerContext& caller);

}  // namespace syndic::meetings
