#include "delivery/webhook_address.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace syndic {
namespace {

std::atomic<bool> private_allowed{false}, loopback_allowed{false};

bool zeros(const unsigned char* a, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (a[i] != 0) return false;
    return true;
}

AddressKind worst(AddressKind a, AddressKind b) { return std::max(a, b); }

AddressKind classify(const sockaddr* address) {
    if (address->sa_family == AF_INET)
        return classify_v4(reinterpret_cast<const unsigned char*>(&reinterpret_cast<const sockaddr_in*>(address)->sin_addr));
    return classify_v6(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr.s6_addr);
}

std::string text_of(const sockaddr* address) {
    char buffer[INET6_ADDRSTRLEN] = {0};
    if (address->sa_family == AF_INET)
        inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(address)->sin_addr, buffer, sizeof buffer);
    else
        inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr, buffer, sizeof buffer);
    return buffer;
}

bool loopback_name(const std::string& host) {
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace

void allow_private_webhooks(bool allowed) { private_allowed = allowed; }
bool private_webhooks_allowed() { return private_allowed; }
void allow_loopback_webhooks(bool allowed) { loopback_allowed = allowed; }
bool loopback_webhooks_allowed() { return loopback_allowed; }

AddressKind classify_v4(const unsigned char* a) {
    // 0.0.0.0 reaches this machine on Linux; the rest of 0/8 is no destination.
    if (a[0] == 127 || a[0] == 0) return AddressKind::loopback;
    if (a[0] == 169 && a[1] == 254 && a[2] == 169 && a[3] == 254) return AddressKind::metadata;
    const bool documentation = (a[0] == 192 && a[1] == 0 && a[2] == 2) || (a[0] == 198 && a[1] == 51 && a[2] == 100) ||
                               (a[0] == 203 && a[1] == 0 && a[2] == 113);
    if (a[0] == 10 || (a[0] == 100 && (a[1] & 0xC0) == 64) || (a[0] == 169 && a[1] == 254) || (a[0] == 172 && (a[1] & 0xF0) == 16) ||
        (a[0] == 192 && a[1] == 168) || (a[0] == 192 && a[1] == 0 && a[2] == 0) || (a[0] == 192 && a[1] == 88 && a[2] == 99) ||
        (a[0] == 198 && (a[1] & 0xFE) == 18) || documentation || a[0] >= 224)
        return AddressKind::private_address;
    return AddressKind::public_address;
}

AddressKind classify_v6(const unsigned char* a) {
    static const unsigned char metadata[16] = {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
    if (zeros(a, 15) && (a[15] == 1 || a[15] == 0)) return AddressKind::loopback;  // ::1, and :: (this machine too)
    if (std::memcmp(a, metadata, 16) == 0) return AddressKind::metadata;
    // The forms that carry an IPv4 address are classed as that address.
    if (zeros(a, 10) && a[10] == 0xff && a[11] == 0xff) return classify_v4(a + 12);               // mapped ::ffff:0:0/96
    if (zeros(a, 8) && a[8] == 0xff && a[9] == 0xff && zeros(a + 10, 2)) return classify_v4(a + 12);  // SIIT ::ffff:0:0:0/96
    if (zeros(a, 12)) return classify_v4(a + 12);                                                   // compatible ::/96
    if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b) {
        if (zeros(a + 4, 8)) return classify_v4(a + 12);  // NAT64, well-known prefix 64:ff9b::/96 (RFC 6052)
        if (a[4] == 0 && a[5] == 1) return AddressKind::private_address;  // 64:ff9b:1::/48, local translators (RFC 8215)
    }
    if (a[0] == 0x20 && a[1] == 0x02) return classify_v4(a + 2);  // 6to4 2002::/16
    if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00) {  // Teredo 2001::/32: its server and client
        const unsigned char client[4] = {static_cast<unsigned char>(a[12] ^ 0xff), static_cast<unsigned char>(a[13] ^ 0xff),
                                         static_cast<unsigned char>(a[14] ^ 0xff), static_cast<unsigned char>(a[15] ^ 0xff)};
        return worst(classify_v4(a + 4), classify_v4(client));
    }
    const bool documentation = a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8;  // 2001:db8::/32
    const bool discard = a[0] == 0x01 && a[1] == 0x00 && zeros(a + 2, 6);                     // 100::/64
    // Unique local fc00::/7, link-local fe80::/10 and site-local fec0::/10 (fe80-feff), multicast.
    if ((a[0] & 0xFE) == 0xFC || (a[0] == 0xFE && (a[1] & 0x80) == 0x80) || a[0] == 0xFF || documentation || discard)
        return AddressKind::private_address;
    return AddressKind::public_address;
}

WebhookAddress check_webhook_url(const std::string& url) {
    auto refuse = [](std::string why) { return WebhookAddress{std::nullopt, std::move(why)}; };
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string::npos) return refuse("'" + url + "' is not an absolute URL (https://...).");
    const auto scheme = url.substr(0, scheme_end);
    if (scheme != "https" && scheme != "http") return refuse("A webhook URL is https:// (or http:// to this machine), not " + scheme + "://.");
    const auto rest = url.substr(scheme_end + 3);
    const auto authority = rest.substr(0, rest.find_first_of("/?#"));
    if (authority.empty()) return refuse("The URL has no host.");
    if (authority.find('@') != std::string::npos) return refuse("A webhook URL may not carry a user name or password.");
    std::string host, port;
    if (authority[0] == '[') {
        const auto close = authority.find(']');
        if (close == std::string::npos) return refuse("The URL's IPv6 host has no closing bracket.");
        host = authority.substr(1, close - 1);
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':') return refuse("The URL's host is malformed.");
            port = authority.substr(close + 2);
        }
    } else {
        const auto colon = authority.rfind(':');
        host = authority.substr(0, colon);
        if (colon != std::string::npos) port = authority.substr(colon + 1);
    }
    if (host.empty()) return refuse("The URL has no host.");
    if (port.empty()) port = scheme == "https" ? "443" : "80";
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) < 1 ||
        std::stoi(port) > 65535)
        return refuse("The URL's port '" + port + "' is not a port number.");
    if (scheme == "http" && !loopback_name(host))
        return refuse("Plain http:// is only for a receiver on this machine (localhost); use https://.");

    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0)
        return refuse("The host " + host + " cannot be resolved (" + gai_strerror(rc) + ").");
    WebhookAddress out;
    for (auto* a = found; a; a = a->ai_next) {
        if (a->ai_family != AF_INET && a->ai_family != AF_INET6) continue;
        // The address itself is not named: a syndicate's admin would learn from it how this
        // server's resolver sees names inside its network.
        const auto kind = classify(a->ai_addr);
        const auto text = text_of(a->ai_addr);
        if (kind == AddressKind::metadata) {
            out = refuse("The host " + host + " resolves to a cloud metadata address: never a webhook.");
            break;
        }
        if (kind == AddressKind::private_address && !private_allowed) {
            out = refuse("The host " + host +
                         " resolves to a private, link-local or reserved address; a server started with "
                         "--allow-private-webhooks accepts it.");
            break;
        }
        if (kind == AddressKind::loopback && !loopback_allowed) {
            out = refuse("The host " + host +
                         " resolves to this machine; only a server started with --allow-loopback-webhooks (for "
                         "development) accepts it.");
            break;
        }
        if (!out.target)
            out.target = WebhookTarget{host, port, host + ":" + port + ":" + (a->ai_family == AF_INET6 ? "[" + text + "]" : text)};
    }
    freeaddrinfo(found);
    if (!out.target && out.refusal.empty()) return refuse("The host " + host + " has no IPv4 or IPv6 address.");
    if (!out.refusal.empty()) out.target.reset();
    return out;
}

}  // namespace syndic
