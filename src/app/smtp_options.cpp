#include "app/smtp_options.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <stdexcept>

#include "storage/file_modes.hpp"

namespace syndic::cli {

void SmtpOptions::add_to(CLI::App& command, bool with_interval) {
    command.add_option("--smtp-url", url_,
                       "send queued e-mail through this server: smtp://host:587 (STARTTLS) or smtps://host:465 (env "
                       "SYNDIC_SMTP_URL)")
        ->envname("SYNDIC_SMTP_URL");
    command.add_option("--smtp-user", user_, "SMTP user name")->envname("SYNDIC_SMTP_USER");
    command.add_option("--smtp-password-file", password_file_,
                       "read the SMTP password from the first line of this file")
        ->envname("SYNDIC_SMTP_PASSWORD_FILE");
    command.add_option("--smtp-from", from_,
                       "the sender address, e.g. 'Syndicat Les Érables <ca@example.org>', for a syndicate whose setting "
                       "mailFrom is not set (and the envelope sender of all mail); without it, each syndicate's mailFrom")
        ->envname("SYNDIC_SMTP_FROM");
    if (with_interval)
        command.add_option("--delivery-interval", interval_seconds_, "seconds between two delivery passes (the e-mail, with --smtp-url; the bridge's webhooks)")
            ->capture_default_str()
            ->check(CLI::Range(1, 3600));
    command.add_option("--smtp-tls", tls_,
                       "smtp:// only: required (refuse a server without STARTTLS), optional, or auto (required except "
                       "for a server on this machine)")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "required", "optional"}));
}

bool loopback_host(const std::string& url) {
    const auto start = url.find("://");
    if (start == std::string::npos) return false;
    auto host = url.substr(start + 3);
    host = host.substr(0, host.find('/'));
    if (const auto at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
    if (host.rfind("[", 0) == 0) return host.rfind("[::1]", 0) == 0;
    host = host.substr(0, host.find(':'));
    return host == "localhost" || host.rfind("127.", 0) == 0;
}

std::optional<SmtpSettings> SmtpOptions::settings() const {
    if (url_.empty()) return std::nullopt;
    if (url_.rfind("smtp://", 0) != 0 && url_.rfind("smtps://", 0) != 0)
        throw std::runtime_error("--smtp-url must start with smtp:// (STARTTLS) or smtps:// (TLS), not '" + url_ + "'");
    SmtpSettings s;
    s.url = url_;
    s.user = user_;
    s.from = from_;
    s.require_tls = tls_ == "required" || (tls_ == "auto" && !loopback_host(url_));
    if (!password_file_.empty()) {
        std::ifstream in(password_file_);
        std::string line;
        if (!in || !std::getline(in, line)) throw std::runtime_error("cannot read the SMTP password from " + password_file_);
        while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
        warn_file_readable_by_others(password_file_, "the SMTP password file");
        s.password = line;
    }
    return s;
}

}  // namespace syndic::cli
