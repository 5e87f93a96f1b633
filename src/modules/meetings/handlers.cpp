// One thin function per meetings tool: reads the call's arguments, checks the rules, writes
// through the store and answers with the presenter's JSON; and the module's registration.
#include <nlohmann/json.hpp>

#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/accounting/closing_questions.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/meetings/ballots.hpp"
#include "modules/meetings/board_acts.hpp"
#include "modules/meetings/board_roll.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/closing.hpp"
#include "modules/meetings/convened.hpp"
#include "modules/meetings/frozen_roll.hpp"
#include "modules/meetings/meetings.hpp"
#include "modules/meetings/minutes.hpp"
#include "modules/meetings/notices.hpp"
#include "modules/meetings/notice_package.hpp"
#include "modules/meetings/presenter.hpp"
#include "modules/meetings/requisition.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace meetings {
namespace {

std::vector<std::string> agenda_arg(const json& items) {
    std::vector<std::string> agenda;
    for (const auto& item : items) agenda.push_back(nonblank_text(item, "/agenda"));
    return agenda;
}

json list_meetings(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto page = page_request(a);
    const MeetingFilter filter{a.optional_text("status"), a.optional_text("type"),
                               time_bound(a, "from", false), time_bound(a, "to", true)};
    std::vector<std::string> ids;
    const auto total = meeting_ids_page(call.db, syndicate, filter, page, ids);
    json data = json::array();
    for (const auto& id : ids) data.push_back(meeting_json(call.db, syndicate, require_meeting(call.db, syndicate, id, "/id"), false, call.clock.now()));
    return page_envelope(std::move(data), page, total);
}

json get_meeting(const ToolCall& call) {
    return for_caller(full_meeting(call.db, call.caller.syndicate_id, call.arguments().text("id"), call.clock.now()), call.caller);
}

json create_meeting(const ToolCall& call) {
    const auto a = call.arguments();
    json warnings = json::array();
    const auto when = instant_argument(a, "scheduledAt", &warnings);
    const std::string id = new_record_id(), now = to_utc_iso(call.clock.now());
    const auto agenda = agenda_arg(a.value("agenda"));
    const NewMeeting m{a.nonblank("title"), a.text("type"),
                       a.nonblank("location"), when, agenda};
    insert_meeting(call.db, call.caller.syndicate_id, id, m, now);
    json result = full_meeting(call.db, call.caller.syndicate_id, id, call.clock.now());
    if (!warnings.empty()) result["warnings"] = std::move(warnings);
    return result;
}

// The sitting's times after the call: a time given (null clears it) or the one kept.
SittingTimes sitting_times(const Arguments& a, const Meeting& m, json& warnings) {
    SittingTimes t;
    auto read = [&](const char* key, const std::optional<std::string>& kept, bool& given) -> std::optional<Instant> {
        given = a.has(key);
        if (!given) return kept ? std::optional<Instant>(stored_instant(*kept)) : std::nullopt;
        if (a.is_null(key)) return std::nullopt;
        return instant_argument(a, key, &warnings);
    };
    t.opened = read("openedAt", m.opened_at, t.opened_given);
    t.closed = read("closedAt", m.closed_at, t.closed_given);
    return t;
}

// Records the sitting's chair, secretary and times the call gives (null clears).
void record_sitting(Database& db, const Arguments& a, const Meeting& m, const SittingTimes& t) {
    for (const auto& [key, column] : {std::pair{"chair", "chair"}, std::pair{"secretary", "secretary"}})
        if (const auto name = a.patch_text(key)) set_meeting_column(db, m.id, column, name->empty() ? std::optional<std::string>() : name);
    const auto stored = [](const std::optional<Instant>& i) { return i ? std::optional(to_utc_iso(*i)) : std::nullopt; };
    if (t.opened_given) set_meeting_column(db, m.id, "opened_at", stored(t.opened));
    if (t.closed_given) set_meeting_column(db, m.id, "closed_at", stored(t.closed));
}

json update_meeting(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto m = require_meeting(call.db, syndicate, a.text("id"), "/id");
    MeetingChange change;
    if (a.has("status") && a.text("status") != m.status) change.status = a.text("status");
    change.title = a.has("title");
    change.location = a.has("location");
    change.agenda = a.has("agenda");
    change.scheduled_at = a.has("scheduledAt");
    change.type = a.has("type");
    change.requisition = a.has("requisition");
    change.sitting = a.has("chair") || a.has("secretary") || a.has("openedAt") || a.has("closedAt");
    check_change(m, change);
    json warnings = json::array();
    const auto times = sitting_times(a, m, warnings);
    check_sitting_times(m, times, call.clock.now());
    if (change.status == "held") require_meeting_day(m, call.clock.now(), "holding it", "/status");
    // A requisition given is checked whole; one kept while the type changes must suit the new type.
    const std::string type = change.type ? a.text("type") : m.type;
    std::optional<std::string> requisition;
    if (change.requisition)
        requisition = checked_requisition(call.db, syndicate, type, a.value("requisition"), montreal_date(call.clock.now()));
    else if (change.type && m.requisition)
        require_requisitioned_type(type);

    if (change.title) set_meeting_column(call.db, m.id, "title", a.nonblank("title"));
    if (change.location) set_meeting_column(call.db, m.id, "location", a.nonblank("location"));
    if (change.type) set_meeting_column(call.db, m.id, "type", a.text("type"));
    if (change.sitting) record_sitting(call.db, a, m, times);
    if (change.scheduled_at)
        set_meeting_column(call.db, m.id, "scheduled_at", to_utc_iso(instant_argument(a, "scheduledAt", &warnings)));
    if (change.agenda) set_meeting_column(call.db, m.id, "agenda", agenda_text(agenda_arg(a.value("agenda"))));
    if (change.requisition) set_meeting_column(call.db, m.id, "requisition", requisition);
    if (change.status) set_meeting_column(call.db, m.id, "status", *change.status);
    if (change.status == "held") {
        freeze_roll(call.db, syndicate, m, call.clock.now());  // its roll is the one it was held with
        call.name_event("meeting.held", "meeting", m.id);
    }
    if (change.any()) touch(call.db, m.id, call.clock);
    json result = for_caller(full_meeting(call.db, syndicate, m.id, call.clock.now()), call.caller);
    if (!warnings.empty()) result["warnings"] = std::move(warnings);
    return result;
}

json add_resolution(const ToolCall& call) {
    const auto a = call.arguments();
    const auto m = require_meeting(call.db, call.caller.syndicate_id, a.text("meetingId"), "/meetingId");
    require_status(m, {"draft", "notice-sent", "held"}, "adding a resolution");
    const auto r = insert_resolution(call.db, call.caller.syndicate_id, m.id, new_record_id(), a.nonblank("title"),
                                     trim(a.text_or("description", "")), a.text("majorityRequired"),
                                     to_utc_iso(call.clock.now()));
    touch(call.db, m.id, call.clock);
    json result = resolution_json(r, &m);
    return result;
}

// One attendee row of record_attendance, checked: listed once, a proxy holder exactly for an
// attendance by proxy, an active co-owner of the syndicate.
void record_attendee(const ToolCall& call, const Meeting& m, const std::vector<Arguments>& rows, std::size_t i) {
    const auto& row = rows[i];
    require_co_owner_row(call, row, "attendance");
    const std::string& co_owner_id = row.text("coOwnerId");
    for (std::size_t j = 0; j < i; ++j)
        if (rows[j].optional_text("coOwnerId") == co_owner_id)
            throw invalid_argument(row.pointer("coOwnerId"), "is listed twice", "Co-owner " + co_owner_id + " is listed twice.");
    const std::string& attendance = row.text("attendance");
    const auto holder = row.optional_nonblank("proxyHolder");
    if (attendance == "proxy" && !holder)
        throw invalid_argument(row.pointer("proxyHolder"), "is required when attendance is proxy",
                               "An attendance by proxy needs the proxyHolder's name.");
    if (attendance != "proxy" && holder)
        throw invalid_argument(row.pointer("proxyHolder"), "is only for attendance proxy",
                               "proxyHolder is given only for an attendance by proxy.");
    const auto& syndicate = call.caller.syndicate_id;
    const auto share = active_co_owner(call.db, syndicate, co_owner_id);
    if (!share) throw record_not_found("co_owners", co_owner_id, row.pointer("coOwnerId"), RecordState::active);
    upsert_attendance(call.db, syndicate, m.id, co_owner_id, *share, attendance, holder, to_utc_iso(call.clock.now()));
}

json record_attendance(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto m = require_meeting(call.db, syndicate, call.arguments().text("meetingId"), "/meetingId");
    require_status(m, {"notice-sent", "held"}, "recording attendance");
    if (m.type == "board") {
        record_board_attendance(call, m);
    } else {
        const auto rows = call.arguments().rows("attendees");
        for (std::size_t i = 0; i < rows.size(); ++i) record_attendee(call, m, rows, i);
    }
    touch(call.db, m.id, call.clock);
    call.name_event("meeting.attendance_recorded", "meeting", m.id);
    json result = full_meeting(call.db, syndicate, m.id, call.clock.now());
    result["quorum"] = quorum_json(quorum_of(call.db, syndicate, require_meeting(call.db, syndicate, m.id, "/meetingId"), call.clock.now()));
    return result;
}

json record_votes(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string resolution_id = a.text("resolutionId");
    auto found = find_resolution(call.db, syndicate, resolution_id);
    if (found && a.has("meetingId") && a.text("meetingId") != found->meeting_id) found.reset();
    if (!found) throw record_not_found("resolutions", resolution_id, "/resolutionId");
    const auto m = require_meeting(call.db, syndicate, found->meeting_id, "/resolutionId");
    require_status(m, {"notice-sent", "held"}, "recording votes");
    if (found->majority == "double")
        throw DomainError(meetings::codes::ballots_required,
                          "Resolution " + resolution_id + " needs a double majority (art. 1098): 3/4 of the co-owners "
                          "holding 90% of the votes, which totals cannot show. Record each co-owner's ballot with "
                          "record_ballots.")
            .at("/resolutionId");

    require_meeting_day(m, call.clock.now(), "recording its votes", "/resolutionId");

    Resolution voted = *found;
    voted.recorded = true;
    voted.votes_for = Fraction::from_percent(a.number("votesFor"));
    voted.votes_against = Fraction::from_percent(a.number("votesAgainst"));
    voted.votes_abstain = Fraction::from_percent(a.number("votesAbstain"));
    // The roll is frozen with the first votes; the quorum as it stands is kept with them: what the
    // majority is measured against and what an act authorised by the resolution is checked on. At
    // a board meeting the votes are the directors'.
    const auto now = to_utc_iso(call.clock.now());
    if (m.type == "board") {
        voted.quorum = checked_board_votes(call.db, syndicate, m, voted, now);
    } else {
        freeze_roll(call.db, syndicate, m, call.clock.now());
        const auto quorum = quorum_of(call.db, syndicate, m, call.clock.now());
        check_votes(quorum, voted);
        voted.quorum = quorum.snapshot(now);
    }
    store_votes(call.db, voted, now);
    touch(call.db, m.id, call.clock);
    json result = resolution_json(voted, &m);
    return result;
}

json send_meeting_notice(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    auto m = require_meeting(call.db, syndicate, a.text("meetingId"), "/meetingId");
    require_status(m, {"draft"}, "sending the notice");
    const auto now = call.clock.now();
    std::optional<std::string> justification;
    if (a.has("justification") && !a.is_null("justification")) {
        justification = trim(a.text("justification"));
        if (justification->empty()) justification.reset();
    }
    // Meetings of co-owners need 21 days; a board meeting what the declaration says (boardNoticeDays).
    const std::int64_t days = m.type == "board" ? declaration::board_parameters(call.db, syndicate).notice_days : 21;
    m.justification = check_notice_period(m, now, justification, days);
    const std::string channel = a.text_or("sendBy", "email");
    const bool with_agenda = a.flag("includeAgenda", true);
    // The annual meeting's notice carries the art. 1087 package: what is attached to the meeting
    // now, fixed on the meeting as sent.
    const auto package = m.type == "aga" ? notice_package(call.db, syndicate, m.id) : NoticePackage{};
    mark_notice_sent(call.db, m.id, to_utc_iso(now), channel, with_agenda, m.justification);
    set_meeting_column(call.db, m.id, "notice_package", sent_ids_json(package));
    const auto queued = queue_notices(call.db, syndicate, m, channel, with_agenda, package, now);
    json result = notice_sent_json(call.db, syndicate, m.id, queued, package, now);
    result["meeting"] = for_caller(std::move(result["meeting"]), call.caller);
    if (m.type != "board" && (!with_agenda || m.agenda.empty()))  // art. 1087: the subjects to be decided
        result["warnings"] = json::array({"The notice went out without an agenda: a notice of a co-owners' meeting states "
                                          "the subjects on its agenda (art. 1087 C.c.Q.), and only those may be decided. "
                                          "add_agenda_item sends a supplementary notice with an item."});
    return result;
}

json calculate_quorum(const ToolCall& call) {
    const auto m = require_meeting(call.db, call.caller.syndicate_id, call.arguments().text("meetingId"), "/meetingId");
    return quorum_json(quorum_of(call.db, call.caller.syndicate_id, m, call.clock.now()));
}

json get_voting_roll(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto m = require_meeting(call.db, syndicate, call.arguments().text("meetingId"), "/meetingId");
    std::string as_of = roll_day(m, call.clock.now());
    if (call.arguments().has("asOf")) {
        // A day, or an instant read as its Montreal day.
        const std::string given = call.arguments().text("asOf");
        if (const auto t = parse_given_instant(given)) as_of = montreal_date(t->at);
        else if (is_calendar_date(given)) as_of = given;
        else
            throw invalid_argument("/asOf", "is neither a date nor a date-time",
                                   "asOf must be a day (YYYY-MM-DD) or a date-time (Montreal's, or with an offset).");
    }
    if (m.type == "board") return board_roll_json(m, board_roll(call.db, syndicate, m));
    return voting_roll_json(m, voting_roll(call.db, syndicate, m, as_of));
}

json generate_minutes(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto m = require_meeting(call.db, syndicate, a.text("meetingId"), "/meetingId");
    const bool draft = a.flag("draft", false);
    const std::string language = a.text_or("language", "fr");
    if (!draft) require_status(m, {"held", "minutes-sent"}, "final minutes (draft: false)");
    call.report_progress(0, 2);
    call.name_event("meeting.minutes_generated", "meeting", m.id);
    const auto record = write_minutes(call.db, syndicate, m, draft, language, call.clock.now());
    call.report_progress(1, 2);
    insert_minutes(call.db, syndicate, m, record, call.caller.api_key_id);
    call.report_progress(2, 2);
    return minutes_json(record, m.id, call.caller);
}

}  // namespace

}  // namespace meetings

void register_meetings_module(ToolTable& table) {
    using namespace meetings;
    table.bind("list_meetings", list_meetings);
    table.bind("get_meeting", get_meeting);
    table.bind("create_meeting", create_meeting);
    table.bind("update_meeting", update_meeting);
    table.bind("add_resolution", add_resolution);
    table.bind("record_attendance", record_attendance);
    table.bind("record_votes", record_votes);
    table.bind("send_meeting_notice", send_meeting_notice);
    table.bind("calculate_quorum", calculate_quorum);
    table.bind("get_voting_roll", get_voting_roll);
    table.bind("add_agenda_item", meetings::add_agenda_item);
    table.bind("adjourn_meeting", meetings::adjourn_meeting);
    table.bind("record_ballots", meetings::record_ballots);
    table.bind("record_written_resolution", meetings::record_written_resolution);
    table.bind("send_minutes", meetings::send_minutes);
    table.bind("generate_minutes", generate_minutes);
    table.question<accounting::ClosingAnswers>(accounting::closing_question)->meetings_to_call = meetings::annual_meetings_to_call;
}

}  // namespace syndic
