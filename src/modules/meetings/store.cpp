#include "modules/meetings/store.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/outbox_queue.hpp"
#include "modules/documents/filing.hpp"
#include "modules/governance/in_office.hpp"
#include "modules/governance/quorum_snapshot.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::meetings {

using nlohmann::json;

std::optional<Meeting> find_meeting(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, title, type, status, scheduled_at, location, agenda, notice_sent_at, notice_channel, "
        "notice_with_agenda, notice_justification, created_at, updated_at, adjourned_from_meeting_id, reconvened_meeting_id, "
        "quorum_rule, agenda_additions, minutes_sent_at, adjournment, notice_package, requisition, chair, secretary, "
        "opened_at, closed_at FROM meetings WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    Meeting m;
    m.id = q->getColumn(0).getString();
    m.title = q->getColumn(1).getString();
    m.type = q->getColumn(2).getString();
    m.status = q->getColumn(3).getString();
    m.scheduled_at = stored_instant(q->getColumn(4).getString());
    m.location = q->getColumn(5).getString();
    m.agenda = json::parse(q->getColumn(6).getString()).get<std::vector<std::string>>();
    if (!q->getColumn(7).isNull()) m.notice_sent_at = q->getColumn(7).getString();
    if (!q->getColumn(8).isNull()) m.notice_channel = q->getColumn(8).getString();
    m.notice_with_agenda = q->getColumn(9).getInt() != 0;
    if (!q->getColumn(10).isNull()) m.justification = q->getColumn(10).getString();
    m.created_at = q->getColumn(11).getString();
    m.updated_at = q->getColumn(12).getString();
    if (!q->getColumn(13).isNull()) m.adjourned_from_meeting_id = q->getColumn(13).getString();
    if (!q->getColumn(14).isNull()) m.reconvened_meeting_id = q->getColumn(14).getString();
    m.quorum_rule = q->getColumn(15).getString();
    m.agenda_additions = q->getColumn(16).getString();
    if (!q->getColumn(17).isNull()) m.minutes_sent_at = q->getColumn(17).getString();
    if (!q->getColumn(18).isNull()) m.adjournment = q->getColumn(18).getString();
    m.notice_package = q->getColumn(19).getString();
    if (!q->getColumn(20).isNull()) m.requisition = q->getColumn(20).getString();
    m.chair = optional_text(*q, 21);
    m.secretary = optional_text(*q, 22);
    m.opened_at = optional_text(*q, 23);
    m.closed_at = optional_text(*q, 24);
    return m;
}

Meeting require_meeting(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    auto m = find_meeting(db, syndicate_id, id);
    if (!m) throw record_not_found("meetings", id, field);
    return *m;
}

std::int64_t meeting_ids_page(Database& db, const std::string& syndicate_id, const MeetingFilter& filter,
                              const PageRequest& page, std::vector<std::string>& ids) {
    const std::string where =
        " FROM meetings WHERE syndicate_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR type = ?3) "
        "AND (?4 IS NULL OR scheduled_at >= ?4) AND (?5 IS NULL OR scheduled_at <= ?5)";
    auto bind_filters = [&](SQLite::Statement& q) {
        bind_parameters(q, syndicate_id, filter.status, filter.type, filter.from, filter.to);
    };
    return read_page(db, "SELECT count(*)" + where, "SELECT id" + where + " ORDER BY scheduled_at DESC, id LIMIT ?100 OFFSET ?101",
                     page, bind_filters, [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
}

std::string agenda_text(const std::vector<std::string>& agenda) {
    return json(agenda).dump();
}

void insert_meeting(Database& db, const std::string& syndicate_id, const std::string& id, const NewMeeting& m,
                    const std::string& now) {
    auto q = db.prepare(
        "INSERT INTO meetings (id, syndicate_id, title, type, scheduled_at, location, agenda, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate_id, m.title, m.type, to_utc_iso(m.scheduled_at), m.location,
                    agenda_text(m.agenda), now, now);
    q->exec();
}

void set_meeting_column(Database& db, const std::string& meeting_id, const char* column,
                        const std::optional<std::string>& value) {
    auto q = db.prepare(std::string("UPDATE meetings SET ") + column + " = ? WHERE id = ?");
    if (value) q->bind(1, *value);
    q->bind(2, meeting_id);
    q->exec();
}

void touch(Database& db, const std::string& meeting_id, const Clock& clock) {
    set_meeting_column(db, meeting_id, "updated_at", to_utc_iso(clock.now()));
}

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

std::int64_t resolution_count(Database& db, const std::string& meeting_id) {
    auto q = db.prepare("SELECT count(*) FROM resolutions WHERE meeting_id = ?");
    q->bind(1, meeting_id);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

namespace {

constexpr const char* resolution_columns =
    "id, meeting_id, position, title, description, majority_required, votes_recorded, votes_for, votes_against, "
    "votes_abstain, body, source, decided_on, ballots_recorded, headcount_for, headcount_entitled, headcount_basis, quorum";

Resolution read_resolution(SQLite::Statement& q) {
    Resolution r;
    r.id = q.getColumn(0).getString();
    r.meeting_id = optional_text(q, 1).value_or("");
    r.position = q.getColumn(2).getInt();
    r.title = q.getColumn(3).getString();
    r.description = q.getColumn(4).getString();
    r.majority = q.getColumn(5).getString();
    r.recorded = q.getColumn(6).getInt() != 0;
    r.votes_for = Fraction::from_units(q.getColumn(7).getInt64());
    r.votes_against = Fraction::from_units(q.getColumn(8).getInt64());
    r.votes_abstain = Fraction::from_units(q.getColumn(9).getInt64());
    r.body = optional_text(q, 10);
    r.source = optional_text(q, 11);
    r.decided_on = optional_text(q, 12);
    r.ballots_recorded = q.getColumn(13).getInt() != 0;
    if (!q.getColumn(14).isNull()) r.headcount_for = q.getColumn(14).getInt64();
    if (!q.getColumn(15).isNull()) r.headcount_entitled = q.getColumn(15).getInt64();
    r.headcount_basis = optional_text(q, 16);
    r.quorum = governance::read_snapshot(optional_text(q, 17));
    return r;
}

}  // namespace

std::vector<Resolution> resolutions_of(Database& db, const std::string& meeting_id) {
    std::vector<Resolution> out;
    auto q = db.prepare(std::string("SELECT ") + resolution_columns + " FROM resolutions WHERE meeting_id = ? ORDER BY position");
    q->bind(1, meeting_id);
    while (q->executeStep()) out.push_back(read_resolution(*q));
    return out;
}

std::vector<MinutesRecord> minutes_of(Database& db, const std::string& meeting_id) {
    std::vector<MinutesRecord> out;
    auto q = db.prepare(
        "SELECT id, draft, language, path, pages, size_bytes, sha256, created_at FROM documents "
        "WHERE meeting_id = ? AND kind = 'minutes' AND deleted_at IS NULL ORDER BY created_at, id");
    q->bind(1, meeting_id);
    while (q->executeStep())
        out.push_back({q->getColumn(0).getString(), q->getColumn(1).getInt() != 0, q->getColumn(2).getString(),
                       q->getColumn(3).getString(), q->getColumn(4).getInt64(), q->getColumn(5).getInt64(),
                       q->getColumn(6).getString(), q->getColumn(7).getString()});
    return out;
}

bool has_final_minutes_since(Database& db, const std::string& meeting_id, const std::string& since) {
    auto q = db.prepare(
        "SELECT 1 FROM documents WHERE meeting_id = ? AND kind = 'minutes' AND draft = 0 AND created_at >= ?");
    bind_parameters(*q, meeting_id, since);
    return q->executeStep();
}

Resolution insert_resolution(Database& db, const std::string& syndicate_id, const std::string& meeting_id,
                             const std::string& id, const std::string& title, const std::string& description,
                             const std::string& majority, const std::string& now) {
    std::int64_t position = 1;
    {
        auto q = db.prepare("SELECT coalesce(max(position), 0) + 1 FROM resolutions WHERE meeting_id = ?");
        q->bind(1, meeting_id);
        q->executeStep();
        position = q->getColumn(0).getInt64();
    }
    {
        auto q = db.prepare(
            "INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, description, majority_required, "
            "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        bind_parameters(*q, id, meeting_id, syndicate_id, position, title, description, majority, now, now);
        q->exec();
    }
    auto q = db.prepare(std::string("SELECT ") + resolution_columns + " FROM resolutions WHERE id = ?");
    q->bind(1, id);
    q->executeStep();
    return read_resolution(*q);
}

std::optional<Resolution> find_resolution(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + resolution_columns + " FROM resolutions WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    return read_resolution(*q);
}

void store_votes(Database& db, const Resolution& r, const std::string& now) {
    auto q = db.prepare(
        "UPDATE resolutions SET votes_recorded = 1, votes_for = ?, votes_against = ?, votes_abstain = ?, updated_at = ?, "
        "quorum = ? WHERE id = ?");
    bind_parameters(*q, r.votes_for.units(), r.votes_against.units(), r.votes_abstain.units(), now,
                    r.quorum ? std::optional(governance::stored_snapshot(*r.quorum)) : std::nullopt, r.id);
    q->exec();
}

std::vector<Ballot> ballots_of(Database& db, const std::string& resolution_id) {
    std::vector<Ballot> out;
    auto q = db.prepare(
        "SELECT b.co_owner_id, b.choice, b.cast_by, b.votes_units FROM ballots b JOIN co_owners c ON c.id = b.co_owner_id "
        "WHERE b.resolution_id = ? ORDER BY c.sort_key, b.co_owner_id");
    q->bind(1, resolution_id);
    while (q->executeStep())
        out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                       Fraction::from_units(q->getColumn(3).getInt64())});
    return out;
}

void delete_ballots(Database& db, const std::string& resolution_id) {
    auto q = db.prepare("DELETE FROM ballots WHERE resolution_id = ?");
    q->bind(1, resolution_id);
    q->exec();
}

void upsert_ballot(Database& db, const std::string& syndicate_id, const std::string& resolution_id, const Ballot& b,
                   const std::string& now) {
    auto q = db.prepare(
        "INSERT INTO ballots (resolution_id, co_owner_id, syndicate_id, choice, votes_units, cast_by, recorded_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (resolution_id, co_owner_id) DO UPDATE SET choice = excluded.choice, "
        "votes_units = excluded.votes_units, cast_by = excluded.cast_by, recorded_at = excluded.recorded_at");
    bind_parameters(*q, resolution_id, b.co_owner_id, syndicate_id, b.choice, b.votes.units(), b.cast_by, now);
    q->exec();
}

void store_ballot_totals(Database& db, const Resolution& r, const std::string& now) {
    auto q = db.prepare(
        "UPDATE resolutions SET votes_recorded = 1, ballots_recorded = 1, votes_for = ?, votes_against = ?, "
        "votes_abstain = ?, headcount_for = ?, headcount_entitled = ?, headcount_basis = ?, quorum = ?, updated_at = ? "
        "WHERE id = ?");
    bind_parameters(*q, r.votes_for.units(), r.votes_against.units(), r.votes_abstain.units(),
                    r.headcount_for.value_or(0), r.headcount_entitled.value_or(0), r.headcount_basis,
                    r.quorum ? std::optional(governance::stored_snapshot(*r.quorum)) : std::nullopt, now, r.id);
    q->exec();
}

std::optional<CoOwnerShare> active_co_owner(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT first_name || ' ' || last_name, fraction_units FROM co_owners "
        "WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    return CoOwnerShare{q->getColumn(0).getString(), q->getColumn(1).getInt64()};
}

void upsert_attendance(Database& db, const std::string& syndicate_id, const std::string& meeting_id,
                       const std::string& co_owner_id, const CoOwnerShare& share, const std::string& attendance,
                       const std::optional<std::string>& proxy_holder, const std::string& now) {
    auto q = db.prepare(
        "INSERT INTO meeting_attendees (meeting_id, co_owner_id, syndicate_id, name, fraction_units, attendance, "
        "proxy_holder, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (meeting_id, co_owner_id) DO UPDATE SET name = excluded.name, "
        "fraction_units = excluded.fraction_units, attendance = excluded.attendance, "
        "proxy_holder = excluded.proxy_holder, recorded_at = excluded.recorded_at");
    bind_parameters(*q, meeting_id, co_owner_id, syndicate_id, share.name, share.fraction_units, attendance, proxy_holder,
                    now);
    q->exec();
}

void mark_notice_sent(Database& db, const std::string& meeting_id, const std::string& now, const std::string& channel,
                      bool with_agenda, const std::optional<std::string>& justification) {
    auto q = db.prepare(
        "UPDATE meetings SET status = 'notice-sent', notice_sent_at = ?, notice_channel = ?, notice_with_agenda = ?, "
        "notice_justification = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, now, channel, with_agenda ? 1 : 0, justification, now, meeting_id);
    q->exec();
}

std::vector<Recipient> active_co_owners(Database& db, const std::string& syndicate_id) {
    std::vector<Recipient> out;
    auto q = db.prepare(
        "SELECT id, first_name, last_name, language, email FROM co_owners WHERE syndicate_id = ? AND deleted_at IS NULL "
        "ORDER BY sort_key, id");
    q->bind(1, syndicate_id);
    while (q->executeStep()) {
        Recipient r{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                    q->getColumn(3).getString(), std::nullopt};
        if (!q->getColumn(4).isNull()) r.email = q->getColumn(4).getString();
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<Recipient> directors_in_office(Database& db, const std::string& syndicate_id, const std::string& day) {
    const auto fallback = get_setting(db, syndicate_id, "defaultLanguage").get<std::string>();
    std::vector<Recipient> out;
    for (auto& d : governance::directors_in_office(db, syndicate_id, day))
        out.push_back({std::move(d.co_owner_id), std::move(d.name), "", d.language.value_or(fallback), std::move(d.email)});
    return out;
}

void queue_message(Database& db, const std::string& syndicate_id, const OutboxMessage& message, const std::string& now) {
    queue_outbox_message(db, syndicate_id,
                         {message.co_owner_id, message.channel, message.recipient, message.language, message.subject, message.body,
                          message.related_type, message.related_id, message.meeting_id, message.attachments},
                         now);
}

void insert_minutes(Database& db, const std::string& syndicate_id, const Meeting& m, const MinutesRecord& record,
                    const std::string& uploaded_by) {
    documents::NewDocument d;
    d.id = record.document_id;
    d.kind = "minutes";
    d.title = (record.language == "en" ? "Minutes — " : "Procès-verbal — ") + m.title;
    d.file_name = std::filesystem::path(record.path).filename().string();
    d.mime_type = "application/pdf";
    d.path = record.path;
    d.sha256 = record.sha256;
    d.visibility = record.draft ? "board" : "co-owners";
    d.uploaded_by = uploaded_by;
    d.created_at = record.created_at;
    d.certified_by = "syndic-mcp";  // the server wrote it: the register's record once final
    d.language = record.language;
    d.register_item = m.type == "board" ? "board-minutes" : "meeting-minutes";
    d.meeting_id = m.id;
    d.pages = record.pages;
    d.size_bytes = record.size_bytes;
    d.draft = record.draft;
    documents::insert_document(db, syndicate_id, d);
    documents::attach(db, syndicate_id, d.id, "meeting", m.id, record.created_at);
}

}  // namespace syndic::meetings
