// Two threads that send what is due on one database, every `interval`, each on its own connection:
// the outbox over SMTP (with SMTP settings), and the webhooks (`webhooks`: the HTTP bridge; a stdio
// server posts none, catalogue section 6) with, for the bridge, the daily tick, reading the tools
// through the reader app/ hands in (delivery knows no module and no registry). Mail never waits
// behind a slow webhook receiver, nor webhooks behind a slow SMTP server. The HTTP bridge and a
// stdio server started with SMTP settings run one; `syndic-mcp deliver` runs the same two passes
// side by side in the foreground.
#pragma once
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "core/clock.hpp"
#include "delivery/mail_queue.hpp"
#include "delivery/net_transfer.hpp"
#include "delivery/webhook_queue.hpp"
#include "events/tick.hpp"

namespace syndic {

class Database;

struct DeliveryRun {
    std::optional<MailRun> mail;           // nullopt: no SMTP settings, nothing sent
    std::optional<WebhookRun> webhooks;    // nullopt: this process does not post webhooks
};

// One pass over what is due on the database at `db_path`, the mail and the webhooks side by side, each
// on a connection of its own; `worker` names this process in the claims. The first error of either,
// after both ended.
DeliveryRun deliver_once(const std::string& db_path, const Clock& clock, const std::optional<SmtpSettings>& smtp,
                         bool webhooks, const std::string& worker);

// "hostname/pid/random": a process's name in the leases it takes.
std::string new_worker_name();

class DeliveryWorker {
public:
    // `daily_tick`: when given, also run the daily tick (events/tick.hpp) at start and when its day
    // changes at 02:00 in Montreal, reading the tools through it (the HTTP bridge).
    DeliveryWorker(std::string db_path, std::optional<SmtpSettings> smtp, bool webhooks, std::chrono::seconds interval,
                   ToolReader daily_tick = {});
    ~DeliveryWorker();  // stops and joins
    DeliveryWorker(const DeliveryWorker&) = delete;
    DeliveryWorker& operator=(const DeliveryWorker&) = delete;

    void wake();  // run a pass now (after a call queued messages)

private:
    struct Lane {
        bool woken = false;
        std::thread thread;
    };
    void run(Lane& lane, void (DeliveryWorker::*pass)(Database&, const Clock&));
    void mail_pass(Database& db, const Clock& clock);
    void webhook_pass(Database& db, const Clock& clock);

    std::string db_path_;
    std::optional<SmtpSettings> smtp_;
    bool webhooks_;
    std::chrono::seconds interval_;
    ToolReader daily_tick_;  // empty: no tick
    std::string last_tick_day_;  // the tick_day() of the last tick this process ran
    std::string worker_ = new_worker_name();
    std::set<std::string> warned_without_sender_;  // syndicates whose mail has no sender, told once
    std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    Lane mail_, webhooks_lane_;  // threads started last, joined first
};

}  // namespace syndic
