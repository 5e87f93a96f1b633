// Sending the outbox: each due message is claimed alone, just before it is sent, for as long as its
// transfer may last (delivery/claims.hpp: several processes on one database never send it twice,
// whatever the server's speed), sent over SMTP, and marked sent, or retried with back-off and
// finally marked failed with the server's answer. Knows the outbox table; the message's wire form
// is mail_compose's, the SMTP exchange net_transfer's.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "delivery/mail_compose.hpp"
#include "delivery/net_transfer.hpp"

namespace syndic {

class Database;

struct MailRun {
    int sent = 0;
    int retrying = 0;  // failed this time, queued again for later
    int failed = 0;    // failed for good (refused, or out of attempts)
    // Messages left queued, by syndicate id, because nothing says who they are from: the syndicate
    // has no setting mailFrom and the process no --smtp-from.
    std::map<std::string, int> without_sender;
    int lost = 0;  // claims that ran out before the transfer began: not sent by this process
};

// Delay before each retry after a failure that may pass (connection refused, 4xx): 1 min, 5 min,
// 30 min, 2 h; the fifth failure marks the message failed.
inline constexpr int mail_attempts = 5;
std::chrono::minutes mail_retry_delay(int failures_so_far);

// Sends every message that is due now, one at a time, `worker` naming this process in the leases: each from its
// syndicate's setting mailFrom, else from `smtp.from` (which may be empty: a syndicate without
// mailFrom then keeps its messages queued, counted in without_sender). `sender` is send_mail for
// real (tests give their own), given the envelope sender: `smtp.from` when set, else the message's.
using MailSender = std::function<TransferResult(const std::string& envelope_from, const std::string& recipient,
                                                const std::string& message)>;
MailRun deliver_mail(Database& db, const Clock& clock, const SmtpSettings& smtp, const std::string& worker,
                     const MailSender& sender);

}  // namespace syndic
