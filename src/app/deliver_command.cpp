#include "app/deliver_command.hpp"

#include <signal.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include "delivery/delivery_worker.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::cli {
namespace {

volatile std::sig_atomic_t stop_requested = 0;

void request_stop(int) { stop_requested = 1; }

int queued_mail(Database& db) {
    auto q = db.prepare("SELECT count(*) FROM outbox WHERE status = 'queued'");
    q->executeStep();
    return q->getColumn(0).getInt();
}

// Why queued e-mail was not sent in this pass: held under another process's claim (until when), or
// waiting for its next attempt after a failure (from when, with the last answer); "" when neither.
std::string why_still_queued(Database& db, const Clock& clock) {
    auto q = db.prepare(
        "SELECT count(*) FILTER (WHERE lease_until > ?1), max(lease_until) FILTER (WHERE lease_until > ?1), "
        "count(*) FILTER (WHERE (lease_until IS NULL OR lease_until <= ?1) AND next_attempt_at > ?1), "
        "min(next_attempt_at) FILTER (WHERE (lease_until IS NULL OR lease_until <= ?1) AND next_attempt_at > ?1), "
        "(SELECT error FROM outbox WHERE status = 'queued' AND channel = 'email' AND next_attempt_at > ?1 "
        "AND error IS NOT NULL ORDER BY updated_at DESC LIMIT 1) "
        "FROM outbox WHERE status = 'queued' AND channel = 'email'");
    bind_parameters(*q, to_utc_iso(clock.now()));
    q->executeStep();
    const auto shown = [&](int column) {
        const auto text = q->getColumn(column).getString();
        const auto at = parse_iso_instant(text);
        return at ? to_montreal_iso(*at) : text;
    };
    std::string why;
    if (const int held = q->getColumn(0).getInt())
        why += std::to_string(held) + " claimed by another delivery process (or an attempt that stopped) until " + shown(1);
    if (const int waiting = q->getColumn(2).getInt()) {
        why += (why.empty() ? "" : "; ") + std::to_string(waiting) + " waiting to be retried from " + shown(3);
        if (!q->getColumn(4).isNull()) why += " (last answer: " + q->getColumn(4).getString() + ")";
    }
    return why;
}

// The messages no sender was known for, per syndicate, with what to do.
void report_without_sender(Database& db, const MailRun& mail) {
    for (const auto& [syndicate, count] : mail.without_sender) {
        auto q = db.prepare("SELECT name FROM syndicates WHERE id = ?1");
        bind_parameters(*q, syndicate);
        const std::string name = q->executeStep() ? q->getColumn(0).getString() : syndicate;
        std::cout << "mail: " << count << " not sent for " << name << " (" << syndicate
                  << "): nothing says who its mail is from; set its sender with `syndic-mcp settings --syndicate "
                  << syndicate << " mailFrom 'Name <address>'`, or give --smtp-from" << std::endl;
    }
}

void report(Database& db, const Clock& clock, const DeliveryRun& run) {
    if (const auto& w = run.webhooks)
        std::cout << "webhooks: " << w->succeeded << " delivered, " << w->retrying << " to retry, " << w->abandoned
                  << " abandoned" << (w->paused ? ", " + std::to_string(w->paused) + " webhook(s) paused" : "") << std::endl;
    if (run.mail) {
        std::cout << "mail: " << run.mail->sent << " sent, " << run.mail->retrying << " to retry, " << run.mail->failed
                  << " failed; " << queued_mail(db) << " still queued";
        if (const auto why = why_still_queued(db, clock); !why.empty()) std::cout << ": " << why;
        std::cout << std::endl;
        report_without_sender(db, *run.mail);
    } else {
        std::cout << "mail: nothing sent (no --smtp-url); " << queued_mail(db) << " queued" << std::endl;
    }
}

}  // namespace

void DeliverCommand::add_to(CLI::App& app) {
    command = app.add_subcommand(
        "deliver", "Send what is due: the webhooks' events, and the queued e-mail (notices, minutes...) over SMTP; each "
                   "claimed so that several processes never send it twice; a failed e-mail is retried after 1, 5, 30 "
                   "and 120 minutes, then marked failed with the server's answer");
    command->add_flag("--once", once, "one pass, then exit 0 (for cron)");
    command->add_option("--interval", interval_seconds, "seconds between passes when not --once")
        ->capture_default_str()
        ->check(CLI::Range(1, 86400));
    smtp.add_to(*command);
    webhooks.add_to(*command);
}

int DeliverCommand::run(const Common& common, const Clock& clock) {
    const auto settings = smtp.settings();
    webhooks.apply();
    auto db = open_existing(common.db_path);
    const auto worker = new_worker_name();
    if (once) {
        report(*db, clock, deliver_once(common.db_path, clock, settings, true, worker));
        return 0;
    }
    std::signal(SIGTERM, request_stop);
    std::signal(SIGINT, request_stop);
    std::cerr << "syndic-mcp: delivering every " << interval_seconds << " s; stop with Ctrl-C or SIGTERM" << std::endl;
    while (!stop_requested) {
        report(*db, clock, deliver_once(common.db_path, clock, settings, true, worker));
        for (int waited = 0; waited < interval_seconds * 10 && !stop_requested; ++waited)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return 0;
}

}  // namespace syndic::cli
