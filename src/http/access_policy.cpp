#include "http/access_policy.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "core/text.hpp"

namespace syndic::http {

namespace {

int default_port(const std::string& scheme) { return scheme == "https" ? 443 : 80; }

// "host", "host:port", "[::1]", "[::1]:port" → host and port (0 when absent); nullopt if malformed.
std::optional<std::pair<std::string, int>> split_authority(std::string_view authority) {
    std::string_view host = authority, port_text;
    if (!authority.empty() && authority.front() == '[') {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        host = authority.substr(0, close + 1);
        const auto rest = authority.substr(close + 1);
        if (!rest.empty()) {
            if (rest.front() != ':') return std::nullopt;
            port_text = rest.substr(1);
        }
    } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
        host = authority.substr(0, colon);
        port_text = authority.substr(colon + 1);
    }
    if (host.empty() || host.find_first_of(" /?#@") != std::string_view::npos) return std::nullopt;
    int port = 0;
    if (!port_text.empty()) {
        const auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
        if (error != std::errc() || end != port_text.data() + port_text.size() || port < 1 || port > 65535)
            return std::nullopt;
    }
    return std::pair{ascii_lower(host), port};
}

std::string join_authority(const std::string& host, int port, const std::string& scheme) {
    return port == 0 || port == default_port(scheme) ? host : host + ":" + std::to_string(port);
}

}  // namespace

std::string Url::origin() const { return scheme + "://" + authority(); }
std::string Url::authority() const { return join_authority(host, port, scheme); }

std::optional<Url> parse_url(std::string_view text) {
    const auto sep = text.find("://");
    if (sep == std::string_view::npos) return std::nullopt;
    Url url;
    url.scheme = ascii_lower(text.substr(0, sep));
    if (url.scheme != "http" && url.scheme != "https") return std::nullopt;
    auto rest = text.substr(sep + 3);
    if (rest.find_first_of("?#") != std::string_view::npos) return std::nullopt;
    const auto slash = rest.find('/');
    const auto authority = split_authority(rest.substr(0, slash));
    if (!authority) return std::nullopt;
    url.host = authority->first;
    url.port = authority->second ? authority->second : default_port(url.scheme);
    url.path = slash == std::string_view::npos ? "" : std::string(rest.substr(slash));
    while (!url.path.empty() && url.path.back() == '/') url.path.pop_back();
    return url;
}

AccessPolicy::AccessPolicy(const Url& base, const std::string& listen_host, int listen_port,
                           const std::vector<std::string>& extra_origins, const std::vector<std::string>& extra_hosts) {
    origins_.insert(base.origin());
    hosts_.insert(base.host);
    for (const char* name : {"localhost", "127.0.0.1", "[::1]"}) {
        hosts_.insert(name);
        if (is_loopback_host(listen_host)) origins_.insert("http://" + join_authority(name, listen_port, "http"));
    }
    for (const auto& origin : extra_origins) {
        const auto url = parse_url(origin);
        if (!url || !url->path.empty()) throw std::invalid_argument("'" + origin + "' is not an origin such as https://app.example.org");
        origins_.insert(url->origin());
    }
    for (const auto& host : extra_hosts) {
        const auto authority = split_authority(host);
        if (!authority) throw std::invalid_argument("'" + host + "' is not a host name (with an optional :port)");
        hosts_.insert(authority->first);
    }
}

bool AccessPolicy::origin_allowed(std::string_view origin) const {
    const auto url = parse_url(origin);
    return url && url->path.empty() && origins_.count(url->origin()) > 0;
}

bool AccessPolicy::host_allowed(std::string_view host_header) const {
    // DNS rebinding swaps the name, not the port: the name decides.
    const auto authority = split_authority(host_header);
    return authority && hosts_.count(authority->first) > 0;
}

}  // namespace syndic::http
