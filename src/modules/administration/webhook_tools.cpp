// The webhook tools of catalogue section 4.2: subscriptions (URL checked against SSRF, events
// against section 6, at most 10), their secrets (derived, shown once), and their deliveries.
#include "modules/administration/administration.hpp"

#include <nlohmann/json.hpp>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "delivery/webhook_address.hpp"
#include "delivery/webhook_secrets.hpp"
#include "events/event_types.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

using nlohmann::json;

constexpr int webhook_limit = 10;
constexpr const char* webhook_columns =
    "w.id, w.url, w.events, w.active, w.description, w.secret_prefix, w.consecutive_failures, w.paused_at, "
    "w.last_delivery_at, w.created_at, w.updated_at";

json webhook_json(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"url", q.getColumn(1).getString()},
            {"events", json::parse(q.getColumn(2).getString())},
            {"active", q.getColumn(3).getInt() == 1},
            {"description", nullable_text(q.getColumn(4))},
            {"secretPrefix", q.getColumn(5).getString()},
            {"consecutiveFailures", q.getColumn(6).getInt()},
            {"pausedAt", shown_time(q.getColumn(7))},
            {"lastDeliveryAt", shown_time(q.getColumn(8))},
            {"createdAt", shown_time(q.getColumn(9))},
            {"updatedAt", shown_time(q.getColumn(10))}};
}

json require_webhook(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field = "/id") {
    auto q = db.prepare(std::string("SELECT ") + webhook_columns +
                        " FROM webhooks w WHERE w.id = ? AND w.syndicate_id = ? AND w.deleted_at IS NULL");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("webhooks", id, field);
    return webhook_json(*q);
}

void check_url(const std::string& url) {
    const auto address = check_webhook_url(url);
    if (!address.target) throw DomainError(codes::invalid_webhook_url, address.refusal).at("/url");
}

void check_events(const json& events) {
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto name = events[i].get<std::string>();
        if (!is_subscription_name(name))
            throw DomainError(codes::unknown_event_type,
                              "'" + name + "' is neither an event of the service (co_owner.created...) nor a module's "
                              "wildcard (co-owners.*).")
                .at("/events/" + std::to_string(i));
    }
}

std::string prefix_of(const std::string& secret) { return secret.substr(0, 12); }

json create_webhook(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string url = a.text("url");
    check_url(url);
    check_events(a.value("events"));
    auto n = call.db.prepare("SELECT count(*) FROM webhooks WHERE syndicate_id = ? AND deleted_at IS NULL");
    n->bind(1, syndicate);
    n->executeStep();
    if (n->getColumn(0).getInt() >= webhook_limit)
        throw DomainError(codes::webhook_limit_reached,
                          "This syndicate already has " + std::to_string(webhook_limit) + " webhooks; delete one first.")
            .with("limit", std::int64_t{webhook_limit});
    n->reset();
    const auto id = new_record_id();
    const auto secret = webhook_secret(call.db, id, 1);
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO webhooks (id, syndicate_id, url, events, active, description, secret_generation, secret_prefix, "
        "created_at, updated_at) VALUES (?1, ?2, ?3, ?4, 1, ?5, 1, ?6, ?7, ?7)");
    bind_parameters(*q, id, syndicate, url, a.value("events").dump(), a.optional_text("description"),
                    prefix_of(secret), now);
    q->exec();
    return {{"webhook", require_webhook(call.db, syndicate, id)}, {"secret", secret}};
}

json update_webhook(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = a.text("id");
    const auto current = require_webhook(call.db, syndicate, id);
    if (a.has("url")) check_url(a.text("url"));
    if (a.has("events")) check_events(a.value("events"));
    const auto now = call.clock.now();
    const bool rotate = a.flag("rotateSecret", false);
    const bool resume = a.flag("active", current["active"].get<bool>()) && !current["active"].get<bool>();
    std::string secret;
    std::int64_t generation = 0;
    if (rotate) {
        auto g = call.db.prepare("SELECT secret_generation FROM webhooks WHERE id = ?");
        g->bind(1, id);
        g->executeStep();
        generation = g->getColumn(0).getInt64() + 1;
        g->reset();
        secret = webhook_secret(call.db, id, generation);
    }
    auto q = call.db.prepare(
        "UPDATE webhooks SET url = coalesce(?1, url), events = coalesce(?2, events), "
        "description = CASE WHEN ?3 THEN ?4 ELSE description END, active = coalesce(?5, active), "
        "consecutive_failures = CASE WHEN ?6 THEN 0 ELSE consecutive_failures END, "
        "paused_at = CASE WHEN ?6 THEN NULL ELSE paused_at END, "
        "secret_generation = CASE WHEN ?7 THEN ?8 ELSE secret_generation END, "
        "secret_prefix = CASE WHEN ?7 THEN ?9 ELSE secret_prefix END, "
        "previous_secret_until = CASE WHEN ?7 THEN ?10 ELSE previous_secret_until END, updated_at = ?11 WHERE id = ?12");
    const auto events = a.has("events") ? std::optional(a.value("events").dump()) : std::nullopt;
    const auto active = a.optional_flag("active");
    bind_parameters(*q, a.optional_text("url"), events, a.has("description") ? 1 : 0, a.optional_text("description"),
                    active ? std::optional(*active ? 1 : 0) : std::nullopt, resume ? 1 : 0, rotate ? 1 : 0, generation,
                    rotate ? prefix_of(secret) : std::string(), to_utc_iso(now + std::chrono::hours(24)), to_utc_iso(now), id);
    q->exec();
    json result = {{"webhook", require_webhook(call.db, syndicate, id)}};
    if (rotate) result["secret"] = secret;
    return result;
}

json delete_webhook(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = call.arguments().text("id");
    const auto webhook = require_webhook(call.db, syndicate, id);
    const auto now = to_utc_iso(call.clock.now());
    auto d = call.db.prepare(
        "UPDATE webhook_deliveries SET status = 'abandoned', error = 'the webhook was deleted', lease_owner = NULL, "
        "lease_until = NULL, updated_at = ?1 WHERE webhook_id = ?2 AND status IN ('pending', 'failed')");
    bind_parameters(*d, now, id);
    const int abandoned = d->exec();
    auto q = call.db.prepare("UPDATE webhooks SET active = 0, deleted_at = ?1, updated_at = ?1 WHERE id = ?2");
    bind_parameters(*q, now, id);
    q->exec();
    return {{"webhook", webhook}, {"abandonedDeliveries", abandoned}};
}

json list_webhooks(const ToolCall& call) {
    return list_page(call, webhook_columns, "FROM webhooks w WHERE w.syndicate_id = :syndicate AND w.deleted_at IS NULL",
                     "w.created_at, w.id", {}, webhook_json);
}

constexpr const char* delivery_columns =
    "d.id, d.webhook_id, d.event_id, d.event_type, d.attempt, d.status, d.response_status, d.error, "
    "CASE WHEN d.status IN ('pending', 'failed') THEN d.next_attempt_at END, d.delivered_at, d.created_at";

json delivery_json(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},        {"webhookId", q.getColumn(1).getString()},
            {"eventId", q.getColumn(2).getString()},   {"eventType", q.getColumn(3).getString()},
            {"attempt", q.getColumn(4).getInt()},      {"status", q.getColumn(5).getString()},
            {"responseStatus", nullable_integer(q.getColumn(6))}, {"error", nullable_text(q.getColumn(7))},
            {"nextAttemptAt", shown_time(q.getColumn(8))},        {"deliveredAt", shown_time(q.getColumn(9))},
            {"createdAt", shown_time(q.getColumn(10))}};
}

json require_delivery(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + delivery_columns +
                        " FROM webhook_deliveries d WHERE d.id = ? AND d.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("webhook_deliveries", id, "/id");
    return delivery_json(*q);
}

json list_webhook_deliveries(const ToolCall& call) {
    const auto a = call.arguments();
    // Deliveries of an archived webhook are still listed.
    if (const auto webhook = a.optional_text("webhookId"))
        require_record_exists(call.db, call.caller.syndicate_id, "webhooks", *webhook, "/webhookId");
    return list_page(call, delivery_columns,
                     "FROM webhook_deliveries d WHERE d.syndicate_id = :syndicate "
                     "AND (:webhookId IS NULL OR d.webhook_id = :webhookId) AND (:status IS NULL OR d.status = :status) "
                     "AND (:eventType IS NULL OR d.event_type = :eventType) AND (:from IS NULL OR d.created_at >= :from) "
                     "AND (:to IS NULL OR d.created_at <= :to)",
                     "d.event_seq DESC, d.id",
                     {{"webhookId"}, {"status"}, {"eventType"}, {"from", ListValue::from_instant}, {"to", ListValue::to_instant}},
                     delivery_json);
}

json redeliver_webhook_delivery(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = call.arguments().text("id");
    const auto delivery = require_delivery(call.db, syndicate, id);
    const std::string status = delivery["status"];
    if (status != "failed" && status != "abandoned")
        throw DomainError(codes::invalid_status_transition,
                          "Only a failed or abandoned delivery is delivered again; this one is " + status + ".")
            .at("/id")
            .with("status", status);
    auto w = call.db.prepare("SELECT active, deleted_at IS NULL FROM webhooks WHERE id = ?");
    w->bind(1, delivery["webhookId"].get<std::string>());
    if (!w->executeStep() || w->getColumn(0).getInt() != 1 || w->getColumn(1).getInt() != 1)
        throw DomainError(codes::webhook_inactive, "The webhook of this delivery is paused or deleted; resume it first.")
            .at("/id");
    w->reset();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?1, lease_owner = NULL, lease_until = NULL, "
        "updated_at = ?1 WHERE id = ?2");
    bind_parameters(*q, now, id);
    q->exec();
    return require_delivery(call.db, syndicate, id);
}

}  // namespace

void register_webhook_tools(ToolTable& table) {
    table.bind("create_webhook", create_webhook);
    table.bind("update_webhook", update_webhook);
    table.bind("delete_webhook", delete_webhook);
    table.bind("list_webhooks", list_webhooks);
    table.bind("list_webhook_deliveries", list_webhook_deliveries);
    table.bind("redeliver_webhook_delivery", redeliver_webhook_delivery);
}

}  // namespace syndic
