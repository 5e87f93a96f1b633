#include "delivery/webhook_queue.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#include "delivery/claims.hpp"
#include "delivery/webhook_address.hpp"
#include "delivery/webhook_secrets.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

constexpr long post_time_limit = 10;  // seconds: 2xx within it is success
// A delivery is claimed alone for its POST's time limit and a margin, renewed just before the POST.
constexpr auto delivery_hold = std::chrono::seconds(post_time_limit) + claim_margin;

struct Due {
    std::string id, webhook_id, event_id, event_type, body, url;
    int attempt = 0;
    std::int64_t generation = 1;
    std::optional<std::string> previous_until;
};

// Claims the next due delivery for `worker` until `until`, alone. Of the webhooks with one due, the
// one that has used the least of this pass's time goes first (`used`: a JSON object of milliseconds
// by webhook id), so a slow receiver takes no more than its share; then the oldest event.
std::optional<Due> claim_delivery(Database& db, const std::string& now, const std::string& until, const std::string& worker,
                                  const std::string& used) {
    std::optional<Due> out;
    WriteTransaction tx(db);
    auto q = db.prepare(
        "UPDATE webhook_deliveries SET lease_owner = ?1, lease_until = ?2 WHERE id IN ("
        "SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
        "WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= ?3 "
        "AND (d.lease_until IS NULL OR d.lease_until <= ?3) AND w.active = 1 AND w.deleted_at IS NULL "
        "AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id "
        "AND e.record_key = d.record_key AND e.event_seq < d.event_seq AND e.status IN ('pending', 'failed')) "
        "ORDER BY coalesce((SELECT u.value FROM json_each(?4) u WHERE u.key = d.webhook_id), 0), d.event_seq "
        "LIMIT 1) RETURNING id");
    bind_parameters(*q, worker, until, now, used);
    std::vector<std::string> ids;
    while (q->executeStep()) ids.push_back(q->getColumn(0).getString());
    q->reset();
    for (const auto& id : ids) {
        auto d = db.prepare(
            "SELECT d.id, d.webhook_id, d.event_id, d.event_type, e.body, w.url, d.attempt, w.secret_generation, "
            "w.previous_secret_until, e.seq FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq "
            "JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?");
        d->bind(1, id);
        if (!d->executeStep()) continue;
        Due due{d->getColumn(0).getString(), d->getColumn(1).getString(), d->getColumn(2).getString(),
                d->getColumn(3).getString(), d->getColumn(4).getString(), d->getColumn(5).getString(),
                d->getColumn(6).getInt(), d->getColumn(7).getInt64(), std::nullopt};
        if (!d->getColumn(8).isNull()) due.previous_until = d->getColumn(8).getString();
        out = std::move(due);
    }
    tx.commit();
    return out;
}

// Posts the delivery, its claim renewed just before; nullopt when the claim ran out before (another
// process may post it).
std::optional<TransferResult> attempt(Database& db, const Clock& clock, const Due& due, const std::string& worker,
                                      const WebhookPoster& poster) {
    const auto address = check_webhook_url(due.url);
    if (!address.target) return TransferResult{false, 0, "refused before sending: " + address.refusal, false};
    const auto now = clock.now();
    const auto unix_time = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    std::string signature = "t=" + std::to_string(unix_time) + ",v1=" +
                            webhook_signature(webhook_secret(db, due.webhook_id, due.generation), unix_time, due.body);
    if (due.previous_until && *due.previous_until > to_utc_iso(now))  // a rotated secret signs 24 h more
        signature += ",v1=" + webhook_signature(webhook_secret(db, due.webhook_id, due.generation - 1), unix_time, due.body);
    HttpPost post{due.url,
                  {"Content-Type: application/json", "Syndic-Event-Id: " + due.event_id,
                   "Syndic-Event-Type: " + due.event_type, "Syndic-Signature: " + signature},
                  due.body,
                  address.target->resolve,
                  post_time_limit};
    const auto renewed_at = clock.now();
    if (!renew_claim(db, ClaimTable::webhook_deliveries, due.id, worker, renewed_at, renewed_at + delivery_hold))
        return std::nullopt;
    return poster(post);
}

void record(Database& db, const Clock& clock, const Due& due, const std::string& worker, const TransferResult& r,
            WebhookRun& run) {
    const auto now = clock.now();
    const auto now_text = to_utc_iso(now);
    const int attempts = due.attempt + 1;
    std::string status = r.ok ? "succeeded" : attempts >= webhook_attempts ? "abandoned" : "failed";
    WriteTransaction tx(db);
    auto q = db.prepare(
        "UPDATE webhook_deliveries SET status = ?1, attempt = ?2, response_status = ?3, error = ?4, next_attempt_at = ?5, "
        "delivered_at = ?6, lease_owner = NULL, lease_until = NULL, updated_at = ?7 WHERE id = ?8 AND lease_owner = ?9");
    q->bind(1, status);
    q->bind(2, attempts);
    if (r.status > 0) q->bind(3, static_cast<std::int64_t>(r.status));
    else q->bind(3);
    if (r.ok) q->bind(4);
    else q->bind(4, r.answer);
    q->bind(5, status == "failed" ? to_utc_iso(now + webhook_retry_delay(attempts)) : now_text);
    if (r.ok) q->bind(6, now_text);
    else q->bind(6);
    q->bind(7, now_text);
    q->bind(8, due.id);
    q->bind(9, worker);
    if (q->exec() == 0) return;  // the claim ran out and another process took it
    auto w = db.prepare(
        "UPDATE webhooks SET consecutive_failures = CASE WHEN ?1 THEN 0 ELSE consecutive_failures + 1 END, "
        "last_delivery_at = ?2, "
        "active = CASE WHEN NOT ?1 AND consecutive_failures + 1 >= ?3 THEN 0 ELSE active END, "
        "paused_at = CASE WHEN NOT ?1 AND consecutive_failures + 1 >= ?3 AND active = 1 THEN ?2 ELSE paused_at END "
        "WHERE id = ?4 RETURNING active");
    w->bind(1, r.ok ? 1 : 0);
    w->bind(2, now_text);
    w->bind(3, webhook_pause_after);
    w->bind(4, due.webhook_id);
    const bool paused = w->executeStep() && w->getColumn(0).getInt() == 0 && !r.ok;
    w->reset();
    tx.commit();
    if (r.ok) ++run.succeeded;
    else if (status == "abandoned") ++run.abandoned;
    else ++run.retrying;
    if (paused) ++run.paused;
}

}  // namespace

std::chrono::minutes webhook_retry_delay(int failures_so_far) {
    static constexpr std::array<int, 6> delays{1, 5, 30, 120, 720, 1440};
    return std::chrono::minutes(delays[static_cast<std::size_t>(std::clamp(failures_so_far, 1, 6) - 1)]);
}

WebhookRun deliver_webhooks(Database& db, const Clock& clock, const std::string& worker, const WebhookPoster& poster) {
    WebhookRun run;
    try {
        nlohmann::json used = nlohmann::json::object();  // this pass's milliseconds, by webhook
        for (;;) {
            const auto now = clock.now();
            const auto due = claim_delivery(db, to_utc_iso(now), to_utc_iso(now + delivery_hold), worker, used.dump());
            if (!due) break;
            const auto started = std::chrono::steady_clock::now();
            const auto result = attempt(db, clock, *due, worker, poster);
            const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
            used[due->webhook_id] = used.value(due->webhook_id, std::int64_t{0}) + took.count() + 1;
            if (result) record(db, clock, *due, worker, *result, run);
            else ++run.lost;
        }
    } catch (const std::exception& e) {
        int released = 0;
        try {
            released = release_claims(db, ClaimTable::webhook_deliveries, worker);
        } catch (const std::exception&) {  // the leases then run out by themselves
        }
        throw std::runtime_error(std::string(e.what()) + " (" + std::to_string(run.succeeded) +
                                 " webhook event(s) delivered before it; " + std::to_string(released) +
                                 " claimed and not posted, given back: due again at once)");
    }
    return run;
}

}  // namespace syndic
