// The key under which the bridge counts a client's connections (issue 28, point 1): an IPv4
// address is one client, an IPv6 one is counted by its /64 (what one host or one site is given,
// RFC 6177), an IPv4-mapped IPv6 address as its IPv4. Knows addresses as text, nothing of sockets.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syndic::http {

// "203.0.113.7" for 203.0.113.7 and ::ffff:203.0.113.7; "2001:db8:1:2::/64" for any address of
// 2001:db8:1:2::/64; what is neither (empty, a name) as given.
std::string address_share_key(std::string_view numeric_address);

// A numeric address as the server names a peer ("::FFFF:10.0.0.1" as "10.0.0.1", "2001:DB8::0:1" as
// "2001:db8::1"); nothing for what is not one (a name, a range).
std::optional<std::string> canonical_address(std::string_view text);

// The client a request speaks for, as the sign-in throttle, the registration limit and the
// budget of requests without a key count it (issue 28, point 5): the peer's share key; or, when
// the peer is a trusted proxy (`proxies`, canonical addresses), the share key of the last address
// in X-Forwarded-For that is not itself a trusted proxy (a proxy appends the peer it saw, so what
// comes before is only the client's claim). A proxy that passes no usable address is counted as
// itself. `forwarded_for` holds every X-Forwarded-For value in the order received.
std::string request_client(std::string_view peer, const std::vector<std::string>& forwarded_for,
                           const std::vector<std::string>& proxies);

}  // namespace syndic::http
