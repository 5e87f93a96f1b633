#include "auth/passwords.hpp"

#include <semaphore>

#include <argon2.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"

namespace syndic {
namespace {

// Limits on the parameters a stored hash may ask for (far above the ones in use).
constexpr std::uint32_t max_memory_kib = 256 * 1024;
constexpr std::uint32_t max_passes = 16;
constexpr std::uint32_t max_lanes = 8;

std::size_t utf8_characters(std::string_view text) {
    std::size_t n = 0;
    for (unsigned char c : text)
        if ((c & 0xC0) != 0x80) ++n;  // every byte but a continuation byte starts a character
    return n;
}

// Reads `prefix` then a decimal number of at most 9 digits at the front of `text`.
bool take_number(std::string_view& text, std::string_view prefix, std::uint32_t& value) {
    if (text.substr(0, prefix.size()) != prefix) return false;
    text.remove_prefix(prefix.size());
    std::size_t digits = 0;
    value = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
        if (digits == 9) return false;
        value = value * 10 + static_cast<std::uint32_t>(text[digits] - '0');
        ++digits;
    }
    text.remove_prefix(digits);
    return digits > 0;
}

// Reads unpadded standard base64 of at least `min_chars` characters, up to the next '$' or the end.
bool take_base64(std::string_view& text, std::size_t min_chars) {
    std::size_t n = 0;
    while (n < text.size() && text[n] != '$') {
        const char c = text[n];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'))
            return false;
        ++n;
    }
    text.remove_prefix(n);
    return n >= min_chars;
}

// "$argon2id$v=19$m=M,t=T,p=P$<salt>$<hash>" with parameters within the limits above.
bool well_formed(std::string_view encoded) {
    std::string_view rest = encoded;
    std::uint32_t version = 0, memory = 0, passes = 0, lanes = 0;
    if (rest.substr(0, 10) != "$argon2id$") return false;
    rest.remove_prefix(10);
    if (!take_number(rest, "v=", version) || version != ARGON2_VERSION_13) return false;
    if (!take_number(rest, "$m=", memory) || !take_number(rest, ",t=", passes) || !take_number(rest, ",p=", lanes))
        return false;
    if (lanes < 1 || lanes > max_lanes || passes < 1 || passes > max_passes || memory < 8 * lanes ||
        memory > max_memory_kib)
        return false;
    if (rest.substr(0, 1) != "$") return false;
    rest.remove_prefix(1);
    if (!take_base64(rest, 11)) return false;  // a salt of at least 8 bytes
    if (rest.substr(0, 1) != "$") return false;
    rest.remove_prefix(1);
    return take_base64(rest, 22) && rest.empty();  // a hash of at least 16 bytes
}

}  // namespace

void check_password_rules(std::string_view password) {
    if (password.size() > password_max_bytes)
        throw invalid_argument("/password", "is longer than 256 bytes",
                               "The password is too long: at most 256 bytes (UTF-8), it has " +
                                   std::to_string(password.size()) + ".");
    if (utf8_characters(password) < password_min_characters)
        throw invalid_argument("/password", "is shorter than 10 characters",
                               "The password is too short: at least 10 characters, it has " +
                                   std::to_string(utf8_characters(password)) + ".");
}

namespace {

// At most two argon2 computations at once (19 MiB each, one core each): a flood of sign-ins waits
// its turn instead of taking every core from the requests of people already signed in.
std::counting_semaphore<2> argon2_slots(2);

struct Argon2Slot {
    Argon2Slot() { argon2_slots.acquire(); }
    ~Argon2Slot() { argon2_slots.release(); }
};

}  // namespace

std::string hash_password(std::string_view password) {
    const Argon2Slot slot;
    check_password_rules(password);
    std::array<unsigned char, argon2_salt_bytes> salt{};
    if (RAND_bytes(salt.data(), static_cast<int>(salt.size())) != 1)
        throw std::runtime_error("the system's random source failed");
    std::vector<char> encoded(argon2_encodedlen(argon2_passes, argon2_memory_kib, argon2_lanes, salt.size(),
                                                argon2_hash_bytes, Argon2_id));
    const int rc = argon2id_hash_encoded(argon2_passes, argon2_memory_kib, argon2_lanes, password.data(), password.size(),
                                         salt.data(), salt.size(), argon2_hash_bytes, encoded.data(), encoded.size());
    if (rc != ARGON2_OK) throw std::runtime_error(std::string("argon2id hashing failed: ") + argon2_error_message(rc));
    return encoded.data();
}

bool verify_password(std::string_view encoded, std::string_view password) {
    if (password.size() > password_max_bytes || !well_formed(encoded)) return false;
    // libargon2 compares the hashes in constant time.
    const std::string text(encoded);
    const Argon2Slot slot;
    return argon2id_verify(text.c_str(), password.data(), password.size()) == ARGON2_OK;
}

const std::string& dummy_password_hash() {
    // Made once from 32 random bytes that were then thrown away.
    static const std::string hash =
        "$argon2id$v=19$m=19456,t=2,p=1$psQ6rJL/bGIbZr/gvot9OA$epWynAxB0UbDXWIY8SKUlG/PhGm6zDhkjMKnJfHFCMQ";
    return hash;
}

}  // namespace syndic
