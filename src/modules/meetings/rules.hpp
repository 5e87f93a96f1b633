// The rules of meetings (decisions 6): which status allows which act, the 21-day notice and its
// aga-special exception, quorum, the majorities and what votes may add up to. Reads the module's
// rows through the store; knows no JSON shapes, wording or tool calls.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"

namespace syndic::meetings {

// The share of all fractions a meeting needs for quorum: the syndicate's setting. The one place
// the module reads it.
Fraction required_quorum_of(Database& db, const std::string& syndicate_id);

// The resolution's outcome by the rule of governance/resolution_outcome (pending, passed or rejected).
std::string outcome(const Resolution& r);

// The statuses in which an act is allowed; INVALID_STATUS_TRANSITION at /meetingId otherwise.
void require_status(const Meeting& m, std::initializer_list<const char*> allowed, const std::string& act);

// What an update_meeting call asks to change (true: the argument is present).
struct MeetingChange {
    std::optional<std::string> status;  // only when it differs from the meeting's
    bool title = false, location = false, agenda = false, scheduled_at = false, type = false, requisition = false;
    bool sitting = false;  // chair, secretary, openedAt or closedAt
    bool any() const { return status || title || location || agenda || scheduled_at || type || requisition || sitting; }
};
// MEETING_NOT_YET_HELD at `field` before the meeting's day (America/Montreal): a meeting is held
// on its day, not before (holding it, its votes and ballots, adjourning it).
void require_meeting_day(const Meeting& m, Instant now, const std::string& act, const std::string& field);

// Status moves forward only: notice-sent only through the notice, held after the notice (and
// from its day: require_meeting_day), minutes-sent only through send_minutes, never back to draft. Title, location,
// agenda and requisition change until the meeting is held; the time and type only while it is a draft;
// the sitting (chair, secretary, opening and closing) until the minutes are sent.
// INVALID_STATUS_TRANSITION at the field otherwise.
void check_change(const Meeting& m, const MeetingChange& change);

// The sitting's times as they will stand after a change (given in the call, or kept).
struct SittingTimes {
    std::optional<Instant> opened, closed;
    bool opened_given = false, closed_given = false;
};
// The meeting opens on its day (Montreal), not before the time of its notice, and closes after it
// opens; a time given is not after now. VALIDATION_FAILED at /openedAt or /closedAt otherwise.
void check_sitting_times(const Meeting& m, const SittingTimes& t, Instant now);

// A notice goes out at least `required_days` (on Montreal's calendar: 21 for a meeting of
// co-owners, the declaration's boardNoticeDays for a board meeting) before the meeting, or later for
// an aga-special meeting whose call gives a justification; NOTICE_PERIOD_TOO_SHORT otherwise
// (data.daysAhead, data.requiredDays), and always for a meeting whose time has passed. Returns the
// justification kept: none for a notice that is not short.
std::optional<std::string> check_notice_period(const Meeting& m, Instant now, std::optional<std::string> justification,
                                               std::int64_t required_days);

// Votes cast add up to at most 100 % and to at most the votes present or represented (after the
// reductions, without suspended votes: the quorum's total; none before attendance is recorded);
// VALIDATION_FAILED at /votesFor otherwise.
void check_votes(const Quorum& quorum, const Resolution& votes);

}  // namespace syndic::meetings
