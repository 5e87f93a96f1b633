#include "delivery/mail_queue.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/ids.hpp"
#include "delivery/claims.hpp"
#include "events/event_log.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic {
namespace {

struct DueMessage {
    std::string id, syndicate_id, recipient, subject, body;
    int attempts = 0;
    std::string attachments;  // JSON array of document ids
};

// Claims the next due message for `worker` until `until`, alone: a message another process holds
// under an unexpired claim is not due. `skipped`: a JSON array of syndicate ids whose messages are
// left alone (no sender for them). nullopt when nothing is due.
std::optional<DueMessage> claim_message(Database& db, const std::string& now, const std::string& until,
                                        const std::string& worker, const std::string& skipped) {
    std::optional<DueMessage> out;
    WriteTransaction tx(db);
    auto q = db.prepare(
        "UPDATE outbox SET lease_owner = ?1, lease_until = ?2 WHERE id IN ("
        "SELECT id FROM outbox WHERE status = 'queued' AND channel = 'email' "
        "AND (next_attempt_at IS NULL OR next_attempt_at <= ?3) AND (lease_until IS NULL OR lease_until <= ?3) "
        "AND syndicate_id NOT IN (SELECT value FROM json_each(?5)) "
        "ORDER BY created_at, id LIMIT ?4) "
        "RETURNING id, syndicate_id, recipient, subject, body, attempts, attachments");
    bind_parameters(*q, worker, until, now, 1, skipped);
    if (q->executeStep())
        out = DueMessage{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                       q->getColumn(3).getString(), q->getColumn(4).getString(), q->getColumn(5).getInt(),
                       q->getColumn(6).getString()};
    q->reset();
    tx.commit();
    return out;
}

// The files of the message's attachments (documents of its syndicate), read whole; why not when one
// is missing (its record, or its file on this machine), "" when all were read.
std::string attached_files(Database& db, const DueMessage& m, std::vector<MailAttachment>& files) {
    for (const auto& id : nlohmann::json::parse(m.attachments)) {
        auto q = db.prepare("SELECT path, file_name, mime_type FROM documents WHERE id = ? AND syndicate_id = ?");
        q->bind(1, id.get<std::string>());
        q->bind(2, m.syndicate_id);
        if (!q->executeStep()) return "the attached document " + id.get<std::string>() + " does not exist";
        const std::string path = q->getColumn(0).getString();
        std::ifstream in(path, std::ios::binary);
        if (!in) return "the file of the attached document " + id.get<std::string>() + " is missing (" + path + ")";
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::string name = q->getColumn(1).getString();
        if (name.empty()) name = std::filesystem::path(path).filename().string();
        files.push_back({std::move(name), q->getColumn(2).getString(), std::move(bytes)});
    }
    return "";
}

const AuditActor delivery_actor{"system", "syndic-mcp", ""};

// Writes what the attempt gave, if this worker still holds the message's claim; the event
// message.sent or message.failed goes with it.
void record(Database& db, const Clock& clock, const DueMessage& m, const std::string& worker, const TransferResult& r,
            MailRun& run) {
    const auto now = clock.now();
    const auto now_text = to_utc_iso(now);
    const int attempts = m.attempts + 1;
    std::string status = "queued";
    std::optional<std::string> next;
    if (r.ok) status = "sent";
    else if (r.permanent || attempts >= mail_attempts) status = "failed";
    else next = to_utc_iso(now + mail_retry_delay(attempts));

    WriteTransaction tx(db);
    auto q = db.prepare(
        "UPDATE outbox SET status = ?1, attempts = ?2, error = ?3, sent_at = ?4, next_attempt_at = ?5, "
        "lease_owner = NULL, lease_until = NULL, updated_at = ?6 WHERE id = ?7 AND lease_owner = ?8 "
        "RETURNING json_object('id', id, 'status', status, 'recipient', recipient, 'coOwnerId', co_owner_id, "
        "'subject', subject, 'attempts', attempts, 'error', error, 'relatedType', related_type, 'relatedId', related_id)");
    q->bind(1, status);
    q->bind(2, attempts);
    if (r.ok) q->bind(3);
    else q->bind(3, r.answer);
    if (r.ok) q->bind(4, now_text);
    else q->bind(4);
    if (next) q->bind(5, *next);
    else q->bind(5);
    q->bind(6, now_text);
    q->bind(7, m.id);
    q->bind(8, worker);
    if (!q->executeStep()) return;  // the claim ran out and another process took the message
    const std::string data = q->getColumn(0).getString();
    q->reset();
    if (status != "queued") {
        const AuditContext context{m.syndicate_id, delivery_actor, "deliver", now_text};
        append_event(db, context, m.syndicate_id, status == "sent" ? "message.sent" : "message.failed", "outbox", m.id, data);
    }
    tx.commit();
    if (status == "sent") ++run.sent;
    else if (status == "failed") ++run.failed;
    else ++run.retrying;
}

}  // namespace

std::chrono::minutes mail_retry_delay(int failures_so_far) {
    static constexpr std::array<int, 4> delays{1, 5, 30, 120};
    const auto i = static_cast<std::size_t>(std::clamp(failures_so_far, 1, 4) - 1);
    return std::chrono::minutes(delays[i]);
}

MailRun deliver_mail(Database& db, const Clock& clock, const SmtpSettings& smtp, const std::string& worker,
                     const MailSender& sender) {
    MailRun run;
    // Each syndicate's own sender (its setting mailFrom), else the server's --smtp-from; nullopt
    // when neither says who the mail is from.
    std::map<std::string, std::optional<std::string>> senders;
    const auto sender_of = [&](const std::string& syndicate_id) -> const std::optional<std::string>& {
        auto it = senders.find(syndicate_id);
        if (it == senders.end()) {
            const auto own = get_setting(db, syndicate_id, "mailFrom");
            std::optional<std::string> from;
            if (own.is_string() && !own.get<std::string>().empty()) from = own.get<std::string>();
            else if (!smtp.from.empty()) from = smtp.from;
            it = senders.emplace(syndicate_id, from).first;
        }
        return it->second;
    };
    // A message is claimed alone, for its transfer's time limit and a margin, and the claim renewed
    // just before the transfer: whatever the server's speed, it is sent only under a valid claim.
    const auto hold = std::chrono::seconds(smtp.timeout_seconds) + claim_margin;
    nlohmann::json unsendable = nlohmann::json::array();  // syndicates whose mail has no sender: not claimed again
    try {
        for (;;) {
            const auto claimed_at = clock.now();
            const auto m = claim_message(db, to_utc_iso(claimed_at), to_utc_iso(claimed_at + hold), worker,
                                         unsendable.dump());
            if (!m) break;
            const auto& from = sender_of(m->syndicate_id);
            if (!from) {
                {  // all its queued mail waits for a sender, not this message alone
                    auto count = db.prepare(
                        "SELECT count(*) FROM outbox WHERE syndicate_id = ?1 AND status = 'queued' AND channel = 'email'");
                    bind_parameters(*count, m->syndicate_id);
                    run.without_sender[m->syndicate_id] = count->executeStep() ? count->getColumn(0).getInt() : 1;
                }
                unsendable.push_back(m->syndicate_id);
                release_claims(db, ClaimTable::outbox, worker);  // it stays queued, due at once
                continue;
            }
            std::vector<MailAttachment> files;
            if (const auto missing = attached_files(db, *m, files); !missing.empty()) {
                record(db, clock, *m, worker, {false, 0, missing, true}, run);  // it will not come back
                continue;
            }
            const auto text = compose_mail(*from, m->recipient, m->subject, m->body, m->id, clock.now(), files);
            const auto now = clock.now();
            if (!renew_claim(db, ClaimTable::outbox, m->id, worker, now, now + hold)) {
                ++run.lost;  // held too long before its transfer (a slow disk...): another process may send it
                continue;
            }
            // The envelope sender is the server's --smtp-from (the address its SMTP account may
            // send from) when given, else the syndicate's own.
            record(db, clock, *m, worker, sender(smtp.from.empty() ? *from : smtp.from, m->recipient, text), run);
        }
    } catch (const std::exception& e) {
        int released = 0;
        try {
            released = release_claims(db, ClaimTable::outbox, worker);
        } catch (const std::exception&) {  // the claims then run out by themselves
        }
        throw std::runtime_error(std::string(e.what()) + " (" + std::to_string(run.sent) + " e-mail(s) sent before it; " +
                                 std::to_string(released) + " claimed and not sent, given back: due again at once)");
    }
    return run;
}

}  // namespace syndic
