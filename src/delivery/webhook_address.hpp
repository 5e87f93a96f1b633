// Where a webhook may post (catalogue section 4.2, SSRF): https, or plain http to this machine only;
// every address its host resolves to must be public, or loopback; private (10/8, 172.16/12,
// 192.168/16, fc00::/7, 100.64/10), link-local (169.254/16, fe80::/10), unspecified, multicast and
// reserved addresses are refused unless the server is started with --allow-private-webhooks; the
// cloud metadata addresses (169.254.169.254, fd00:ec2::254) always. Checked when a webhook is saved
// and again before each delivery, which connects to the address checked (no second lookup).
#pragma once
#include <optional>
#include <string>

namespace syndic {

// The process-wide --allow-private-webhooks (set once at start by serve, http and deliver).
void allow_private_webhooks(bool allowed);
bool private_webhooks_allowed();

struct WebhookTarget {
    std::string host, port;
    std::string resolve;  // "host:port:address", what libcurl connects to
};

struct WebhookAddress {
    std::optional<WebhookTarget> target;
    std::string refusal;  // why not, one English sentence, when there is no target
};

WebhookAddress check_webhook_url(const std::string& url);

}  // namespace syndic
