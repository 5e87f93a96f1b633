#include "modules/meetings/convened.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>

#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "storage/bind.hpp"
#include "modules/meetings/board_roll.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/frozen_roll.hpp"
#include "modules/meetings/notices.hpp"
#include "modules/meetings/presenter.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

using nlohmann::json;

namespace {

// Art. 1088: a co-owner may add a question within 5 days of the notice. "Within N days of D" is
// on or before D + N (catalogue §0): requested on the 5th day after the notice's day is in time,
// on the 6th too late.
constexpr std::int64_t agenda_request_days = 5;
// A notice sent by mail is taken as received 3 days after it was sent (art. 1088 [verify]).
constexpr int mail_receipt_days = 3;

// The day a co-owner received the meeting's notice (art. 1088 counts from receipt): the day it was
// sent when it went to them by e-mail (a message queued for them with the notice), 3 days later
// when they had no e-mail and it went by mail; `given` (noticeReceivedOn) overrides both.
std::string notice_received_on(Database& db, const Meeting& m, const std::string& co_owner_id, const Arguments& a) {
    const std::string sent_day = montreal_date(stored_instant(*m.notice_sent_at));
    if (const auto given = date_argument(a, "noticeReceivedOn")) {
        if (*given < sent_day)
            throw invalid_argument(a.pointer("noticeReceivedOn"), "is before the notice was sent",
                                   "noticeReceivedOn (" + *given + ") is before the notice was sent (" + sent_day + ").");
        return *given;
    }
    auto q = db.prepare("SELECT 1 FROM outbox WHERE meeting_id = ? AND co_owner_id = ? AND created_at <= ?");
    bind_parameters(*q, m.id, co_owner_id, *m.notice_sent_at);
    return q->executeStep() ? sent_day : add_calendar_days(sent_day, mail_receipt_days);
}

void require_general(const Meeting& m, const std::string& act) {
    if (m.type == "aga" || m.type == "aga-special") return;
    throw DomainError(codes::not_a_general_meeting,
                      "Meeting " + m.id + " is a board meeting; " + act + " is for general meetings of the co-owners "
                      "(aga, aga-special).")
        .at("/meetingId")
        .with("type", m.type);
}

json without_email_json(const QueuedNotices& notices) {
    json out = json::array();
    for (const auto& r : notices.without_email) out.push_back({{"coOwnerId", r.id}, {"name", r.first + " " + r.last}});
    return out;
}

}  // namespace

json add_agenda_item(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    auto m = require_meeting(call.db, syndicate, a.text("meetingId"), "/meetingId");
    require_general(m, "adding a question to the agenda (art. 1088)");
    require_status(m, {"notice-sent"}, "adding a question to the agenda");
    const std::string text = a.nonblank("text");
    const auto now = call.clock.now();
    const std::string today = montreal_date(now);
    const std::string notice_day = montreal_date(stored_instant(*m.notice_sent_at));
    std::string requested_on = today;
    if (a.has("requestedOn")) {
        requested_on = a.text("requestedOn");
        if (!is_calendar_date(requested_on))
            throw invalid_argument("/requestedOn", "is not a calendar date", "requestedOn must be a day, YYYY-MM-DD.");
        if (requested_on > today)
            throw invalid_argument("/requestedOn", "is after today", "requestedOn (" + requested_on + ") is after today (" +
                                                                          today + ").");
        if (requested_on < notice_day)
            throw invalid_argument("/requestedOn", "is before the notice was sent",
                                   "requestedOn (" + requested_on + ") is before the notice was sent (" + notice_day + ").");
    }
    json requester = nullptr;
    if (a.has("requestedByCoOwnerId") && !a.is_null("requestedByCoOwnerId")) {
        const std::string id = a.text("requestedByCoOwnerId");
        if (!active_co_owner(call.db, syndicate, id))
            throw record_not_found("co_owners", id, "/requestedByCoOwnerId", RecordState::active);
        const auto received = notice_received_on(call.db, m, id, a);
        const auto days = calendar_days_between(received, requested_on);
        if (days > agenda_request_days)
            throw DomainError(codes::agenda_request_too_late,
                              "The notice was sent on " + notice_day + " and received on " + received +
                                  "; a co-owner may add a question within " + std::to_string(agenda_request_days) +
                                  " days of receiving it (art. 1088), and this request of " + requested_on + " comes " +
                                  std::to_string(days) + " days after. The board may still add it (omit requestedByCoOwnerId).")
                .at("/requestedOn")
                .with("daysSinceNotice", days)
                .with("maximumDays", agenda_request_days)
                .with("noticeSentOn", notice_day)
                .with("noticeReceivedOn", received);
        requester = id;
    }

    m.agenda.push_back(text);
    set_meeting_column(call.db, m.id, "agenda", agenda_text(m.agenda));
    const auto queued = queue_supplementary_notices(call.db, syndicate, m, text, now);
    json additions = json::parse(m.agenda_additions);
    additions.push_back({{"text", text},
                         {"requestedByCoOwnerId", requester},
                         {"requestedOn", requested_on},
                         {"supplementaryNoticeQueuedAt", to_montreal_iso(now)}});
    set_meeting_column(call.db, m.id, "agenda_additions", additions.dump());
    touch(call.db, m.id, call.clock);
    return {{"meeting", full_meeting(call.db, syndicate, m.id, now)},
            {"queued", queued.queued},
            {"withoutEmail", without_email_json(queued)}};
}

json adjourn_meeting(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto m = require_meeting(call.db, syndicate, a.text("meetingId"), "/meetingId");
    require_status(m, {"notice-sent", "held"}, "adjourning the meeting");
    if (m.reconvened_meeting_id)
        throw DomainError(codes::invalid_status_transition,
                          "Meeting " + m.id + " was already adjourned; it reconvenes as meeting " + *m.reconvened_meeting_id + ".")
            .at("/meetingId")
            .with("status", m.status);
    const std::string reason = a.text("reason");
    std::optional<std::string> justification;
    if (a.has("justification") && !a.is_null("justification")) {
        justification = trim(a.text("justification"));
        if (justification->empty()) justification.reset();
    }
    if (reason == "other" && !justification)
        throw invalid_argument("/justification", "is required when reason is other",
                               "An adjournment for another reason than quorum needs its justification.");
    const auto now = call.clock.now();
    require_meeting_day(m, now, "adjourning it", "/meetingId");  // adjourning holds it
    // Want of quorum, from the start or lost by departures (recorded absent first): checked alike.
    if (reason == "no-quorum" || reason == "quorum-lost") {
        const auto q = quorum_of(call.db, syndicate, m, now);
        // Votes in percent; at a board meeting, numbers of directors.
        const bool directors = q.basis == "directors";
        const auto figure = [&](Fraction f) {
            return directors ? std::to_string(directors_in(f)) : f.to_string() + "%";
        };
        if (q.reached())
            throw DomainError(codes::quorum_reached,
                              "The meeting has its quorum (" + figure(q.total()) +
                                  (!directors ? " present or represented, "
                                   : directors_in(q.total()) == 1 ? " director present, " : " directors present, ") +
                                  figure(q.required) +
                                  " required): it cannot be adjourned for want of quorum" +
                                  (reason == "quorum-lost" ? " (record the departures as absent first)." : "."))
                .at("/reason")
                .with("total", q.total().to_percent())
                .with("required", q.required.to_percent());
    }
    json warnings = json::array();
    const auto when = instant_argument(a, "reconveneAt", &warnings);
    if (when <= m.scheduled_at || when <= now)
        throw invalid_argument("/reconveneAt", "is not after the adjourned meeting and now",
                               "The reconvened meeting must come after the adjourned one and after now.");

    // The reconvened meeting: a draft with the same agenda and the resolutions not decided, to be
    // called again by its own notice. After a want of quorum, those present or represented form
    // its quorum (art. 1089 para 2); after another reason, the ordinary quorum.
    const std::string id = new_record_id(), stamp = to_utc_iso(now);
    insert_meeting(call.db, syndicate, id,
                   NewMeeting{m.title, m.type, a.nonblank("location"), when, m.agenda}, stamp);
    set_meeting_column(call.db, id, "adjourned_from_meeting_id", m.id);
    // A reconvened board meeting keeps the board's quorum (art. 1089 is for co-owners' meetings).
    if (reason != "other" && m.type != "board") set_meeting_column(call.db, id, "quorum_rule", "adjourned");
    for (const auto& r : resolutions_of(call.db, m.id))
        if (outcome(r) == "pending")
            insert_resolution(call.db, syndicate, id, new_record_id(), r.title, r.description, r.majority, stamp);

    set_meeting_column(call.db, m.id, "reconvened_meeting_id", id);
    set_meeting_column(call.db, m.id, "adjournment",
                       json{{"reason", reason}, {"justification", justification ? json(*justification) : json(nullptr)}}.dump());
    if (m.status != "held") {
        freeze_roll(call.db, syndicate, m, now);  // held with the roll it has
        set_meeting_column(call.db, m.id, "status", "held");
    }
    touch(call.db, m.id, call.clock);
    call.name_event("meeting.adjourned", "meeting", m.id);
    json result = {{"adjourned", for_caller(full_meeting(call.db, syndicate, m.id, now), call.caller)},
                   {"reconvened", for_caller(full_meeting(call.db, syndicate, id, now), call.caller)}};
    if (!warnings.empty()) result["warnings"] = std::move(warnings);
    return result;
}

}  // namespace syndic::meetings
