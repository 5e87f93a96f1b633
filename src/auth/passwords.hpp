// The passwords of the people who sign in (docs/oauth.md): the rules a new one must meet, argon2id
// hashes through libargon2 in the PHC string form ("$argon2id$v=19$m=19456,t=2,p=1$salt$hash"),
// and their verification. Knows no storage.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace syndic {

// OWASP's argon2id setting for an interactive sign-in: 19 MiB of memory, 2 passes, 1 lane (one
// thread, so a 2-core server signs two people in at once). About 30 ms a hash on such a server.
inline constexpr std::uint32_t argon2_memory_kib = 19456;
inline constexpr std::uint32_t argon2_passes = 2;
inline constexpr std::uint32_t argon2_lanes = 1;
inline constexpr std::size_t argon2_salt_bytes = 16;
inline constexpr std::size_t argon2_hash_bytes = 32;

inline constexpr std::size_t password_min_characters = 10;  // Unicode characters, not bytes
inline constexpr std::size_t password_max_bytes = 256;      // UTF-8 bytes

// Throws VALIDATION_FAILED (at /password, with a sentence a person can act on) for a password
// shorter than 10 characters or longer than 256 bytes.
void check_password_rules(std::string_view password);

// The PHC string of a new argon2id hash with a fresh random salt; checks the rules first.
std::string hash_password(std::string_view password);

// True when the password is the one `encoded` was made from. False for a wrong password, a
// password over 256 bytes (never hashed, so never right) and any hash that is not an argon2id
// PHC string of version 19 with sane parameters (memory at most 256 MiB, at most 16 passes and 8
// lanes), so a damaged row cannot make a sign-in allocate gigabytes.
bool verify_password(std::string_view encoded, std::string_view password);

// A hash, with the current parameters, of a password nobody knows: what a sign-in with an unknown
// e-mail verifies against, so it takes as long as one with a known e-mail.
const std::string& dummy_password_hash();

}  // namespace syndic
