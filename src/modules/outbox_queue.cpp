#include "modules/outbox_queue.hpp"

#include <SQLiteCpp/Statement.h>

#include "core/ids.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

void queue_outbox_message(Database& db, const std::string& syndicate_id, const QueuedMessage& message, const std::string& now) {
    auto q = db.prepare(
        "INSERT INTO outbox (id, syndicate_id, meeting_id, co_owner_id, channel, recipient, language, subject, body, "
        "created_at, updated_at, related_type, related_id, attachments) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, coalesce(?12, ?3), ?13)");
    bind_parameters(*q, new_record_id(), syndicate_id, nonempty_text(message.meeting_id), nonempty_text(message.co_owner_id),
                    message.channel, message.recipient, message.language, message.subject, message.body, now,
                    message.related_type, nonempty_text(message.related_id), message.attachments);
    q->exec();
}

}  // namespace syndic
