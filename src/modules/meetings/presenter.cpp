#include "modules/meetings/presenter.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>

#include "modules/common.hpp"
#include "modules/governance/quorum_snapshot.hpp"
#include "modules/governance/resolution_outcome.hpp"
#include "modules/meetings/requisition.hpp"
#include "modules/documents/document_files.hpp"

namespace syndic::meetings {

using nlohmann::json;

namespace {

// A stored UTC instant in Montreal time; null stays null.
json shown(const std::optional<std::string>& stored) {
    if (!stored) return nullptr;
    return to_montreal_iso(stored_instant(*stored));
}

// How a stored instant is shown: in Montreal time, or as stored if it is not an instant.
std::string shown_or_stored(const std::string& stored) {
    const auto t = parse_iso_instant(stored);
    return t ? to_montreal_iso(*t) : stored;
}

json documents_json(Database& db, const std::string& meeting_id) {
    json out = json::array();
    for (const auto& d : minutes_of(db, meeting_id))
        out.push_back({{"documentId", d.document_id},
                       {"kind", "minutes"},
                       {"draft", d.draft},
                       {"language", d.language},
                       {"path", d.path},
                       {"pages", d.pages},
                       {"sizeBytes", d.size_bytes},
                       {"sha256", d.sha256},
                       {"createdAt", shown_or_stored(d.created_at)}});
    return out;
}

json notice_json(const Meeting& m) {
    if (!m.notice_sent_at) return nullptr;
    return {{"sentAt", shown(m.notice_sent_at)},
            {"channel", *m.notice_channel},
            {"includeAgenda", m.notice_with_agenda},
            {"justification", m.justification ? json(*m.justification) : json(nullptr)}};
}

json attendees_json(const std::vector<Attendee>& attendees, const VotingRoll& roll) {
    json list = json::array();
    for (const auto& a : attendees) {
        // A co-owner in arrears may attend but not vote until they pay (art. 1094).
        const auto* entry = roll.find(a.co_owner_id);
        list.push_back({{"coOwnerId", a.co_owner_id},
                        {"name", a.name},
                        {"fractionPercent", percent(a.fraction)},
                        {"attendance", a.attendance},
                        {"proxyHolder", a.proxy_holder ? json(*a.proxy_holder) : json(nullptr)},
                        {"votingSuspended", entry && entry->status == "suspended-arrears"}});
    }
    return list;
}

json optional_json(const std::optional<std::string>& value) { return value ? json(*value) : json(nullptr); }

// A board meeting's attendance: the directors recorded, present or absent.
json board_attendees_json(const BoardRoll& roll) {
    json list = json::array();
    for (const auto& s : roll.seats)
        if (s.attendance) list.push_back({{"directorId", s.director_id}, {"name", s.name}, {"attendance", *s.attendance}});
    return list;
}

}  // namespace

json board_roll_json(const Meeting& m, const BoardRoll& roll) {
    json entries = json::array();
    for (const auto& s : roll.seats)
        if (s.in_office)
            entries.push_back({{"directorId", s.director_id},
                               {"name", s.name},
                               {"votes", 1},
                               {"status", "entitled"},
                               {"attendance", optional_json(s.attendance)}});
    return {{"meetingId", m.id},
            {"asOf", roll.day},
            {"basis", "directors"},
            {"entries", std::move(entries)},
            {"totals",
             {{"directorsInOffice", roll.in_office},
              {"votingBase", roll.in_office},
              {"required", roll.required()},
              {"boardQuorum", roll.board_quorum ? json(*roll.board_quorum) : json(nullptr)}}}};
}

json quorum_json(const Quorum& q) {
    return {{"basis", q.basis},
            {"present", percent(q.present)},
            {"proxied", percent(q.proxied)},
            {"total", percent(q.total())},
            {"required", percent(q.required)},
            {"quorumReached", q.reached()},
            {"votingBase", percent(q.voting_base)},
            {"suspended", percent(q.suspended)},
            {"rule", q.rule},
            {"majorityOfAllVotes", q.majority_of_all_votes()}};
}

json voting_roll_json(const Meeting& m, const VotingRoll& roll) {
    json entries = json::array();
    for (const auto& e : roll.entries)
        entries.push_back({{"coOwnerId", e.co_owner_id},
                           {"name", e.name},
                           {"unitId", e.unit_id},
                           {"unitNumber", e.unit_number},
                           {"fractionPercent", percent(e.fraction)},
                           {"votes", percent(e.votes)},
                           {"status", e.status},
                           {"overdueSince", optional_json(e.overdue_since)},
                           {"overdueCents", e.overdue_cents},
                           {"attendance", optional_json(e.attendance)}});
    return {{"meetingId", m.id},
            {"asOf", roll.as_of},
            {"basis", "votes"},
            {"entries", std::move(entries)},
            {"totals",
             {{"allVotes", percent(roll.all_votes)},
              {"suspendedVotes", percent(roll.suspended_votes)},
              {"reducedVotes", percent(roll.reduced_votes)},
              {"votingBase", percent(roll.voting_base())},
              {"entitledCoOwners", roll.entitled_headcount()},
              {"fractions", roll.fractions}}}};
}

json resolution_json(const Resolution& r, const Meeting* m) {
    const auto result = outcome(r);
    // Who decided and when: a written resolution carries them; a meeting's resolution is its
    // meeting's body and day, decided once its outcome is no longer pending.
    const std::string source = r.source.value_or(r.meeting_id.empty() ? "written" : "meeting");
    const std::string body = r.body.value_or(m && m->type == "board" ? "board" : "general");
    std::optional<std::string> decided_on = r.decided_on;
    if (!decided_on && m && result != "pending") decided_on = montreal_date(m->scheduled_at);
    return {{"id", r.id},
            {"meetingId", r.meeting_id.empty() ? json(nullptr) : json(r.meeting_id)},
            {"source", source},
            {"body", body},
            {"number", r.position},
            {"title", r.title},
            {"description", r.description},
            {"majorityRequired", r.majority},
            {"votesFor", percent(r.votes_for)},
            {"votesAgainst", percent(r.votes_against)},
            {"votesAbstain", percent(r.votes_abstain)},
            {"votesRecorded", r.recorded},
            {"ballotsRecorded", r.ballots_recorded},
            {"headcountFor", r.headcount_for ? json(*r.headcount_for) : json(nullptr)},
            {"headcountEntitled", r.headcount_entitled ? json(*r.headcount_entitled) : json(nullptr)},
            {"headcountBasis", r.headcount_basis ? json(*r.headcount_basis) : json(nullptr)},
            {"quorum", r.quorum ? governance::shown_snapshot(*r.quorum) : json(nullptr)},
            {"outcome", result},
            {"decidedOn", decided_on ? json(*decided_on) : json(nullptr)},
            {"contestableUntil",
             decided_on ? json(add_calendar_days(*decided_on, governance::contestation_days)) : json(nullptr)}};
}

json meeting_json(Database& db, const std::string& syndicate_id, const Meeting& m, bool full, Instant now) {
    // A board meeting's attendance and quorum are its directors'; a co-owners' meeting's, its roll's.
    const bool board = m.type == "board";
    const auto attendees = board ? std::vector<Attendee>{} : attendees_of(db, m.id);
    const auto roll = board ? VotingRoll{} : voting_roll(db, syndicate_id, m, roll_day(m, now));
    const auto seats = board ? board_roll(db, syndicate_id, m) : BoardRoll{};
    const auto quorum = board ? board_quorum(seats) : quorum_of(db, syndicate_id, m, roll);
    const auto board_attendees = board_attendees_json(seats);
    // quorumPercent: the share of the votes present or represented; of the directors in office at a board meeting.
    const Fraction share = !board ? quorum.total()
                           : seats.in_office == 0
                               ? Fraction()
                               : Fraction::from_units(quorum.total().units() * 100 / seats.in_office);
    json out = {{"id", m.id},
                {"title", m.title},
                {"type", m.type},
                {"status", m.status},
                {"scheduledAt", to_montreal_iso(m.scheduled_at)},
                {"location", m.location},
                {"agenda", m.agenda},
                {"quorumPercent", percent(share)},
                {"notice", notice_json(m)},
                {"quorumRule", m.quorum_rule},
                {"adjournedFromMeetingId", optional_json(m.adjourned_from_meeting_id)},
                {"reconvenedMeetingId", optional_json(m.reconvened_meeting_id)},
                {"adjournment", m.adjournment ? json::parse(*m.adjournment) : json(nullptr)},
                {"agendaAdditions", json::parse(m.agenda_additions)},
                {"minutesSentAt", shown(m.minutes_sent_at)},
                {"package", json::parse(m.notice_package)},
                {"requisition", requisition_json(db, syndicate_id, m, now)},
                {"chair", optional_json(m.chair)},
                {"secretary", optional_json(m.secretary)},
                {"openedAt", shown(m.opened_at)},
                {"closedAt", shown(m.closed_at)},
                {"createdAt", shown(m.created_at)},
                {"updatedAt", shown(m.updated_at)}};
    if (full) {
        out["attendees"] = board ? board_attendees : attendees_json(attendees, roll);
        json resolutions = json::array();
        for (const auto& r : resolutions_of(db, m.id)) resolutions.push_back(resolution_json(r, &m));
        out["resolutions"] = std::move(resolutions);
        out["documents"] = documents_json(db, m.id);
    } else {
        out["attendeeCount"] = static_cast<std::int64_t>(board ? board_attendees.size() : attendees.size());
        out["resolutionCount"] = resolution_count(db, m.id);
    }
    return out;
}

json full_meeting(Database& db, const std::string& syndicate_id, const std::string& id, Instant now) {
    return meeting_json(db, syndicate_id, require_meeting(db, syndicate_id, id, "/id"), true, now);
}

json for_caller(json meeting, const CallerContext& caller) {
    for (auto& d : meeting["documents"]) {
        const std::string path = d["path"];
        d.erase("path");
        add_document_location(d, caller, d["documentId"], path);
    }
    return meeting;
}

json notice_sent_json(Database& db, const std::string& syndicate_id, const std::string& meeting_id,
                      const QueuedNotices& notices, const NoticePackage& package, Instant now) {
    json without_email = json::array();
    for (const auto& r : notices.without_email) without_email.push_back({{"coOwnerId", r.id}, {"name", r.first + " " + r.last}});
    json withheld = json::array();
    for (const auto& d : package.withheld) withheld.push_back({{"documentId", d.document_id}, {"title", d.title}, {"item", d.item}});
    return {{"meeting", full_meeting(db, syndicate_id, meeting_id, now)},
            {"queued", notices.queued},
            {"withoutEmail", std::move(without_email)},
            {"packageMissing", package.missing},
            {"packageWithheld", std::move(withheld)}};
}

json minutes_json(const MinutesRecord& record, const std::string& meeting_id, const CallerContext& caller) {
    json result = {{"documentId", record.document_id}, {"meetingId", meeting_id},     {"pages", record.pages},
                   {"sizeBytes", record.size_bytes},   {"sha256", record.sha256},     {"draft", record.draft},
                   {"language", record.language}};
    add_document_location(result, caller, record.document_id, record.path);
    return result;
}

}  // namespace syndic::meetings
