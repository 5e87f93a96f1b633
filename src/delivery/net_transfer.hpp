// What delivery sends over the network: an e-mail over SMTP (STARTTLS or implicit TLS, with
// authentication) and a webhook's POST over HTTP(S). libcurl does both, in a module loaded on first
// use (syndic-net.so, src/delivery/net_module.cpp), so a process that sends nothing never maps
// libcurl and its chain. Knows the wire, not the outbox or the events.
#pragma once
#include <string>
#include <vector>

namespace syndic {

// How this process reaches its SMTP server (command line or environment, never a tool).
struct SmtpSettings {
    std::string url;       // smtp://host:port (STARTTLS) or smtps://host:port (TLS from the start)
    std::string user;      // empty: no authentication
    std::string password;
    std::string from;      // --smtp-from, "Syndicat <syndic@example.org>" or a bare address: the envelope sender
                           // (for send_mail, the message's); may be empty in the process's settings
    bool require_tls = true;  // smtp://: refuse to go on without STARTTLS (false only for a loopback server)
    long timeout_seconds = 30;
};

struct TransferResult {
    bool ok = false;
    long status = 0;      // the SMTP reply code or the HTTP status; 0 when no answer came
    std::string answer;   // the server's last reply line, or why nothing was answered
    bool permanent = false;  // SMTP 5xx: the server refuses for good; retrying will not help
};

// Sends `message` (the RFC 5322 text, CRLF line ends) to `recipient`.
TransferResult send_mail(const SmtpSettings& smtp, const std::string& recipient, const std::string& message);

struct HttpPost {
    std::string url;
    std::vector<std::string> headers;  // "Name: value"
    std::string body;
    std::string resolve;   // "host:port:address": connect to this checked address, nothing else
    long timeout_seconds = 10;
};

// POSTs and reads the status; redirects are not followed.
TransferResult post(const HttpPost& request);

}  // namespace syndic
