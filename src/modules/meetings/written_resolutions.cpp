// Written resolutions (catalogue §3.2, record_written_resolution; art. 354 C.c.Q.): a resolution
// signed by every person entitled to vote has the effect of one taken at a meeting. General: every
// active co-owner on the voting roll not suspended for arrears (art. 1094, accounting's standing);
// board: every director in office. It takes effect on the last signature, never before; its text
// is then queued to every co-owner (art. 1102.1, 1086.1) and it is kept in the register (art. 1070).
#include <SQLiteCpp/Statement.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/governance/in_office.hpp"
#include "modules/list_query.hpp"
#include "modules/governance/resolution_outcome.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/closing.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/written_signers.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {
namespace {

using nlohmann::json;

// Why `signer_id` may not sign a resolution of `body`: no co-owner or director of the syndicate has
// that id (CO_OWNER_NOT_FOUND, or DIRECTOR_NOT_FOUND for the board), or the person is known but not
// entitled (suspended, out of office, a co-owner who is no director: SIGNER_NOT_ENTITLED).
DomainError refused_signer(Database& db, const std::string& syndicate, const std::string& body,
                           const std::string& signer_id, const std::string& field) {
    const bool board = body == "board";
    auto q = db.prepare(
        "SELECT 1 FROM co_owners WHERE id = ?1 AND syndicate_id = ?2 AND deleted_at IS NULL UNION ALL "
        "SELECT 1 FROM directors WHERE id = ?1 AND syndicate_id = ?2");
    bind_parameters(*q, signer_id, syndicate);
    if (!q->executeStep())
        return DomainError(board ? governance::codes::director_not_found : syndic::codes::co_owner_not_found,
                           std::string("No ") + (board ? "director" : "active co-owner") + " with id " + signer_id +
                               " in this syndicate.")
            .at(field);
    return DomainError(codes::signer_not_entitled,
                       board ? "Signer " + signer_id + " is not a director in office: only the directors in office sign "
                                                       "the board's written resolution."
                             : "Co-owner " + signer_id + " may not vote now (suspended for arrears, art. 1094): only "
                                                         "the co-owners entitled to vote sign.")
        .at(field)
        .with("signerId", signer_id);
}

json resolution_json(Database& db, const std::string& syndicate, const std::string& id, const std::string& today) {
    auto q = db.prepare(
        "SELECT id, body, title, description, majority_required, decided_on, contestable_until, sent_at, created_at, "
        "updated_at FROM resolutions WHERE id = ? AND syndicate_id = ? AND source = 'written'");
    bind_parameters(*q, id, syndicate);
    if (!q->executeStep()) throw std::logic_error("written resolution " + id + " vanished");
    const std::string body = q->getColumn(1).getString();
    json out = {{"id", id},
                {"source", "written"},
                {"body", body},
                {"title", q->getColumn(2).getString()},
                {"text", q->getColumn(3).getString()},
                {"majorityRequired", q->getColumn(4).getString()},
                {"decidedOn", nullable_text(q->getColumn(5))},
                {"adoptedOn", nullable_text(q->getColumn(5))},
                {"contestableUntil", nullable_text(q->getColumn(6))},
                {"sentAt", shown_time(q->getColumn(7))},
                {"createdAt", shown_time(q->getColumn(8))},
                {"updatedAt", shown_time(q->getColumn(9))}};
    const bool adopted = !q->getColumn(5).isNull();
    // Not adopted yet: it lapses as soon as one of its signers is no longer entitled.
    const auto set = adopted ? SignerSet{} : signer_set(db, syndicate, id, body, today);
    out["status"] = adopted ? "adopted" : set.lapsed() ? "lapsed" : "collecting";
    out["outcome"] = adopted ? "passed" : set.lapsed() ? "rejected" : "pending";
    json left = json::array();
    for (const auto& s : set.left) left.push_back({{"signerId", s.id}, {"name", s.name}});
    out["signersLeft"] = std::move(left);
    json signatures = json::array();
    std::vector<std::string> signed_ids;
    auto s = db.prepare(
        "SELECT signer_type, signer_id, name, signed_on, document_id FROM resolution_signatures "
        "WHERE resolution_id = ? ORDER BY signed_on, name, signer_id");
    s->bind(1, id);
    while (s->executeStep()) {
        signed_ids.push_back(s->getColumn(1).getString());
        signatures.push_back({{"signerType", s->getColumn(0).getString()},
                              {"signerId", s->getColumn(1).getString()},
                              {"name", s->getColumn(2).getString()},
                              {"signedOn", s->getColumn(3).getString()},
                              {"documentId", nullable_text(s->getColumn(4))}});
    }
    json missing = json::array();
    if (!adopted)
        for (const auto& e : set.signers)
            if (std::find(signed_ids.begin(), signed_ids.end(), e.id) == signed_ids.end())
                missing.push_back({{"signerId", e.id}, {"name", e.name}});
    out["signatures"] = std::move(signatures);
    out["missingSigners"] = std::move(missing);
    return out;
}

// The adopted text, to every co-owner with an e-mail, in their language.
std::int64_t queue_adopted_text(Database& db, const std::string& syndicate, const std::string& id, const std::string& title,
                                const std::string& text, const std::string& body, const std::string& adopted_on,
                                const std::string& now) {
    std::int64_t queued = 0;
    auto owners = db.prepare(
        "SELECT id, first_name, last_name, email, language FROM co_owners WHERE syndicate_id = ? AND deleted_at IS NULL "
        "AND email IS NOT NULL ORDER BY last_name, first_name, id");
    owners->bind(1, syndicate);
    while (owners->executeStep()) {
        const bool en = owners->getColumn(4).getString() == "en";
        const std::string who = owners->getColumn(1).getString() + " " + owners->getColumn(2).getString();
        const std::string subject = (en ? "Written resolution adopted — " : "Résolution écrite adoptée — ") + title;
        const std::string by = body == "board" ? (en ? "the board of directors" : "le conseil d'administration")
                                               : (en ? "the co-owners" : "les copropriétaires");
        const std::string message =
            (en ? "Dear " + who + ",\n\nThe following resolution was adopted in writing by " + by + " on " + adopted_on +
                      ", signed by all those entitled to vote (art. 354 C.c.Q.). It has the same effect as if it had "
                      "been adopted at a meeting.\n\n"
                : "Bonjour " + who + ",\n\nLa résolution suivante a été adoptée par écrit par " + by + " le " +
                      adopted_on + ", signée par toutes les personnes habiles à voter (art. 354 C.c.Q.). Elle a la même "
                      "valeur que si elle avait été adoptée en assemblée.\n\n") +
            title + "\n\n" + text + "\n";
        queue_message(db, syndicate,
                      {"", owners->getColumn(0).getString(), "email", owners->getColumn(3).getString(), en ? "en" : "fr",
                       subject, message, "resolution", id},
                      now);
        ++queued;
    }
    return queued;
}

// The Montreal day the written resolution was recorded: put forward for signature.
std::string put_forward_day(const ToolCall& call, const std::string& id) {
    auto q = call.db.prepare("SELECT created_at FROM resolutions WHERE id = ?");
    bind_parameters(*q, id);
    if (!q->executeStep()) throw std::logic_error("written resolution " + id + " vanished");
    return montreal_date(stored_instant(q->getColumn(0).getString()));
}

// The fields of a new written resolution, VALIDATION_FAILED for one missing.
std::string required_text(const Arguments& args, const char* key) {
    if (!args.given(key))
        throw invalid_argument(args.pointer(key), "is required for a new written resolution",
                               std::string("A new written resolution needs its ") + key + " (no id given).");
    return args.nonblank(key);
}

// Signers and signed pages must be the syndicate's, whatever else the call holds: a person who is
// neither its co-owner nor its director is unknown here (the body says which one was meant).
void require_signers_and_pages(const ToolCall& call, const std::vector<Arguments>& signatures) {
    const auto& syndicate = call.caller.syndicate_id;
    for (const auto& signature : signatures) {
        const std::string& signer_id = signature.text("signerId");
        auto known = call.db.prepare(
            "SELECT 1 FROM co_owners WHERE id = ?1 AND syndicate_id = ?2 UNION ALL "
            "SELECT 1 FROM directors WHERE id = ?1 AND syndicate_id = ?2");
        bind_parameters(*known, signer_id, syndicate);
        if (!known->executeStep())
            throw refused_signer(call.db, syndicate, call.arguments().text_or("body", "general"), signer_id,
                                 signature.pointer("signerId"));
    }
    for (const auto& signature : signatures)
        if (const auto document = signature.optional_text("documentId"))
            require_record_exists(call.db, syndicate, "documents", *document, signature.pointer("documentId"), RecordState::active);
}

// The body of the written resolution `id`, recorded and not yet adopted, to which the call only
// adds signatures.
std::string written_resolution_body(const ToolCall& call, const std::string& id) {
    const auto a = call.arguments();
    auto q = call.db.prepare(
        "SELECT body, decided_on, title, description, majority_required FROM resolutions "
        "WHERE id = ? AND syndicate_id = ? AND source = 'written'");
    bind_parameters(*q, id, call.caller.syndicate_id);
    if (!q->executeStep())
        throw DomainError(syndic::codes::resolution_not_found, "No written resolution with id " + id + " in this syndicate.")
            .at("/id");
    const auto body = q->getColumn(0).getString();
    if (!q->getColumn(1).isNull())
        throw DomainError(codes::already_adopted, "The written resolution was adopted on " + q->getColumn(1).getString() +
                                                      " with every signature; it takes none more.")
            .at("/id")
            .with("adoptedOn", q->getColumn(1).getString());
    // The resolution's own fields may be repeated as recorded (a caller sends the whole resolution
    // with each signature); only a change is refused. Titles and texts compare as stored: trimmed.
    const std::pair<const char*, std::string> recorded[] = {{"body", body},
                                                            {"title", q->getColumn(2).getString()},
                                                            {"text", q->getColumn(3).getString()},
                                                            {"majorityRequired", q->getColumn(4).getString()}};
    for (const auto& [key, value] : recorded) {
        if (!a.has(key)) continue;
        const bool trimmed = std::string_view(key) == "title" || std::string_view(key) == "text";
        if ((trimmed ? trim(a.text(key)) : a.text(key)) != value)
            throw invalid_argument(a.pointer(key), "differs from the recorded resolution",
                                   std::string(key) + " is fixed once the resolution is recorded" +
                                       (trimmed && key[1] == 'e' ? std::string() : " (it is '" + value + "')") +
                                       "; give it as recorded, or leave it out, and add signatures only.");
    }
    return body;
}

// A new written resolution from the call's fields; returns its id.
std::string insert_written_resolution(const ToolCall& call, const std::string& body, const std::string& now) {
    const auto a = call.arguments();
    const auto title = required_text(a, "title");
    const auto text = required_text(a, "text");
    const auto majority = required_text(a, "majorityRequired");
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, description, majority_required, "
        "created_at, updated_at, body, source) VALUES (?1, NULL, ?2, 0, ?3, ?4, ?5, ?6, ?6, ?7, 'written')");
    bind_parameters(*q, id, call.caller.syndicate_id, title, text, majority, now, body);
    q->exec();
    return id;
}

// Each signature, by one of the resolution's signers, dated from the day it was put forward (its
// recording) to today; a signer's new signature replaces their earlier one.
void record_signatures(const ToolCall& call, const std::string& id, const std::string& body,
                       const std::vector<Arguments>& signatures, const std::vector<Signer>& entitled,
                       const std::string& put_forward, const std::string& today, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    for (const auto& s : signatures) {
        const std::string& signer_id = s.text("signerId");
        const auto signer = std::find_if(entitled.begin(), entitled.end(), [&](const Signer& e) { return e.id == signer_id; });
        if (signer == entitled.end()) throw refused_signer(call.db, syndicate, body, signer_id, s.pointer("signerId"));
        const auto signed_on = date_argument(s, "signedOn").value();
        if (signed_on > today)
            throw invalid_argument(s.pointer("signedOn"), "is after today", "A signature cannot be dated after today.");
        if (signed_on < put_forward)
            throw invalid_argument(s.pointer("signedOn"), "is before the resolution was put forward",
                                   "A signature cannot be dated before the written resolution was recorded (" + put_forward +
                                       "): record it when it goes out for signature, then add each signature.")
                .with("putForwardOn", put_forward);
        const auto document = s.optional_text("documentId");
        auto q = call.db.prepare(
            "INSERT INTO resolution_signatures (resolution_id, syndicate_id, signer_type, signer_id, name, signed_on, "
            "document_id, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (resolution_id, signer_id) "
            "DO UPDATE SET signed_on = excluded.signed_on, document_id = excluded.document_id, recorded_at = excluded.recorded_at");
        bind_parameters(*q, id, syndicate, signer->type, signer_id, signer->name, signed_on, document, now);
        q->exec();
    }
}

// Adopted once every one entitled has signed: effective on the last signature of those entitled
// (art. 354), the day it bears; its text is sent to the co-owners. Returns the record as it now is.
json adopt_when_signed(const ToolCall& call, const std::string& id, const std::string& body,
                       const std::vector<Signer>& entitled, const std::string& today, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    auto record = resolution_json(call.db, syndicate, id, today);
    if (!record["missingSigners"].empty() || entitled.empty()) return record;
    std::string adopted_on;
    for (const auto& s : record["signatures"])
        if (std::any_of(entitled.begin(), entitled.end(), [&](const Signer& e) { return e.id == s["signerId"].get<std::string>(); }))
            adopted_on = std::max(adopted_on, s["signedOn"].get<std::string>());
    queue_adopted_text(call.db, syndicate, id, record["title"].get<std::string>(), record["text"].get<std::string>(), body,
                       adopted_on, now);
    auto q = call.db.prepare(
        "UPDATE resolutions SET decided_on = ?1, contestable_until = ?2, sent_at = ?3, updated_at = ?3 WHERE id = ?4");
    // Decided on its last signature; the 90 days of art. 1103 run from the co-owners' notice of it,
    // queued now (a signature dated years back never starts a window already over).
    bind_parameters(*q, adopted_on, add_calendar_days(today, governance::contestation_days), now, id);
    q->exec();
    call.name_event("written_resolution.adopted", "resolution", id);
    return resolution_json(call.db, syndicate, id, today);
}

}  // namespace

json record_written_resolution(const ToolCall& call) {
    const auto a = call.arguments();
    const auto now = to_utc_iso(call.clock.now());
    const auto today = montreal_date(call.clock.now());
    const auto signatures = a.rows("signatures");
    require_signers_and_pages(call, signatures);
    const auto& syndicate = call.caller.syndicate_id;
    std::string id, body;
    if (const auto given = a.optional_text("id")) {
        id = *given;
        body = written_resolution_body(call, id);
    } else {
        body = required_text(a, "body");
        id = insert_written_resolution(call, body, now);
    }
    // The signers are those entitled when it is put forward, fixed then (one recorded before they
    // were kept has them fixed now); one who is no longer entitled makes it lapse.
    const auto set = signer_set(call.db, syndicate, id, body, today);
    if (!set.fixed) fix_signers(call.db, syndicate, id, set.signers);
    if (set.lapsed())
        throw DomainError(codes::invalid_status_transition,
                          "The written resolution lapsed: " + set.left.front().name +
                              ", one of its signers, is no longer entitled to vote (art. 354 needs every signer "
                              "entitled when it was put forward); put it forward again.")
            .at("/id")
            .with("status", "lapsed")
            .with("signerId", set.left.front().id);
    record_signatures(call, id, body, signatures, set.signers, put_forward_day(call, id), today, now);
    return adopt_when_signed(call, id, body, set.signers, today, now);
}

}  // namespace syndic::meetings
