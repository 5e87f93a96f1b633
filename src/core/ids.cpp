#include "core/ids.hpp"

#include "core/base64url.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <ctime>
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

std::string uuid_text(const std::array<unsigned char, 16>& b) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(36);
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        out += hex[b[i] >> 4];
        out += hex[b[i] & 0xf];
    }
    return out;
}

// The 60 bits of a version 7 id before its version: Unix milliseconds (48 bits) and the
// millisecond's fraction in 4,096 steps (12 bits), RFC 9562 6.2 method 3. Never the same twice and
// never smaller in one process: a value at or below the last one given is the last one plus one
// (when calls outrun the clock, the fraction runs ahead of it, and at worst the milliseconds).
std::uint64_t next_time_stamp() {
    static std::atomic<std::uint64_t> last{0};
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    const auto ms = static_cast<std::uint64_t>(now.tv_sec) * 1000 + static_cast<std::uint64_t>(now.tv_nsec) / 1000000;
    const auto fraction = static_cast<std::uint64_t>(now.tv_nsec % 1000000) * 4096 / 1000000;
    const std::uint64_t wanted = (ms & 0xffffffffffffULL) << 12 | fraction;
    std::uint64_t previous = last.load(std::memory_order_relaxed);
    for (;;) {
        const std::uint64_t value = wanted > previous ? wanted : previous + 1;
        if (last.compare_exchange_weak(previous, value, std::memory_order_relaxed)) return value;
    }
}

}  // namespace

std::string new_uuid() {
    auto b = random_bytes<16>();
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    return uuid_text(b);
}

std::string new_record_id() {
    std::array<unsigned char, 16> b{};
    const auto random = random_bytes<8>();  // the last 64 bits, 62 of them kept beside the variant
    std::copy(random.begin(), random.end(), b.begin() + 8);
    const std::uint64_t stamp = next_time_stamp();
    const std::uint64_t ms = stamp >> 12;
    for (int i = 0; i < 6; ++i) b[static_cast<std::size_t>(i)] = static_cast<unsigned char>(ms >> (40 - 8 * i));
    b[6] = static_cast<unsigned char>(0x70 | ((stamp >> 8) & 0x0f));
    b[7] = static_cast<unsigned char>(stamp & 0xff);
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
    return uuid_text(b);
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

std::string base64_encode(std::string_view bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3), '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
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
