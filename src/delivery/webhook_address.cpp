#include "delivery/webhook_address.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <cstring>

namespace syndic {
namespace {

std::atomic<bool> private_allowed{false};

enum class Kind { public_address, loopback, private_address, metadata };

Kind classify_v4(const unsigned char* a) {
    if (a[0] == 127) return Kind::loopback;
    if (a[0] == 169 && a[1] == 254 && a[2] == 169 && a[3] == 254) return Kind::metadata;
    if (a[0] == 0 || a[0] == 10 || (a[0] == 100 && (a[1] & 0xC0) == 64) || (a[0] == 169 && a[1] == 254) ||
        (a[0] == 172 && (a[1] & 0xF0) == 16) || (a[0] == 192 && a[1] == 168) || (a[0] == 192 && a[1] == 0 && a[2] == 0) ||
        (a[0] == 198 && (a[1] & 0xFE) == 18) || a[0] >= 224)
        return Kind::private_address;
    return Kind::public_address;
}

Kind classify(const sockaddr* address) {
    if (address->sa_family == AF_INET)
        return classify_v4(reinterpret_cast<const unsigned char*>(&reinterpret_cast<const sockaddr_in*>(address)->sin_addr));
    const auto* a = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr.s6_addr;
    static const unsigned char loopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    static const unsigned char unspecified[16] = {0};
    static const unsigned char metadata[16] = {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(a, loopback, 16) == 0) return Kind::loopback;
    if (std::memcmp(a, metadata, 16) == 0) return Kind::metadata;
    if (std::memcmp(a, mapped, 12) == 0) return classify_v4(a + 12);
    if (std::memcmp(a, unspecified, 16) == 0 || (a[0] & 0xFE) == 0xFC || (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) ||
        a[0] == 0xFF)
        return Kind::private_address;
    return Kind::public_address;
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
        const auto kind = classify(a->ai_addr);
        const auto text = text_of(a->ai_addr);
        if (kind == Kind::metadata) {
            out = refuse("The host " + host + " resolves to " + text + ", a cloud metadata address: never a webhook.");
            break;
        }
        if (kind == Kind::private_address && !private_allowed) {
            out = refuse("The host " + host + " resolves to " + text +
                         ", a private, link-local or reserved address; a server started with --allow-private-webhooks "
                         "accepts it.");
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
