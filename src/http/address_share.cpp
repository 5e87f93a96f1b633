// The share key of a client address (address_share.hpp).
#include "http/address_share.hpp"

#include <arpa/inet.h>

#include <array>
#include <cstdio>

namespace syndic::http {

namespace {

bool is_v4_mapped(const std::array<unsigned char, 16>& bytes) {
    static constexpr std::array<unsigned char, 12> mapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    for (std::size_t i = 0; i < mapped.size(); ++i)
        if (bytes[i] != mapped[i]) return false;
    return true;
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

}  // namespace syndic::http
