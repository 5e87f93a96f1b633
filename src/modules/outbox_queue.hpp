// Queuing a message in the one outbox (catalogue §5, link L25): every notice, minutes or notice
// of assessment a module sends is a row the mailer delivers later, with the documents attached to
// it. What every module that sends shares; included only by module sources.
#pragma once
#include <string>

namespace syndic {

class Database;

struct QueuedMessage {
    std::string co_owner_id;   // "" for none
    std::string channel = "email";
    std::string recipient, language, subject, body;
    std::string related_type, related_id;  // the record the message is about
    std::string meeting_id;                // "" unless about a meeting
    std::string attachments = "[]";        // a JSON array of document ids
};

// Inserts the message, queued, at `now` (an ISO 8601 UTC instant).
void queue_outbox_message(Database& db, const std::string& syndicate_id, const QueuedMessage& message, const std::string& now);

}  // namespace syndic
