// The key under which the bridge counts a client's connections (issue 28, point 1): an IPv4
// address is one client, an IPv6 one is counted by its /64 (what one host or one site is given,
// RFC 6177), an IPv4-mapped IPv6 address as its IPv4. Knows addresses as text, nothing of sockets.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace syndic::http {

// "203.0.113.7" for 203.0.113.7 and ::ffff:203.0.113.7; "2001:db8:1:2::/64" for any address of
// 2001:db8:1:2::/64; what is neither (empty, a name) as given.
std::string address_share_key(std::string_view numeric_address);

// A numeric address as the server names a peer ("::FFFF:10.0.0.1" as "10.0.0.1", "2001:DB8::0:1" as
// "2001:db8::1"); nothing for what is not one (a name, a range).
std::optional<std::string> canonical_address(std::string_view text);

}  // namespace syndic::http
