// Delivering webhooks (catalogue section 6): each due delivery is claimed alone, just before its POST
// and for as long as the POST may last (delivery/claims.hpp), the webhook that has used the least of
// the pass's time first; POSTed with
// the event's envelope and its Syndic-Signature, and marked succeeded (2xx within 10 s), or failed
// and retried after 1 min, 5 min, 30 min, 2 h, 12 h and 24 h, then abandoned. Deliveries of one
// record to one webhook go in the events' order: one waits while an earlier one is pending or
// failed. A webhook with 50 failures in a row is paused. Knows the delivery tables; the POST
// itself is net_transfer's.
#pragma once
#include <chrono>
#include <functional>
#include <string>

#include "core/clock.hpp"
#include "delivery/net_transfer.hpp"

namespace syndic {

class Database;

struct WebhookRun {
    int succeeded = 0;
    int retrying = 0;
    int abandoned = 0;
    int paused = 0;  // webhooks paused by this pass
    int lost = 0;    // claims that ran out before the POST began: not posted by this process
};

inline constexpr int webhook_attempts = 7;  // the first and six retries
inline constexpr int webhook_pause_after = 50;
std::chrono::minutes webhook_retry_delay(int failures_so_far);

using WebhookPoster = std::function<TransferResult(const HttpPost&)>;
WebhookRun deliver_webhooks(Database& db, const Clock& clock, const std::string& worker, const WebhookPoster& poster);

}  // namespace syndic
