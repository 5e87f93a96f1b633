// The SMTP settings of a process that sends the outbox (deliver, http, serve): from the command line
// or the environment, never through a tool, so no password passes through an assistant.
#pragma once
#include <optional>
#include <string>

#include "delivery/net_transfer.hpp"

namespace CLI {
class App;
}

namespace syndic::cli {

class SmtpOptions {
public:
    // `with_interval`: also --delivery-interval (serve and http, which send while they serve).
    void add_to(CLI::App& command, bool with_interval = false);
    int interval_seconds() const { return interval_seconds_; }
    // The settings given, nullopt when no SMTP URL was; throws std::runtime_error for a URL that
    // is not smtp:// or smtps://, a missing sender, or a password file that cannot be read.
    std::optional<SmtpSettings> settings() const;

private:
    std::string url_, user_, password_file_, from_, tls_ = "auto";
    int interval_seconds_ = 30;
};

// Whether a URL's host is this machine (localhost, 127.0.0.0/8, ::1).
bool loopback_host(const std::string& url);

}  // namespace syndic::cli
