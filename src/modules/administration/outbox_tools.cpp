// list_outbox_messages and update_outbox_message (catalogue section 4.2): the outbox as its
// delivery left it, and what a person or an outside mailer reports of a message sent by hand.
#include "modules/administration/administration.hpp"

#include <nlohmann/json.hpp>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

using nlohmann::json;

constexpr const char* outbox_columns =
    "o.id, o.channel, o.recipient, o.co_owner_id, o.language, o.subject, o.body, o.attachments, o.related_type, "
    "o.related_id, o.status, o.attempts, o.error, o.next_attempt_at, o.created_at, o.sent_at, o.reported_by_hand";

json outbox_message(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"channel", q.getColumn(1).getString()},
            {"recipient", q.getColumn(2).getString()},
            {"coOwnerId", nullable_text(q.getColumn(3))},
            {"language", q.getColumn(4).getString()},
            {"subject", q.getColumn(5).getString()},
            {"body", q.getColumn(6).getString()},
            {"attachments", json::parse(q.getColumn(7).getString())},
            {"relatedType", nullable_text(q.getColumn(8))},
            {"relatedId", nullable_text(q.getColumn(9))},
            {"status", q.getColumn(10).getString()},
            {"attempts", q.getColumn(11).getInt()},
            {"error", nullable_text(q.getColumn(12))},
            {"nextAttemptAt", shown_time(q.getColumn(13))},
            {"queuedAt", shown_time(q.getColumn(14))},
            {"sentAt", shown_time(q.getColumn(15))},
            {"reportedByHand", q.getColumn(16).getInt() == 1}};
}

json require_message(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + outbox_columns + " FROM outbox o WHERE o.id = ? AND o.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("outbox", id, "/id");
    return outbox_message(*q);
}

// When the message was queued, as stored.
std::string current_queued_at(Database& db, const std::string& id) {
    auto q = db.prepare("SELECT created_at FROM outbox WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return q->getColumn(0).getString();
}

json list_outbox_messages(const ToolCall& call) {
    return list_page(call, outbox_columns,
                     "FROM outbox o WHERE o.syndicate_id = :syndicate AND (:status IS NULL OR o.status = :status) "
                     "AND (:relatedType IS NULL OR o.related_type = :relatedType) "
                     "AND (:relatedId IS NULL OR o.related_id = :relatedId) AND (:coOwnerId IS NULL OR o.co_owner_id = :coOwnerId) "
                     "AND (:from IS NULL OR o.created_at >= :from) AND (:to IS NULL OR o.created_at <= :to)",
                     "o.created_at DESC, o.id",
                     {{"status"}, {"relatedType"}, {"relatedId"}, {"coOwnerId"},
                      {"from", ListValue::from_instant}, {"to", ListValue::to_instant}},
                     outbox_message);
}

json update_outbox_message(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = a.text("id");
    const auto current = require_message(call.db, syndicate, id);
    const std::string from = current["status"], to = a.text("status");
    const bool allowed = (from == "queued" && (to == "sent" || to == "failed" || to == "cancelled")) ||
                         (from == "failed" && to == "queued");
    if (!allowed)
        throw DomainError(codes::invalid_status_transition,
                          "A message that is " + from + " cannot become " + to +
                              " (queued → sent, failed or cancelled; failed → queued).")
            .at("/status")
            .with("status", from);
    if (a.has("error") && to != "failed")
        throw DomainError(codes::validation_failed, "error is given only with status failed.").at("/error");
    if (a.has("sentAt") && to != "sent")
        throw DomainError(codes::validation_failed, "sentAt is given only with status sent.").at("/sentAt");
    // A reported sending lies between its queuing and now: it is the evidence of a notice's days.
    const auto now = call.clock.now();
    auto sent_at = now;
    if (a.has("sentAt")) {
        sent_at = instant_argument(a, "sentAt");
        const auto queued = stored_instant(current_queued_at(call.db, id));
        if (sent_at < queued || sent_at > now)
            throw invalid_argument("/sentAt", "is not between the message's queuing and now",
                                   "A message is sent after it was queued (" + to_montreal_iso(queued) + ") and not after now.")
                .with("queuedAt", to_montreal_iso(queued))
                .with("now", to_montreal_iso(now));
    }
    auto q = call.db.prepare(
        "UPDATE outbox SET status = ?1, error = ?2, sent_at = ?3, next_attempt_at = NULL, lease_owner = NULL, "
        "lease_until = NULL, updated_at = ?4, reported_by_hand = CASE WHEN ?1 = 'sent' THEN 1 ELSE reported_by_hand END "
        "WHERE id = ?5 AND syndicate_id = ?6");
    q->bind(1, to);
    if (to == "failed") q->bind(2, a.has("error") ? a.text("error") : std::string("reported failed"));
    else if (to == "queued" && current["error"].is_string()) q->bind(2, current["error"].get<std::string>());  // kept
    else q->bind(2);
    if (to == "sent") q->bind(3, to_utc_iso(sent_at));
    else q->bind(3);
    q->bind(4, to_utc_iso(call.clock.now()));
    q->bind(5, id);
    q->bind(6, syndicate);
    q->exec();
    if (to == "sent") call.name_event("message.sent", "outbox", id);
    if (to == "failed") call.name_event("message.failed", "outbox", id);
    return require_message(call.db, syndicate, id);
}

}  // namespace

void register_administration_module(ToolTable& table) {
    table.bind("list_outbox_messages", list_outbox_messages);
    table.bind("update_outbox_message", update_outbox_message);
    register_webhook_tools(table);
    register_access_tools(table);
    register_settings_tools(table);
}

}  // namespace syndic
