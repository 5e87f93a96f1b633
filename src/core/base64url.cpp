#include "core/base64url.hpp"

namespace syndic {
namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int value_of(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    unsigned held = 0;
    int bits = 0;
    for (unsigned char byte : bytes) {
        held = ((held << 8) | byte) & 0xffff;  // at most 12 bits are still waiting
        bits += 8;
        while (bits >= 6) out += alphabet[(held >> (bits -= 6)) & 0x3f];
    }
    if (bits > 0) out += alphabet[(held << (6 - bits)) & 0x3f];
    return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    if (text.size() % 4 == 1) return std::nullopt;  // 6 bits cannot end a byte
    std::string out;
    out.reserve(text.size() * 3 / 4);
    unsigned held = 0;
    int bits = 0;
    for (char c : text) {
        const int v = value_of(c);
        if (v < 0) return std::nullopt;
        held = ((held << 6) | static_cast<unsigned>(v)) & 0xfff;
        bits += 6;
        if (bits >= 8) out += static_cast<char>((held >> (bits -= 8)) & 0xff);
    }
    // What is left over (2 or 4 bits) pads the last character and must be zero.
    if ((held & ((1u << bits) - 1)) != 0) return std::nullopt;
    return out;
}

}  // namespace syndic
