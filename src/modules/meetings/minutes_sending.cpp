// Sending the minutes (catalogue §3.2, send_minutes): the final minutes, as generated after the
// meeting's last change, go to every co-owner as an attached PDF, general and board meetings alike
// (art. 1102.1; board decisions, art. 1086.1); the meeting becomes minutes-sent. Late sending (more
// than 30 days after the meeting) is still done, and said.
#include <SQLiteCpp/Statement.h>

#include <nlohmann/json.hpp>

#include <string>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/closing.hpp"
#include "modules/meetings/presenter.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/wording.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {
namespace {

using nlohmann::json;

inline constexpr int minutes_due_days = 30;  // art. 1102.1

// The final minutes to send: the one named, else the latest; MINUTES_NOT_FINAL when none was
// generated after the meeting's last change; DOCUMENT_NOT_FOUND for a document that is not final
// minutes of this meeting.
std::string minutes_to_send(Database& db, const Meeting& m, const std::optional<std::string>& named) {
    if (!has_final_minutes_since(db, m.id, m.updated_at))
        throw DomainError(codes::minutes_not_final,
                          "The meeting has no final minutes as it stands (none yet, or it changed since): "
                          "generate_minutes with draft false first.")
            .at("/meetingId");
    auto q = db.prepare(
        "SELECT id FROM documents WHERE meeting_id = ?1 AND kind = 'minutes' AND draft = 0 AND deleted_at IS NULL "
        "AND (?2 IS NULL OR id = ?2) ORDER BY created_at DESC, id LIMIT 1");
    q->bind(1, m.id);
    if (named) q->bind(2, *named);
    if (!q->executeStep())
        throw DomainError(syndic::codes::document_not_found,
                          "No final minutes of this meeting with id " + named.value_or("") + ".")
            .at("/documentId");
    return q->getColumn(0).getString();
}

}  // namespace

json send_minutes(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto m = require_meeting(call.db, syndicate, a.text("meetingId"), "/meetingId");
    if (const auto named = a.optional_text("documentId"))  // the syndicate's, before any rule
        require_record_exists(call.db, syndicate, "documents", *named, "/documentId", RecordState::active);
    require_status(m, {"held"}, "sending the minutes");
    const auto document_id = minutes_to_send(call.db, m, a.optional_text("documentId"));
    const auto now = call.clock.now();
    const auto now_text = to_utc_iso(now);
    const std::string name = syndicate_name(call.db, syndicate);
    const std::string channel = a.text_or("sendBy", "email");  // the only channel there is today

    std::int64_t queued = 0;
    json without_email = json::array();
    for (const auto& r : active_co_owners(call.db, syndicate)) {
        if (!r.email) {
            without_email.push_back({{"coOwnerId", r.id}, {"name", r.first + " " + r.last}});
            continue;
        }
        const auto lang = wording::language_of(r.language);
        const bool en = lang == wording::Language::en;
        const std::string subject = (en ? "Minutes — " : "Procès-verbal — ") + m.title;
        const std::string body =
            en ? "Dear " + r.first + " " + r.last + ",\n\nPlease find attached the minutes of the " +
                     wording::meeting_type(m.type, lang) + " of " + wording::date_time(m.scheduled_at, lang) + ".\n\n" + name + "\n"
               : "Bonjour " + r.first + " " + r.last + ",\n\nVous trouverez ci-joint le procès-verbal de l'" +
                     wording::meeting_type(m.type, lang) + " du " + wording::date_time(m.scheduled_at, lang) + ".\n\n" + name + "\n";
        queue_message(call.db, syndicate,
                      {m.id, r.id, channel, *r.email, r.language, subject, body, "meeting", m.id,
                       json::array({document_id}).dump()},
                      now_text);
        ++queued;
    }
    set_meeting_column(call.db, m.id, "status", "minutes-sent");
    set_meeting_column(call.db, m.id, "minutes_sent_at", now_text);
    touch(call.db, m.id, call.clock);
    call.name_event("meeting.minutes_sent", "meeting", m.id);

    const int days = calendar_days_between(montreal_date(m.scheduled_at), montreal_date(now));
    return {{"meeting", for_caller(full_meeting(call.db, syndicate, m.id, now), call.caller)},
            {"documentId", document_id},
            {"queued", queued},
            {"withoutEmail", without_email},
            {"daysAfterMeeting", days},
            {"late", days > minutes_due_days}};
}

}  // namespace syndic::meetings
