#include "modules/meetings/meetings.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <vector>

#include "auth/credentials.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/documents/document_files.hpp"
#include "modules/documents/pdf_writer.hpp"
#include "storage/durable_file.hpp"
#include "modules/meetings/wording.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace {

using codes::invalid_status_transition;
using codes::meeting_not_found;
using codes::notice_period_too_short;
using codes::resolution_not_found;
constexpr auto notice_period = std::chrono::hours(24 * 21);

struct Meeting {
    std::string id;
    std::string title;
    std::string type;
    std::string status;
    Instant scheduled_at;
    std::string location;
    json agenda;
    std::optional<std::string> notice_sent_at;
    std::optional<std::string> notice_channel;
    bool notice_with_agenda = false;
    std::optional<std::string> justification;
    std::string created_at, updated_at;
};

Instant stored_instant(const std::string& text) {
    if (auto t = parse_iso_instant(text)) return *t;
    throw std::runtime_error("a stored time is not ISO 8601: " + text);
}

std::optional<Meeting> find_meeting(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, title, type, status, scheduled_at, location, agenda, notice_sent_at, notice_channel, "
        "notice_with_agenda, notice_justification, created_at, updated_at FROM meetings WHERE id = ? AND syndicate_id = ?");
    q->bind(1, id);
    q->bind(2, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    Meeting m;
    m.id = q->getColumn(0).getString();
    m.title = q->getColumn(1).getString();
    m.type = q->getColumn(2).getString();
    m.status = q->getColumn(3).getString();
    m.scheduled_at = stored_instant(q->getColumn(4).getString());
    m.location = q->getColumn(5).getString();
    m.agenda = json::parse(q->getColumn(6).getString());
    if (!q->getColumn(7).isNull()) m.notice_sent_at = q->getColumn(7).getString();
    if (!q->getColumn(8).isNull()) m.notice_channel = q->getColumn(8).getString();
    m.notice_with_agenda = q->getColumn(9).getInt() != 0;
    if (!q->getColumn(10).isNull()) m.justification = q->getColumn(10).getString();
    m.created_at = q->getColumn(11).getString();
    m.updated_at = q->getColumn(12).getString();
    return m;
}

Meeting require_meeting(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    auto m = find_meeting(db, syndicate_id, id);
    if (!m) throw DomainError(meeting_not_found, "No meeting with id " + id + " in this syndicate.").at(field);
    return *m;
}

// The statuses in which an act is allowed; INVALID_STATUS_TRANSITION otherwise.
void require_status(const Meeting& m, std::initializer_list<const char*> allowed, const std::string& act) {
    for (const char* s : allowed)
        if (m.status == s) return;
    std::string list;
    for (const char* s : allowed) list += (list.empty() ? "" : ", ") + std::string(s);
    throw DomainError(invalid_status_transition,
                      "The meeting is " + m.status + "; " + act + " is possible only when it is " + list + ".")
        .at("/meetingId")
        .with("status", m.status);
}

json shown(const std::optional<std::string>& stored) {
    if (!stored) return nullptr;
    return to_montreal_iso(stored_instant(*stored));
}

struct Attendee {
    std::string co_owner_id;
    std::string name;
    Fraction fraction;
    std::string attendance;
    std::optional<std::string> proxy_holder;
};

std::vector<Attendee> attendees_of(Database& db, const std::string& meeting_id) {
    std::vector<Attendee> out;
    auto q = db.prepare(
        "SELECT a.co_owner_id, a.name, a.fraction_units, a.attendance, a.proxy_holder FROM meeting_attendees a "
        "JOIN co_owners c ON c.id = a.co_owner_id WHERE a.meeting_id = ? ORDER BY c.sort_key, a.co_owner_id");
    q->bind(1, meeting_id);
    while (q->executeStep()) {
        Attendee a{q->getColumn(0).getString(), q->getColumn(1).getString(),
                   Fraction::from_units(q->getColumn(2).getInt64()), q->getColumn(3).getString(), std::nullopt};
        if (!q->getColumn(4).isNull()) a.proxy_holder = q->getColumn(4).getString();
        out.push_back(std::move(a));
    }
    return out;
}

struct Quorum {
    Fraction present, proxied, required;
    Fraction total() const { return present + proxied; }
    bool reached() const { return total() >= required; }
};

Quorum quorum_of(Database& db, const std::string& syndicate_id, const std::vector<Attendee>& attendees) {
    Quorum q;
    for (const auto& a : attendees) {
        if (a.attendance == "present") q.present += a.fraction;
        else if (a.attendance == "proxy") q.proxied += a.fraction;
    }
    q.required = required_quorum(db, syndicate_id);
    return q;
}

json quorum_json(const Quorum& q) {
    return {{"present", percent(q.present)},
            {"proxied", percent(q.proxied)},
            {"total", percent(q.total())},
            {"required", percent(q.required)},
            {"quorumReached", q.reached()}};
}

struct Resolution {
    std::string id, meeting_id, title, description, majority;
    int position = 0;
    bool recorded = false;
    Fraction votes_for, votes_against, votes_abstain;

    // Decisions 6: pending until votes are recorded; then, of the votes cast, simple passes above
    // 50 %, absolute above 75 %, special only when every vote cast is for.
    std::string outcome() const {
        if (!recorded) return "pending";
        const auto cast = (votes_for + votes_against + votes_abstain).units();
        const auto yes = votes_for.units();
        bool passed = false;
        if (majority == "simple") passed = cast > 0 && yes * 2 > cast;
        else if (majority == "absolute") passed = cast > 0 && yes * 4 > cast * 3;
        else passed = cast > 0 && votes_against.units() == 0 && votes_abstain.units() == 0;
        return passed ? "passed" : "rejected";
    }
};

constexpr const char* resolution_columns =
    "id, meeting_id, position, title, description, majority_required, votes_recorded, votes_for, votes_against, "
    "votes_abstain";

Resolution read_resolution(SQLite::Statement& q) {
    Resolution r;
    r.id = q.getColumn(0).getString();
    r.meeting_id = q.getColumn(1).getString();
    r.position = q.getColumn(2).getInt();
    r.title = q.getColumn(3).getString();
    r.description = q.getColumn(4).getString();
    r.majority = q.getColumn(5).getString();
    r.recorded = q.getColumn(6).getInt() != 0;
    r.votes_for = Fraction::from_units(q.getColumn(7).getInt64());
    r.votes_against = Fraction::from_units(q.getColumn(8).getInt64());
    r.votes_abstain = Fraction::from_units(q.getColumn(9).getInt64());
    return r;
}

std::vector<Resolution> resolutions_of(Database& db, const std::string& meeting_id) {
    std::vector<Resolution> out;
    auto q = db.prepare(std::string("SELECT ") + resolution_columns + " FROM resolutions WHERE meeting_id = ? ORDER BY position");
    q->bind(1, meeting_id);
    while (q->executeStep()) out.push_back(read_resolution(*q));
    return out;
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
            {"outcome", r.outcome()}};
}

json documents_json(Database& db, const std::string& meeting_id) {
    json out = json::array();
    auto q = db.prepare(
        "SELECT id, draft, language, path, pages, size_bytes, sha256, created_at FROM documents "
        "WHERE meeting_id = ? AND kind = 'minutes' ORDER BY created_at, id");
    q->bind(1, meeting_id);
    while (q->executeStep())
        out.push_back({{"documentId", q->getColumn(0).getString()},
                       {"kind", "minutes"},
                       {"draft", q->getColumn(1).getInt() != 0},
                       {"language", q->getColumn(2).getString()},
                       {"path", q->getColumn(3).getString()},
                       {"pages", q->getColumn(4).getInt64()},
                       {"sizeBytes", q->getColumn(5).getInt64()},
                       {"sha256", q->getColumn(6).getString()},
                       {"createdAt", shown_time(q->getColumn(7))}});
    return out;
}

// The meeting as shown; `full` adds attendees, resolutions and documents.
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
                {"notice", m.notice_sent_at ? json{{"sentAt", shown(m.notice_sent_at)},
                                                   {"channel", *m.notice_channel},
                                                   {"includeAgenda", m.notice_with_agenda},
                                                   {"justification", m.justification ? json(*m.justification) : json(nullptr)}}
                                            : json(nullptr)},
                {"createdAt", shown(m.created_at)},
                {"updatedAt", shown(m.updated_at)}};
    if (full) {
        json list = json::array();
        for (const auto& a : attendees)
            list.push_back({{"coOwnerId", a.co_owner_id},
                            {"name", a.name},
                            {"fractionPercent", percent(a.fraction)},
                            {"attendance", a.attendance},
                            {"proxyHolder", a.proxy_holder ? json(*a.proxy_holder) : json(nullptr)}});
        out["attendees"] = std::move(list);
        json resolutions = json::array();
        for (const auto& r : resolutions_of(db, m.id)) resolutions.push_back(resolution_json(r));
        out["resolutions"] = std::move(resolutions);
        out["documents"] = documents_json(db, m.id);
    } else {
        auto q = db.prepare("SELECT count(*) FROM resolutions WHERE meeting_id = ?");
        q->bind(1, m.id);
        q->executeStep();
        out["attendeeCount"] = static_cast<std::int64_t>(attendees.size());
        out["resolutionCount"] = q->getColumn(0).getInt64();
    }
    return out;
}

json full_meeting(Database& db, const std::string& syndicate_id, const std::string& id) {
    return meeting_json(db, syndicate_id, require_meeting(db, syndicate_id, id, "/id"), true);
}

Instant scheduled_instant(const json& value, const std::string& field) {
    auto t = parse_iso_instant(value.get<std::string>());
    if (!t)
        throw invalid_argument(field, "is not an ISO 8601 date-time with an offset",
                               field.substr(1) + " must be an ISO 8601 date-time with an offset, e.g. 2026-12-15T19:00:00-05:00.");
    return *t;
}

void touch(Database& db, const std::string& meeting_id, const Clock& clock) {
    auto q = db.prepare("UPDATE meetings SET updated_at = ? WHERE id = ?");
    q->bind(1, to_utc_iso(clock.now()));
    q->bind(2, meeting_id);
    q->exec();
}

// ---------------------------------------------------------------------------------------------

json list_meetings(const ToolCall& call) {
    const auto& a = call.args;
    const auto page = page_request(a);
    const auto status = optional_arg<std::string>(a, "status");
    const auto type = optional_arg<std::string>(a, "type");
    const auto from = time_bound(a, "from", false);
    const auto to = time_bound(a, "to", true);

    const std::string where =
        " FROM meetings WHERE syndicate_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR type = ?3) "
        "AND (?4 IS NULL OR scheduled_at >= ?4) AND (?5 IS NULL OR scheduled_at <= ?5)";
    auto bind_filters = [&](SQLite::Statement& q) {
        q.bind(1, call.caller.syndicate_id);
        if (status) q.bind(2, *status);
        if (type) q.bind(3, *type);
        if (from) q.bind(4, *from);
        if (to) q.bind(5, *to);
    };
    std::vector<std::string> ids;
    const auto total = read_page(call.db, "SELECT count(*)" + where, "SELECT id" + where + " ORDER BY scheduled_at DESC, id LIMIT ?100 OFFSET ?101",
                                 page, bind_filters, [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
    json data = json::array();
    for (const auto& id : ids)
        data.push_back(meeting_json(call.db, call.caller.syndicate_id, require_meeting(call.db, call.caller.syndicate_id, id, "/id"), false));
    return page_envelope(std::move(data), page, total);
}

// A meeting's documents as the caller sees them: a remote caller gets download addresses, never
// the server's paths.
json for_caller(json meeting, const CallerContext& caller) {
    for (auto& d : meeting["documents"]) {
        const std::string path = d["path"];
        d.erase("path");
        add_document_location(d, caller, d["documentId"], path);
    }
    return meeting;
}

json get_meeting(const ToolCall& call) {
    return for_caller(full_meeting(call.db, call.caller.syndicate_id, call.args["id"]), call.caller);
}

json create_meeting(const ToolCall& call) {
    const auto& a = call.args;
    WriteTransaction tx(call.db);
    const auto when = scheduled_instant(a["scheduledAt"], "/scheduledAt");
    const std::string id = new_uuid(), now = to_utc_iso(call.clock.now());
    json agenda = json::array();
    for (const auto& item : a.value("agenda", json::array())) agenda.push_back(nonblank_text(item, "/agenda"));
    auto q = call.db.prepare(
        "INSERT INTO meetings (id, syndicate_id, title, type, scheduled_at, location, agenda, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, id);
    q->bind(2, call.caller.syndicate_id);
    q->bind(3, nonblank_text(a["title"], "/title"));
    q->bind(4, a["type"].get<std::string>());
    q->bind(5, to_utc_iso(when));
    q->bind(6, nonblank_text(a["location"], "/location"));
    q->bind(7, agenda.dump());
    q->bind(8, now);
    q->bind(9, now);
    q->exec();
    json result = full_meeting(call.db, call.caller.syndicate_id, id);
    tx.commit();
    return result;
}

// Final minutes generated after the meeting's last change, so they say what the record says.
bool has_current_final_minutes(Database& db, const Meeting& m) {
    auto q = db.prepare(
        "SELECT 1 FROM documents WHERE meeting_id = ? AND kind = 'minutes' AND draft = 0 AND created_at >= ?");
    q->bind(1, m.id);
    q->bind(2, m.updated_at);
    return q->executeStep();
}

json update_meeting(const ToolCall& call) {
    const auto& a = call.args;
    const auto& syndicate = call.caller.syndicate_id;
    WriteTransaction tx(call.db);
    const auto m = require_meeting(call.db, syndicate, a["id"], "/id");
    auto refuse = [&](const std::string& field, const std::string& detail) {
        return DomainError(invalid_status_transition, detail).at(field).with("status", m.status);
    };

    if (a.contains("status") && a["status"] != m.status) {
        const std::string to = a["status"];
        if (to == "notice-sent")
            throw refuse("/status", "A meeting becomes notice-sent only through send_meeting_notice.");
        if (to == "held" && m.status != "notice-sent")
            throw refuse("/status", "Only a meeting whose notice was sent can be held; this one is " + m.status + ".");
        if (to == "minutes-sent" && m.status != "held")
            throw refuse("/status", "Minutes can be sent only for a held meeting; this one is " + m.status + ".");
        if (to == "minutes-sent" && !has_current_final_minutes(call.db, m))
            throw refuse("/status", "There are no final minutes of the meeting as it stands (none yet, or the meeting "
                                    "changed since): generate_minutes with draft false first.");
        if (to == "draft") throw refuse("/status", "A meeting never goes back to draft.");
    }
    const bool editable = m.status == "draft" || m.status == "notice-sent";
    for (const char* key : {"title", "location", "agenda"})
        if (a.contains(key) && !editable)
            throw refuse(std::string("/") + key, "The meeting is " + m.status + "; its record can no longer change.");
    for (const char* key : {"scheduledAt", "type"})
        if (a.contains(key) && m.status != "draft")
            throw refuse(std::string("/") + key, "The notice has been sent; " + std::string(key) +
                                                     " can change only while the meeting is a draft.");

    auto set = [&](const char* column, const std::string& value) {
        auto q = call.db.prepare(std::string("UPDATE meetings SET ") + column + " = ? WHERE id = ?");
        q->bind(1, value);
        q->bind(2, m.id);
        q->exec();
    };
    if (a.contains("title")) set("title", nonblank_text(a["title"], "/title"));
    if (a.contains("location")) set("location", nonblank_text(a["location"], "/location"));
    if (a.contains("type")) set("type", a["type"].get<std::string>());
    if (a.contains("scheduledAt")) set("scheduled_at", to_utc_iso(scheduled_instant(a["scheduledAt"], "/scheduledAt")));
    if (a.contains("agenda")) {
        json agenda = json::array();
        for (const auto& item : a["agenda"]) agenda.push_back(nonblank_text(item, "/agenda"));
        set("agenda", agenda.dump());
    }
    if (a.contains("status") && a["status"] != m.status) set("status", a["status"].get<std::string>());
    const bool changed = a.contains("title") || a.contains("location") || a.contains("type") ||
                         a.contains("scheduledAt") || a.contains("agenda") || (a.contains("status") && a["status"] != m.status);
    if (changed) touch(call.db, m.id, call.clock);
    json result = for_caller(full_meeting(call.db, syndicate, m.id), call.caller);
    tx.commit();
    return result;
}

json add_resolution(const ToolCall& call) {
    const auto& a = call.args;
    WriteTransaction tx(call.db);
    const auto m = require_meeting(call.db, call.caller.syndicate_id, a["meetingId"], "/meetingId");
    require_status(m, {"draft", "notice-sent", "held"}, "adding a resolution");
    std::int64_t position = 1;
    {
        auto q = call.db.prepare("SELECT coalesce(max(position), 0) + 1 FROM resolutions WHERE meeting_id = ?");
        q->bind(1, m.id);
        q->executeStep();
        position = q->getColumn(0).getInt64();
    }
    const std::string id = new_uuid(), now = to_utc_iso(call.clock.now());
    {
        auto q = call.db.prepare(
            "INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, description, majority_required, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        q->bind(1, id);
        q->bind(2, m.id);
        q->bind(3, call.caller.syndicate_id);
        q->bind(4, position);
        q->bind(5, nonblank_text(a["title"], "/title"));
        q->bind(6, trim(a.value("description", std::string())));
        q->bind(7, a["majorityRequired"].get<std::string>());
        q->bind(8, now);
        q->bind(9, now);
        q->exec();
    }
    touch(call.db, m.id, call.clock);
    auto q = call.db.prepare(std::string("SELECT ") + resolution_columns + " FROM resolutions WHERE id = ?");
    q->bind(1, id);
    q->executeStep();
    json result = resolution_json(read_resolution(*q));
    tx.commit();
    return result;
}

json record_attendance(const ToolCall& call) {
    const auto& a = call.args;
    const auto& syndicate = call.caller.syndicate_id;
    WriteTransaction tx(call.db);
    const auto m = require_meeting(call.db, syndicate, a["meetingId"], "/meetingId");
    require_status(m, {"notice-sent", "held"}, "recording attendance");
    const auto& rows = a["attendees"];
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const std::string prefix = "/attendees/" + std::to_string(i);
        const std::string co_owner_id = row["coOwnerId"];
        for (std::size_t j = 0; j < i; ++j)
            if (rows[j]["coOwnerId"] == row["coOwnerId"])
                throw invalid_argument(prefix + "/coOwnerId", "is listed twice", "Co-owner " + co_owner_id + " is listed twice.");
        const std::string attendance = row["attendance"];
        std::optional<std::string> holder;
        if (row.contains("proxyHolder") && !row["proxyHolder"].is_null())
            holder = nonblank_text(row["proxyHolder"], prefix + "/proxyHolder");
        if (attendance == "proxy" && !holder)
            throw invalid_argument(prefix + "/proxyHolder", "is required when attendance is proxy",
                                   "An attendance by proxy needs the proxyHolder's name.");
        if (attendance != "proxy" && holder)
            throw invalid_argument(prefix + "/proxyHolder", "is only for attendance proxy",
                                   "proxyHolder is given only for an attendance by proxy.");

        std::string name;
        std::int64_t fraction = 0;
        {
            auto q = call.db.prepare(
                "SELECT first_name || ' ' || last_name, fraction_units FROM co_owners "
                "WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
            q->bind(1, co_owner_id);
            q->bind(2, syndicate);
            if (!q->executeStep())
                throw DomainError(codes::co_owner_not_found, "No active co-owner with id " + co_owner_id + " in this syndicate.")
                    .at(prefix + "/coOwnerId");
            name = q->getColumn(0).getString();
            fraction = q->getColumn(1).getInt64();
        }
        auto q = call.db.prepare(
            "INSERT INTO meeting_attendees (meeting_id, co_owner_id, syndicate_id, name, fraction_units, attendance, "
            "proxy_holder, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (meeting_id, co_owner_id) DO UPDATE SET name = excluded.name, "
            "fraction_units = excluded.fraction_units, attendance = excluded.attendance, "
            "proxy_holder = excluded.proxy_holder, recorded_at = excluded.recorded_at");
        q->bind(1, m.id);
        q->bind(2, co_owner_id);
        q->bind(3, syndicate);
        q->bind(4, name);
        q->bind(5, fraction);
        q->bind(6, attendance);
        if (holder) q->bind(7, *holder);
        q->bind(8, to_utc_iso(call.clock.now()));
        q->exec();
    }
    touch(call.db, m.id, call.clock);
    json result = full_meeting(call.db, syndicate, m.id);
    result["quorum"] = quorum_json(quorum_of(call.db, syndicate, attendees_of(call.db, m.id)));
    tx.commit();
    return result;
}

json record_votes(const ToolCall& call) {
    const auto& a = call.args;
    const auto& syndicate = call.caller.syndicate_id;
    WriteTransaction tx(call.db);
    std::optional<Resolution> found;
    {
        auto q = call.db.prepare(std::string("SELECT ") + resolution_columns +
                                 " FROM resolutions WHERE id = ? AND syndicate_id = ?");
        q->bind(1, a["resolutionId"].get<std::string>());
        q->bind(2, syndicate);
        if (q->executeStep()) found = read_resolution(*q);
    }
    if (found && a.contains("meetingId") && a["meetingId"] != found->meeting_id) found.reset();
    if (!found)
        throw DomainError(resolution_not_found, "No resolution with id " + a["resolutionId"].get<std::string>() +
                                                    " in this syndicate.")
            .at("/resolutionId");
    const auto m = require_meeting(call.db, syndicate, found->meeting_id, "/resolutionId");
    require_status(m, {"notice-sent", "held"}, "recording votes");

    const auto votes_for = Fraction::from_percent(a["votesFor"].get<double>());
    const auto votes_against = Fraction::from_percent(a["votesAgainst"].get<double>());
    const auto votes_abstain = Fraction::from_percent(a["votesAbstain"].get<double>());
    const auto cast = votes_for + votes_against + votes_abstain;
    const auto attendees = attendees_of(call.db, m.id);
    if (cast > Fraction::percent(100))
        throw invalid_argument("/votesFor", "with votesAgainst and votesAbstain adds up to more than 100",
                               "The votes cast add up to " + cast.to_string() + "%, more than 100%.");
    if (!attendees.empty()) {
        const auto represented = quorum_of(call.db, syndicate, attendees).total();
        if (cast > represented)
            throw invalid_argument("/votesFor", "with votesAgainst and votesAbstain exceeds the fractions present or represented",
                                   "The votes cast (" + cast.to_string() + "%) exceed the fractions present or represented (" +
                                       represented.to_string() + "%).")
                .with("represented", represented.to_percent());
    }
    auto q = call.db.prepare(
        "UPDATE resolutions SET votes_recorded = 1, votes_for = ?, votes_against = ?, votes_abstain = ?, updated_at = ? "
        "WHERE id = ?");
    q->bind(1, votes_for.units());
    q->bind(2, votes_against.units());
    q->bind(3, votes_abstain.units());
    q->bind(4, to_utc_iso(call.clock.now()));
    q->bind(5, found->id);
    q->exec();
    touch(call.db, m.id, call.clock);
    found->recorded = true;
    found->votes_for = votes_for;
    found->votes_against = votes_against;
    found->votes_abstain = votes_abstain;
    json result = resolution_json(*found);
    tx.commit();
    return result;
}

// The notice one co-owner receives, in their language.
std::pair<std::string, std::string> notice_message(const Meeting& m, const std::string& syndicate_name,
                                                   const std::string& first_name, const std::string& last_name,
                                                   wording::Language lang, bool with_agenda) {
    const bool fr = lang == wording::Language::fr;
    const std::string when = wording::date_time(m.scheduled_at, lang);
    std::string subject = (fr ? "Avis de convocation : " : "Notice of meeting: ") + m.title;
    for (auto& c : subject)
        if (c == '\r' || c == '\n') c = ' ';  // one header line
    std::string body;
    body += (fr ? "Bonjour " : "Dear ") + first_name + " " + last_name + ",\n\n";
    const bool board = m.type == "board";
    if (fr) {
        body += std::string(board ? "Le conseil d'administration vous informe de sa prochaine réunion"
                                  : "Vous êtes convoqué(e) à l'assemblée suivante") +
                " : " + wording::meeting_type(m.type, lang) + ", « " + m.title + " », qui se tiendra le " + when +
                " (heure de Montréal), à l'endroit suivant : " + m.location + ".\n";
    } else {
        body += std::string(board ? "The board of directors informs you of its next meeting"
                                  : "Notice is hereby given of the following meeting") +
                ": " + wording::meeting_type(m.type, lang) + ", \"" + m.title + "\", to be held on " + when +
                " (Montreal time) at: " + m.location + ".\n";
    }
    if (with_agenda && !m.agenda.empty()) {
        body += fr ? "\nOrdre du jour :\n" : "\nAgenda:\n";
        int n = 1;
        for (const auto& item : m.agenda) body += std::to_string(n++) + ". " + item.get<std::string>() + "\n";
    }
    if (m.justification)
        body += (fr ? "\nMotif de l'avis à court délai : " : "\nReason for the short notice: ") + *m.justification + "\n";
    if (!board)
        body += fr ? "\nSi vous ne pouvez y assister, vous pouvez vous faire représenter par procuration.\n"
                   : "\nIf you cannot attend, you may be represented by proxy.\n";
    body += fr ? "\nLe conseil d'administration\n" : "\nThe board of directors\n";
    body += syndicate_name + "\n";
    return {subject, body};
}

std::string syndicate_name(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT name FROM syndicates WHERE id = ?");
    q->bind(1, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getString();
}

json send_meeting_notice(const ToolCall& call) {
    const auto& a = call.args;
    const auto& syndicate = call.caller.syndicate_id;
    WriteTransaction tx(call.db);
    auto m = require_meeting(call.db, syndicate, a["meetingId"], "/meetingId");
    require_status(m, {"draft"}, "sending the notice");

    const auto now = call.clock.now();
    // Days are counted on Montreal's calendar: across a change of time, 21 days from 19:00 to
    // 19:00 are 21 days, though an hour more or less passes.
    const auto ahead = montreal_wall_clock_between(now, m.scheduled_at);
    std::optional<std::string> justification;
    if (a.contains("justification") && !a["justification"].is_null()) {
        justification = trim(a["justification"].get<std::string>());
        if (justification->empty()) justification.reset();
    }
    if (m.scheduled_at <= now)
        throw DomainError(notice_period_too_short, "The meeting's time has passed; a notice is for a meeting to come.")
            .at("/meetingId")
            .with("daysAhead", std::floor(std::chrono::duration<double, std::ratio<86400>>(ahead).count() * 100) / 100)
            .with("minimumDays", std::int64_t{21});
    if (ahead < notice_period) {
        const double days = std::floor(std::chrono::duration<double, std::ratio<86400>>(ahead).count() * 100) / 100;
        char shown_days[32];
        std::snprintf(shown_days, sizeof shown_days, "%.2f", days);
        if (!(m.type == "aga-special" && justification))
            throw DomainError(notice_period_too_short,
                              std::string("The meeting is ") + shown_days +
                                  " days away; a notice needs at least 21 days, unless the meeting is aga-special and "
                                  "the call gives a justification.")
                .at("/meetingId")
                .with("daysAhead", days)
                .with("minimumDays", std::int64_t{21});
    } else {
        justification.reset();  // a justification explains a short notice; this one is not short
    }
    const std::string channel = a.value("sendBy", std::string("email"));
    const bool with_agenda = a.value("includeAgenda", true);
    {
        auto q = call.db.prepare(
            "UPDATE meetings SET status = 'notice-sent', notice_sent_at = ?, notice_channel = ?, notice_with_agenda = ?, "
            "notice_justification = ?, updated_at = ? WHERE id = ?");
        q->bind(1, to_utc_iso(now));
        q->bind(2, channel);
        q->bind(3, with_agenda ? 1 : 0);
        if (justification) q->bind(4, *justification);
        q->bind(5, to_utc_iso(now));
        q->bind(6, m.id);
        q->exec();
    }
    m.justification = justification;
    const std::string name = syndicate_name(call.db, syndicate);

    struct Recipient {
        std::string id, first, last, language;
        std::optional<std::string> email;
    };
    std::vector<Recipient> recipients;
    {
        auto q = call.db.prepare(
            "SELECT id, first_name, last_name, language, email FROM co_owners WHERE syndicate_id = ? AND deleted_at IS NULL "
            "ORDER BY sort_key, id");
        q->bind(1, syndicate);
        while (q->executeStep()) {
            Recipient r{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                        q->getColumn(3).getString(), std::nullopt};
            if (!q->getColumn(4).isNull()) r.email = q->getColumn(4).getString();
            recipients.push_back(std::move(r));
        }
    }
    std::int64_t queued = 0;
    json without_email = json::array();
    for (const auto& r : recipients) {
        if (!r.email) {
            without_email.push_back({{"coOwnerId", r.id}, {"name", r.first + " " + r.last}});
            continue;
        }
        const auto lang = wording::language_of(r.language);
        const auto [subject, body] = notice_message(m, name, r.first, r.last, lang, with_agenda);
        auto q = call.db.prepare(
            "INSERT INTO outbox (id, syndicate_id, meeting_id, co_owner_id, channel, recipient, language, subject, body, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        q->bind(1, new_uuid());
        q->bind(2, syndicate);
        q->bind(3, m.id);
        q->bind(4, r.id);
        q->bind(5, channel);
        q->bind(6, *r.email);
        q->bind(7, r.language);
        q->bind(8, subject);
        q->bind(9, body);
        q->bind(10, to_utc_iso(now));
        q->exec();
        ++queued;
    }
    json result = {{"meeting", full_meeting(call.db, syndicate, m.id)},
                   {"queued", queued},
                   {"withoutEmail", std::move(without_email)}};
    tx.commit();
    return result;
}

json calculate_quorum(const ToolCall& call) {
    const auto m = require_meeting(call.db, call.caller.syndicate_id, call.args["meetingId"], "/meetingId");
    return quorum_json(quorum_of(call.db, call.caller.syndicate_id, attendees_of(call.db, m.id)));
}

PdfDocument minutes_document(Database& db, const std::string& syndicate_id, const Meeting& m, wording::Language lang,
                             bool draft, Instant now) {
    using K = PdfBlock::Kind;
    const bool fr = lang == wording::Language::fr;
    const auto attendees = attendees_of(db, m.id);
    const auto quorum = quorum_of(db, syndicate_id, attendees);
    const auto resolutions = resolutions_of(db, m.id);
    auto pct = [&](Fraction f) { return wording::percent(f, lang); };

    PdfDocument doc;
    doc.pdf_title = (fr ? "Procès-verbal — " : "Minutes — ") + m.title;
    doc.pdf_subject = wording::meeting_type(m.type, lang);
    if (draft) {
        doc.watermark = fr ? "BROUILLON" : "DRAFT";
        doc.banner = fr ? "PROJET DE PROCÈS-VERBAL — BROUILLON, NON APPROUVÉ" : "DRAFT MINUTES — NOT APPROVED";
    }
    doc.footer = syndicate_name(db, syndicate_id) + " — " + doc.pdf_title;
    doc.page_label = [fr](int page, int pages) {
        return (fr ? "Page " : "Page ") + std::to_string(page) + (fr ? " de " : " of ") + std::to_string(pages);
    };
    auto& b = doc.blocks;
    b.push_back({K::title, (fr ? "Procès-verbal — " : "Minutes — ") + m.title});
    b.push_back({K::subtitle, syndicate_name(db, syndicate_id)});
    b.push_back({K::subtitle, wording::meeting_type(m.type, lang)});
    b.push_back({K::spacer, ""});
    b.push_back({K::paragraph, (fr ? "Date et heure : " : "Date and time: ") + wording::date_time(m.scheduled_at, lang) +
                                   (fr ? " (heure de Montréal)" : " (Montreal time)")});
    b.push_back({K::paragraph, (fr ? "Lieu : " : "Location: ") + m.location});
    if (m.notice_sent_at)
        b.push_back({K::paragraph, (fr ? "Avis de convocation envoyé le " : "Notice sent on ") +
                                       wording::date_time(stored_instant(*m.notice_sent_at), lang) + "."});
    if (m.justification)
        b.push_back({K::paragraph, (fr ? "Motif de l'avis à court délai : " : "Reason for the short notice: ") + *m.justification});

    if (!m.agenda.empty()) {
        b.push_back({K::heading, fr ? "Ordre du jour" : "Agenda"});
        int n = 1;
        for (const auto& item : m.agenda) b.push_back({K::numbered, std::to_string(n++) + ". " + item.get<std::string>()});
    }

    b.push_back({K::heading, fr ? "Présences" : "Attendance"});
    if (attendees.empty()) b.push_back({K::paragraph, fr ? "Aucune présence n'a été consignée." : "No attendance was recorded."});
    for (const auto& a : attendees) {
        std::string line = bidi_isolate(a.name) + " — " + pct(a.fraction) + " — " + wording::attendance(a.attendance, lang);
        if (a.proxy_holder) line += (fr ? " (mandataire : " : " (proxy holder: ") + bidi_isolate(*a.proxy_holder) + ")";
        b.push_back({K::item, line});
    }

    b.push_back({K::heading, "Quorum"});
    b.push_back({K::paragraph, (fr ? "Présents : " : "Present: ") + pct(quorum.present) + " · " +
                                   (fr ? "représentés par procuration : " : "by proxy: ") + pct(quorum.proxied) + " · " +
                                   (fr ? "total : " : "total: ") + pct(quorum.total()) + " · " +
                                   (fr ? "requis : " : "required: ") + pct(quorum.required) + "."});
    b.push_back({K::paragraph, quorum.reached() ? (fr ? "Le quorum est atteint." : "Quorum is reached.")
                                                : (fr ? "Le quorum n'est pas atteint." : "Quorum is not reached.")});
    if (!quorum.reached() && !resolutions.empty())
        b.push_back({K::paragraph, fr ? "Attention : sans quorum, l'assemblée ne peut valablement délibérer ; les résultats "
                                        "ci-dessous sont consignés tels que votés."
                                      : "Note: without quorum the meeting cannot validly decide; the results below are "
                                        "recorded as voted."});

    b.push_back({K::heading, fr ? "Résolutions" : "Resolutions"});
    if (resolutions.empty()) b.push_back({K::paragraph, fr ? "Aucune résolution." : "No resolutions."});
    for (const auto& r : resolutions) {
        b.push_back({K::subheading, (fr ? "Résolution " : "Resolution ") + std::to_string(r.position) + " — " + r.title});
        if (!r.description.empty()) b.push_back({K::paragraph, r.description});
        b.push_back({K::paragraph, (fr ? "Majorité requise : " : "Majority required: ") + wording::majority(r.majority, lang)});
        if (r.recorded)
            b.push_back({K::paragraph, (fr ? "Pour : " : "For: ") + pct(r.votes_for) + " · " + (fr ? "contre : " : "against: ") +
                                           pct(r.votes_against) + " · " + (fr ? "abstentions : " : "abstentions: ") +
                                           pct(r.votes_abstain)});
        b.push_back({K::paragraph, (fr ? "Résultat : " : "Outcome: ") + wording::outcome(r.outcome(), lang)});
    }

    b.push_back({K::heading, fr ? "Signatures" : "Signatures"});
    b.push_back({K::paragraph, fr ? "Président(e) d'assemblée : ______________________________ — Date : ____________"
                                  : "Chair of the meeting: ______________________________ — Date: ____________"});
    b.push_back({K::spacer, ""});
    b.push_back({K::paragraph, fr ? "Secrétaire d'assemblée : ______________________________ — Date : ____________"
                                  : "Secretary of the meeting: ______________________________ — Date: ____________"});
    b.push_back({K::spacer, ""});
    b.push_back({K::paragraph, (fr ? "Document généré le " : "Document generated on ") + wording::date_time(now, lang) +
                                   (fr ? " par syndic-mcp." : " by syndic-mcp.")});
    return doc;
}

json generate_minutes(const ToolCall& call) {
    const auto& a = call.args;
    const auto& syndicate = call.caller.syndicate_id;
    WriteTransaction tx(call.db);
    const auto m = require_meeting(call.db, syndicate, a["meetingId"], "/meetingId");
    const bool draft = a.value("draft", false);
    const std::string language = a.value("language", std::string("fr"));
    if (!draft) require_status(m, {"held", "minutes-sent"}, "final minutes (draft: false)");

    const auto now = call.clock.now();
    const auto local = montreal_local(m.scheduled_at);
    char date[16];
    std::snprintf(date, sizeof date, "%04d-%02d-%02d", local.year, local.month, local.day);
    const std::string document_id = new_uuid();
    const std::string file = std::string("minutes-") + date + "-" + m.id.substr(0, 8) + (draft ? "-draft-" : "-final-") +
                             language + "-" + document_id.substr(0, 8) + ".pdf";
    const std::string path = (std::filesystem::path(call.db.data_dir()) / "exports" / file).string();

    call.report_progress(0, 2);
    const auto pdf = render_pdf(minutes_document(call.db, syndicate, m, wording::language_of(language), draft, now));
    const int pages = pdf.pages;
    // On disk, whole and checked, before it is recorded; removed if the record is not committed.
    const auto written = write_file_durably(path, pdf.bytes, FileCheck::pdf, "exports/" + file);
    call.db.remove_on_rollback(path);
    call.report_progress(1, 2);
    const std::int64_t size = written.size;
    const std::string& digest = written.sha256;
    {
        auto q = call.db.prepare(
            "INSERT INTO documents (id, syndicate_id, meeting_id, kind, draft, language, path, pages, size_bytes, sha256, "
            "created_at) VALUES (?, ?, ?, 'minutes', ?, ?, ?, ?, ?, ?, ?)");
        q->bind(1, document_id);
        q->bind(2, syndicate);
        q->bind(3, m.id);
        q->bind(4, draft ? 1 : 0);
        q->bind(5, language);
        q->bind(6, path);
        q->bind(7, pages);
        q->bind(8, size);
        q->bind(9, digest);
        q->bind(10, to_utc_iso(now));
        q->exec();
        tx.commit();
    }
    call.report_progress(2, 2);
    json result = {{"documentId", document_id}, {"meetingId", m.id}, {"pages", pages},   {"sizeBytes", size},
                   {"sha256", digest},          {"draft", draft},    {"language", language}};
    add_document_location(result, call.caller, document_id, path);
    return result;
}

}  // namespace

void register_meeting_tools(ToolTable& table) {
    table.bind("list_meetings", list_meetings);
    table.bind("get_meeting", get_meeting);
    table.bind("create_meeting", create_meeting);
    table.bind("update_meeting", update_meeting);
    table.bind("add_resolution", add_resolution);
    table.bind("record_attendance", record_attendance);
    table.bind("record_votes", record_votes);
    table.bind("send_meeting_notice", send_meeting_notice);
    table.bind("calculate_quorum", calculate_quorum);
    table.bind("generate_minutes", generate_minutes);
}

}  // namespace syndic
