// Where a webhook may post (catalogue section 4.2, SSRF): https, or plain http to this machine only;
// every address its host resolves to must be public. This machine (127/8, ::1, 0.0.0.0, ::) only
// with --allow-loopback-webhooks; private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7,
// fec0::/10, 64:ff9b:1::/48), link-local (169.254/16, fe80::/10), multicast, documentation and
// reserved addresses only with --allow-private-webhooks; the cloud metadata addresses
// (169.254.169.254, fd00:ec2::254) never. An IPv6 address that carries an IPv4 one (mapped,
// compatible, SIIT, NAT64 64:ff9b::/96, 6to4, Teredo) is classed as that IPv4 address (issue 28,
// point 6). Checked when a webhook is saved and again before each delivery, which connects to the
// address checked (no second lookup).
#pragma once
#include <optional>
#include <string>

namespace syndic {

// The process-wide --allow-private-webhooks and --allow-loopback-webhooks (set once at start by
// serve, http and deliver: app/webhook_options.hpp).
void allow_private_webhooks(bool allowed);
bool private_webhooks_allowed();
void allow_loopback_webhooks(bool allowed);
bool loopback_webhooks_allowed();

// Allows this machine while it lives, then puts back what was set: for the program's own seed
// data (the demo's paused receiver, the tests' seeds), saved and never posted to without the
// operator's opt-in. Not for a process that serves: the permission is process-wide.
class LoopbackWebhooksWhileSeeding {
public:
    LoopbackWebhooksWhileSeeding() : before_(loopback_webhooks_allowed()) { allow_loopback_webhooks(true); }
    ~LoopbackWebhooksWhileSeeding() { allow_loopback_webhooks(before_); }
    LoopbackWebhooksWhileSeeding(const LoopbackWebhooksWhileSeeding&) = delete;
    LoopbackWebhooksWhileSeeding& operator=(const LoopbackWebhooksWhileSeeding&) = delete;

private:
    bool before_;
};

// How an address is classed: what the check refuses and why.
enum class AddressKind { public_address, loopback, private_address, metadata };
// `bytes`: 4 for IPv4, 16 for IPv6, in network order.
AddressKind classify_v4(const unsigned char* bytes);
AddressKind classify_v6(const unsigned char* bytes);

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
