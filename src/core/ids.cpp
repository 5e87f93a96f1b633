#include "core/ids.hpp"

#include "core/base64url.hpp"

#include <openssl/crypto.h>
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

namespace {

std::string sha256_bytes(std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    return std::string(reinterpret_cast<const char*>(digest), length);
}

}  // namespace

std::string sha256_hex(std::string_view data) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : sha256_bytes(data)) {
        out += hex[c >> 4];
        out += hex[c & 0xf];
    }
    return out;
}

std::string sha256_base64url(std::string_view data) { return base64url_encode(sha256_bytes(data)); }

std::optional<std::string> base64_decode(std::string_view text) {
    if (text.size() % 4 != 0 || text.size() > 8192) return std::nullopt;
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0) return std::nullopt;
    std::size_t padding = 0;
    if (!text.empty() && text.back() == '=') ++padding;
    if (text.size() > 1 && text[text.size() - 2] == '=') ++padding;
    out.resize(static_cast<std::size_t>(n) - padding);
    return out;
}

std::string new_token(std::size_t bytes) {
    std::string raw(bytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(raw.size())) != 1)
        throw std::runtime_error("the system's random source failed");
    return base64url_encode(raw);
}

bool same_secret(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace syndic
