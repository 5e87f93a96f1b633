// Who may reach the bridge from a browser (MCP Streamable HTTP's DNS-rebinding protection): the
// Origin and Host headers checked against allow-lists made from the base URL and the listening
// address. Knows URLs and header values, not servers or credentials.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace syndic::http {

struct Url {
    std::string scheme;  // "http" or "https", lower case
    std::string host;    // lower case; an IPv6 address keeps its brackets
    int port = 0;        // the scheme's default when the URL gives none
    std::string path;    // without a trailing slash; "" for the root

    std::string origin() const;     // "http://127.0.0.1:8080" (no default port)
    std::string authority() const;  // "127.0.0.1:8080" (no default port)
};

// "http(s)://host[:port][/path]" without query or fragment; nullopt otherwise.
std::optional<Url> parse_url(std::string_view text);

class AccessPolicy {
public:
    // The base URL's origin and host name are allowed; loopback names too, and loopback origins
    // on the listening port when it listens on a loopback address; then the extras (an extra
    // host is a name, with or without a port, which is ignored).
    AccessPolicy(const Url& base, const std::string& listen_host, int listen_port,
                 const std::vector<std::string>& extra_origins, const std::vector<std::string>& extra_hosts);

    bool origin_allowed(std::string_view origin) const;
    bool host_allowed(std::string_view host_header) const;

private:
    std::set<std::string> origins_;
    std::set<std::string> hosts_;  // host names, lower case, any port
};

}  // namespace syndic::http
