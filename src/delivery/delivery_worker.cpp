#include "delivery/delivery_worker.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <exception>

#include "core/ids.hpp"
#include "storage/database.hpp"

namespace syndic {

DeliveryRun deliver_once(Database& db, const Clock& clock, const std::optional<SmtpSettings>& smtp, bool webhooks,
                         const std::string& worker) {
    DeliveryRun run;
    if (webhooks) run.webhooks = deliver_webhooks(db, clock, worker, [](const HttpPost& request) { return post(request); });
    if (smtp)
        run.mail = deliver_mail(db, clock, *smtp, worker,
                                [&](const std::string& from, const std::string& recipient, const std::string& message) {
                                    SmtpSettings settings = *smtp;
                                    settings.from = from;
                                    return send_mail(settings, recipient, message);
                                });
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
      daily_tick_(std::move(daily_tick)),
      thread_([this] { run(); }) {}

DeliveryWorker::~DeliveryWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void DeliveryWorker::wake() {
    {
        std::lock_guard lock(mutex_);
        woken_ = true;
    }
    changed_.notify_all();
}

void DeliveryWorker::run() {
    SystemClock clock;
    std::unique_ptr<Database> db;
    for (;;) {
        try {
            if (!db) db = Database::open(db_path_);
            if (daily_tick_ && tick_day(clock.now()) != last_tick_day_) {
                // Its events are written before this pass delivers, so they leave with it.
                const auto day = tick_day(clock.now());
                const auto ticked = run_tick(*db, clock, daily_tick_);
                last_tick_day_ = day;
                spdlog::info("tick of {}: {} derived event(s) over {} syndicate(s)", day, ticked.total(), ticked.syndicates);
            }
            const auto done = deliver_once(*db, clock, smtp_, webhooks_, worker_);
            if (done.mail && (done.mail->sent || done.mail->retrying || done.mail->failed))
                spdlog::info("delivery: {} message(s) sent, {} to retry, {} failed", done.mail->sent, done.mail->retrying,
                             done.mail->failed);
            if (done.mail)
                for (const auto& [syndicate, count] : done.mail->without_sender)
                    if (warned_without_sender_.insert(syndicate).second)  // once per syndicate and process
                        spdlog::warn("delivery: {} message(s) of syndicate {} left queued: it has no setting mailFrom and "
                                 "this server no --smtp-from", count, syndicate);
            if (const auto& w = done.webhooks; w && (w->succeeded || w->retrying || w->abandoned))
                spdlog::info("delivery: {} webhook event(s) delivered, {} to retry, {} abandoned, {} webhook(s) paused",
                             w->succeeded, w->retrying, w->abandoned, w->paused);
        } catch (const std::exception& e) {
            spdlog::error("delivery: {}", e.what());
            db.reset();  // a fresh connection next time
        }
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, interval_, [&] { return stopping_ || woken_; });
        if (stopping_) return;
        woken_ = false;
    }
}

}  // namespace syndic
