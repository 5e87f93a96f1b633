#include "modules/meetings/rules.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "auth/credentials.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "core/error.hpp"
#include "modules/governance/resolution_outcome.hpp"
#include "storage/settings.hpp"

namespace syndic::meetings {

Fraction required_quorum_of(Database& db, const std::string& syndicate_id) {
    return Fraction::from_percent(setting_number(db, syndicate_id, "requiredQuorumPercent"));
}

std::string outcome(const Resolution& r) {
    return governance::resolution_outcome({r.majority, r.recorded, r.votes_for, r.votes_against, r.votes_abstain,
                                           r.ballots_recorded, r.headcount_for, r.headcount_entitled, r.quorum});
}

void require_status(const Meeting& m, std::initializer_list<const char*> allowed, const std::string& act) {
    for (const char* s : allowed)
        if (m.status == s) return;
    std::string list;
    for (const char* s : allowed) list += (list.empty() ? "" : ", ") + std::string(s);
    throw DomainError(codes::invalid_status_transition,
                      "The meeting is " + m.status + "; " + act + " is possible only when it is " + list + ".")
        .at("/meetingId")
        .with("status", m.status);
}

void require_meeting_day(const Meeting& m, Instant now, const std::string& act, const std::string& field) {
    if (montreal_date(now) >= montreal_date(m.scheduled_at)) return;
    throw DomainError(codes::meeting_not_yet_held, "The meeting is on " + montreal_date(m.scheduled_at) + "; " + act +
                                                       " waits for its day (a meeting is held on its day, not before).")
        .at(field)
        .with("scheduledAt", to_montreal_iso(m.scheduled_at));
}

void check_change(const Meeting& m, const MeetingChange& change) {
    auto refuse = [&](const std::string& field, const std::string& detail) {
        return DomainError(codes::invalid_status_transition, detail).at(field).with("status", m.status);
    };
    if (change.status) {
        const std::string& to = *change.status;
        if (to == "notice-sent")
            throw refuse("/status", "A meeting becomes notice-sent only through send_meeting_notice.");
        if (to == "held" && m.status != "notice-sent")
            throw refuse("/status", "Only a meeting whose notice was sent can be held; this one is " + m.status + ".");
        // The status never claims a sending that did not happen: only send_minutes sends them.
        if (to == "minutes-sent")
            throw refuse("/status", "A meeting becomes minutes-sent only through send_minutes, which sends them.");
        if (to == "draft") throw refuse("/status", "A meeting never goes back to draft.");
    }
    const bool editable = m.status == "draft" || m.status == "notice-sent";
    const std::pair<const char*, bool> record_fields[] = {
        {"title", change.title}, {"location", change.location}, {"agenda", change.agenda}, {"requisition", change.requisition}};
    for (const auto& [key, present] : record_fields)
        if (present && !editable)
            throw refuse(std::string("/") + key, "The meeting is " + m.status + "; its record can no longer change.");
    if (change.sitting && m.status == "minutes-sent")
        throw refuse("/meetingId", "The minutes were sent; the sitting they record (chair, secretary, times) can no longer change.");
    const std::pair<const char*, bool> draft_fields[] = {{"scheduledAt", change.scheduled_at}, {"type", change.type}};
    for (const auto& [key, present] : draft_fields)
        if (present && m.status != "draft")
            throw refuse(std::string("/") + key, "The notice has been sent; " + std::string(key) +
                                                     " can change only while the meeting is a draft.");
}

void check_sitting_times(const Meeting& m, const SittingTimes& t, Instant now) {
    if (t.opened_given && t.opened) {
        if (montreal_date(*t.opened) != montreal_date(m.scheduled_at) || *t.opened < m.scheduled_at)
            throw invalid_argument("/openedAt", "is not on the meeting's day, from its time",
                                   "A meeting opens on its day, not before the time in its notice (" +
                                       to_montreal_iso(m.scheduled_at) + ").");
        if (*t.opened > now) throw invalid_argument("/openedAt", "is in the future", "The meeting has not opened yet.");
    }
    if (!t.closed || !(t.opened_given || t.closed_given)) return;
    const Instant from = t.opened.value_or(m.scheduled_at);
    if (*t.closed <= from)
        throw invalid_argument(t.closed_given ? "/closedAt" : "/openedAt",
                               t.closed_given ? "is not after the opening" : "is not before the closing",
                               "A meeting closes after it opens (" + to_montreal_iso(from) + ", closed " +
                                   to_montreal_iso(*t.closed) + ").");
    if (t.closed_given && *t.closed > now) throw invalid_argument("/closedAt", "is in the future", "The meeting has not closed yet.");
}

std::optional<std::string> check_notice_period(const Meeting& m, Instant now, std::optional<std::string> justification,
                                               std::int64_t required_days) {
    const auto notice_period = std::chrono::hours(24 * required_days);
    // Days are counted on Montreal's calendar: across a change of time, 21 days from 19:00 to
    // 19:00 are 21 days, though an hour more or less passes.
    const auto ahead = montreal_wall_clock_between(now, m.scheduled_at);
    const double days = std::floor(std::chrono::duration<double, std::ratio<86400>>(ahead).count() * 100) / 100;
    if (m.scheduled_at <= now)
        throw DomainError(codes::notice_period_too_short, "The meeting's time has passed; a notice is for a meeting to come.")
            .at("/meetingId")
            .with("daysAhead", days)
            .with("requiredDays", required_days);
    if (ahead >= notice_period) return std::nullopt;  // a justification explains a short notice; this one is not short
    if (m.type == "aga-special" && justification) return justification;
    char shown_days[32];
    std::snprintf(shown_days, sizeof shown_days, "%.2f", days);
    throw DomainError(codes::notice_period_too_short,
                      std::string("The meeting is ") + shown_days +
                          " days away; a notice needs at least " + std::to_string(required_days) +
                          (m.type == "board" ? " days (the declaration's boardNoticeDays)."
                                             : " days, unless the meeting is aga-special and the call gives a justification."))
        .at("/meetingId")
        .with("daysAhead", days)
        .with("requiredDays", required_days);
}

void check_votes(const Quorum& quorum, const Resolution& votes) {
    const auto cast = votes.votes_for + votes.votes_against + votes.votes_abstain;
    if (cast > Fraction::percent(100))
        throw invalid_argument("/votesFor", "with votesAgainst and votesAbstain adds up to more than 100",
                               "The votes cast add up to " + cast.to_string() + "%, more than 100%.");
    const auto represented = quorum.total();
    if (cast > represented)
        throw invalid_argument("/votesFor", "with votesAgainst and votesAbstain exceeds the votes present or represented",
                               "The votes cast (" + cast.to_string() + "%) exceed the votes present or represented (" +
                                   represented.to_string() + "%, after the reductions of arts. 1091 and 1092; record the "
                                   "attendance first).")
            .with("represented", represented.to_percent());
}

}  // namespace syndic::meetings
