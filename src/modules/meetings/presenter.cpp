#include "modules/meetings/presenter.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>

#include "modules/common.hpp"
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

json attendees_json(const std::vector<Attendee>& attendees) {
    json list = json::array();
    for (const auto& a : attendees)
        list.push_back({{"coOwnerId", a.co_owner_id},
                        {"name", a.name},
                        {"fractionPercent", percent(a.fraction)},
                        {"attendance", a.attendance},
                        {"proxyHolder", a.proxy_holder ? json(*a.proxy_holder) : json(nullptr)}});
    return list;
}

}  // namespace

json quorum_json(const Quorum& q) {
    return {{"present", percent(q.present)},
            {"proxied", percent(q.proxied)},
            {"total", percent(q.total())},
            {"required", percent(q.required)},
            {"quorumReached", q.reached()}};
}

json resolution_json(const Resolution& r) {
    return {{"id", r.id},
            {"meetingId", r.meeting_id},
            {"number", r.position},
            {"title", r.title},
            {"description", r.description},
            {"majorityRequired", r.majority},
            {"votesFor", percent(r.votes_for)},
            {"votesAgainst", percent(r.votes_against)},
            {"votesAbstain", percent(r.votes_abstain)},
            {"votesRecorded", r.recorded},
            {"outcome", outcome(r)}};
}

json meeting_json(Database& db, const std::string& syndicate_id, const Meeting& m, bool full) {
    const auto attendees = attendees_of(db, m.id);
    const auto quorum = quorum_of(db, syndicate_id, attendees);
    json out = {{"id", m.id},
                {"title", m.title},
                {"type", m.type},
                {"status", m.status},
                {"scheduledAt", to_montreal_iso(m.scheduled_at)},
                {"location", m.location},
                {"agenda", m.agenda},
                {"quorumPercent", percent(quorum.total())},
                {"notice", notice_json(m)},
                {"createdAt", shown(m.created_at)},
                {"updatedAt", shown(m.updated_at)}};
    if (full) {
        out["attendees"] = attendees_json(attendees);
        json resolutions = json::array();
        for (const auto& r : resolutions_of(db, m.id)) resolutions.push_back(resolution_json(r));
        out["resolutions"] = std::move(resolutions);
        out["documents"] = documents_json(db, m.id);
    } else {
        out["attendeeCount"] = static_cast<std::int64_t>(attendees.size());
        out["resolutionCount"] = resolution_count(db, m.id);
    }
    return out;
}

json full_meeting(Database& db, const std::string& syndicate_id, const std::string& id) {
    return meeting_json(db, syndicate_id, require_meeting(db, syndicate_id, id, "/id"), true);
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
                      const QueuedNotices& notices) {
    json without_email = json::array();
    for (const auto& r : notices.without_email) without_email.push_back({{"coOwnerId", r.id}, {"name", r.first + " " + r.last}});
    return {{"meeting", full_meeting(db, syndicate_id, meeting_id)},
            {"queued", notices.queued},
            {"withoutEmail", std::move(without_email)}};
}

json minutes_json(const MinutesRecord& record, const std::string& meeting_id, const CallerContext& caller) {
    json result = {{"documentId", record.document_id}, {"meetingId", meeting_id},     {"pages", record.pages},
                   {"sizeBytes", record.size_bytes},   {"sha256", record.sha256},     {"draft", record.draft},
                   {"language", record.language}};
    add_document_location(result, caller, record.document_id, record.path);
    return result;
}

}  // namespace syndic::meetings
