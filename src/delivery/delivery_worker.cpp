#include "delivery/delivery_worker.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <exception>

#include "core/ids.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

MailRun mail_pass_on(Database& db, const Clock& clock, const SmtpSettings& smtp, const std::string& worker) {
    return deliver_mail(db, clock, smtp, worker,
                        [&](const std::string& from, const std::string& recipient, const std::string& message) {
                            SmtpSettings settings = smtp;
                            settings.from = from;
                            return send_mail(settings, recipient, message);
                        });
}

WebhookRun webhook_pass_on(Database& db, const Clock& clock, const std::string& worker) {
    return deliver_webhooks(db, clock, worker, [](const HttpPost& request) { return post(request); });
}

}  // namespace

DeliveryRun deliver_once(const std::string& db_path, const Clock& clock, const std::optional<SmtpSettings>& smtp,
                         bool webhooks, const std::string& worker) {
    DeliveryRun run;
    std::exception_ptr mail_error, webhook_error;
    std::thread mail_lane;
    if (smtp)
        mail_lane = std::thread([&] {
            try {
                const auto db = Database::open(db_path);
                run.mail = mail_pass_on(*db, clock, *smtp, worker);
            } catch (...) {
                mail_error = std::current_exception();
            }
        });
    if (webhooks) try {
            const auto db = Database::open(db_path);
            run.webhooks = webhook_pass_on(*db, clock, worker);
        } catch (...) {
            webhook_error = std::current_exception();
        }
    if (mail_lane.joinable()) mail_lane.join();
    if (mail_error) std::rethrow_exception(mail_error);
    if (webhook_error) std::rethrow_exception(webhook_error);
    return run;
}

std::string new_worker_name() {
    char host[256] = {0};
    ::gethostname(host, sizeof host - 1);
    return std::string(host) + "/" + std::to_string(::getpid()) + "/" + new_token(6);
}

DeliveryWorker::DeliveryWorker(std::string db_path, std::optional<SmtpSettings> smtp, bool webhooks,
                               std::chrono::seconds interval, ToolReader daily_tick)
    : db_path_(std::move(db_path)),
      smtp_(std::move(smtp)),
      webhooks_(webhooks),
      interval_(interval),
      daily_tick_(std::move(daily_tick)) {
    if (smtp_) mail_.thread = std::thread([this] { run(mail_, &DeliveryWorker::mail_pass); });
    if (webhooks_ || daily_tick_) webhooks_lane_.thread = std::thread([this] { run(webhooks_lane_, &DeliveryWorker::webhook_pass); });
}

DeliveryWorker::~DeliveryWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (auto* lane : {&mail_, &webhooks_lane_})
        if (lane->thread.joinable()) lane->thread.join();
}

void DeliveryWorker::wake() {
    {
        std::lock_guard lock(mutex_);
        mail_.woken = webhooks_lane_.woken = true;
    }
    changed_.notify_all();
}

void DeliveryWorker::mail_pass(Database& db, const Clock& clock) {
    const auto done = mail_pass_on(db, clock, *smtp_, worker_);
    if (done.sent || done.retrying || done.failed)
        spdlog::info("delivery: {} message(s) sent, {} to retry, {} failed", done.sent, done.retrying, done.failed);
    for (const auto& [syndicate, count] : done.without_sender)
        if (warned_without_sender_.insert(syndicate).second)  // once per syndicate and process
            spdlog::warn("delivery: {} message(s) of syndicate {} left queued: it has no setting mailFrom and "
                         "this server no --smtp-from", count, syndicate);
}

void DeliveryWorker::webhook_pass(Database& db, const Clock& clock) {
    if (daily_tick_ && tick_day(clock.now()) != last_tick_day_) {
        // Its events are written before this pass delivers, so they leave with it.
        const auto day = tick_day(clock.now());
        const auto ticked = run_tick(db, clock, daily_tick_);
        last_tick_day_ = day;
        spdlog::info("tick of {}: {} derived event(s) over {} syndicate(s)", day, ticked.total(), ticked.syndicates);
    }
    if (!webhooks_) return;
    const auto w = webhook_pass_on(db, clock, worker_);
    if (w.succeeded || w.retrying || w.abandoned)
        spdlog::info("delivery: {} webhook event(s) delivered, {} to retry, {} abandoned, {} webhook(s) paused", w.succeeded,
                     w.retrying, w.abandoned, w.paused);
}

// Runs `pass` every interval, or at once when woken, until stopped; a failed pass is logged and the
// next one opens a fresh connection.
void DeliveryWorker::run(Lane& lane, void (DeliveryWorker::*pass)(Database&, const Clock&)) {
    SystemClock clock;
    std::unique_ptr<Database> db;
    for (;;) {
        try {
            if (!db) db = Database::open(db_path_);
            (this->*pass)(*db, clock);
        } catch (const std::exception& e) {
            spdlog::error("delivery: {}", e.what());
            db.reset();
        }
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, interval_, [&] { return stopping_ || lane.woken; });
        if (stopping_) return;
        lane.woken = false;
    }
}

}  // namespace syndic
