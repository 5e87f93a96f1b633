#include "core/ids.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <cstdio>
#include <stdexcept>

namespace syndic {
namespace {

template <std::size_t N>
std::array<unsigned char, N> random_bytes() {
    std::array<unsigned char, N> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
        throw std::runtime_error("the system's random source failed");
    return bytes;
}

}  // namespace

std::string new_uuid() {
    auto b = random_bytes<16>();
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    char out[37];
    std::snprintf(out, sizeof out,
                  "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                  b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                  b[15]);
    return out;
}

std::string new_api_key() {
    static constexpr char alphabet[] =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    // Rejection sampling keeps every character uniform: 62 * 4 = 248 values of a byte are kept.
    std::string key = "sk_";
    while (key.size() < 3 + 43) {
        for (unsigned char byte : random_bytes<64>()) {
            if (byte < 248 && key.size() < 3 + 43) key += alphabet[byte % 62];
        }
    }
    return key;
}

std::string sha256_hex(std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 0xf];
    }
    return out;
}

std::string new_random_token() {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const auto b = random_bytes<32>();
    // 32 bytes are 256 bits: 42 whole characters of 6 bits, and a 43rd from the last 4 bits.
    std::string out;
    unsigned bits = 0, held = 0;
    for (unsigned char byte : b) {
        held = ((held << 8) | byte) & 0xffff;  // at most 13 bits are still waiting
        bits += 8;
        while (bits >= 6) out += alphabet[(held >> (bits -= 6)) & 0x3f];
    }
    if (bits > 0) out += alphabet[(held << (6 - bits)) & 0x3f];
    return out;
}

}  // namespace syndic
