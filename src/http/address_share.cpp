// The share key of a client address (address_share.hpp).
#include "http/address_share.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/text.hpp"

namespace syndic::http {

namespace {

bool is_v4_mapped(const std::array<unsigned char, 16>& bytes) {
    static constexpr std::array<unsigned char, 12> mapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    for (std::size_t i = 0; i < mapped.size(); ++i)
        if (bytes[i] != mapped[i]) return false;
    return true;
}

// One X-Forwarded-For entry as an address: "203.0.113.7", "2001:db8::1", "[2001:db8::1]" or
// "[2001:db8::1]:443"; an IPv4 address with a port ("203.0.113.7:443") too.
std::optional<std::string> forwarded_address(std::string_view entry) {
    auto text = trim(entry);
    if (!text.empty() && text.front() == '[') {
        const auto end = text.find(']');
        if (end == std::string_view::npos) return std::nullopt;
        return canonical_address(text.substr(1, end - 1));
    }
    if (const auto colon = text.find(':'); colon != std::string_view::npos && text.find(':', colon + 1) == std::string_view::npos)
        text = text.substr(0, colon);
    return canonical_address(text);
}

}  // namespace

std::optional<std::string> canonical_address(std::string_view text) {
    const std::string given(text);
    std::array<unsigned char, 16> bytes{};
    char out[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET, given.c_str(), bytes.data()) == 1) return inet_ntop(AF_INET, bytes.data(), out, sizeof out);
    if (inet_pton(AF_INET6, given.c_str(), bytes.data()) != 1) return std::nullopt;
    if (is_v4_mapped(bytes)) return inet_ntop(AF_INET, bytes.data() + 12, out, sizeof out);
    return inet_ntop(AF_INET6, bytes.data(), out, sizeof out);
}

std::string address_share_key(std::string_view numeric_address) {
    const std::string text(numeric_address);
    std::array<unsigned char, 16> bytes{};
    if (inet_pton(AF_INET, text.c_str(), bytes.data()) == 1) return text;
    if (inet_pton(AF_INET6, text.c_str(), bytes.data()) != 1) return text;
    char out[64];
    if (is_v4_mapped(bytes)) {
        std::snprintf(out, sizeof out, "%u.%u.%u.%u", bytes[12], bytes[13], bytes[14], bytes[15]);
        return out;
    }
    std::snprintf(out, sizeof out, "%x:%x:%x:%x::/64", bytes[0] << 8 | bytes[1], bytes[2] << 8 | bytes[3], bytes[4] << 8 | bytes[5],
                  bytes[6] << 8 | bytes[7]);
    return out;
}

std::string request_client(std::string_view peer, const std::vector<std::string>& forwarded_for,
                           const std::vector<std::string>& proxies) {
    const auto is_proxy = [&](const std::string& address) { return std::find(proxies.begin(), proxies.end(), address) != proxies.end(); };
    const auto canonical_peer = canonical_address(peer);
    if (!canonical_peer || !is_proxy(*canonical_peer)) return address_share_key(canonical_peer.value_or(std::string(peer)));
    std::vector<std::string_view> entries;
    for (const auto& value : forwarded_for)
        for (std::size_t start = 0; start <= value.size();) {
            const auto comma = std::min(value.find(',', start), value.size());
            entries.emplace_back(std::string_view(value).substr(start, comma - start));
            start = comma + 1;
        }
    for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
        const auto address = forwarded_address(*entry);
        if (!address) break;  // a malformed hop: what lies before it cannot be trusted
        if (!is_proxy(*address)) return address_share_key(*address);
    }
    return address_share_key(*canonical_peer);
}

}  // namespace syndic::http
