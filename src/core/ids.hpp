// Identifiers and secrets: time-ordered UUIDs for the registers' records, random UUIDs for the
// identities of access (users, keys, clients, token ids), API keys (sk_ + base62), opaque tokens
// (base64url), the SHA-256 under which a secret is stored, and constant-time comparison. Uses
// the OS's cryptographic randomness; knows no storage.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace syndic {

std::string new_uuid();                    // RFC 9562 version 4 (122 random bits), lower case
// RFC 9562 version 7, lower case: Unix milliseconds, then the millisecond's fraction, then 62
// random bits; each id greater than the one before in this process. A new row's key lands at the
// right end of its table's and indexes' B-trees, not on a random leaf. Its first 12 hex digits
// tell when it was made: never for what must not be guessed or dated (tokens, keys, accounts).
std::string new_record_id();
std::string new_api_key();                 // "sk_" + 43 base62 characters (256 random bits)
std::string sha256_hex(std::string_view);  // lower-case hex digest
std::string sha256_base64url(std::string_view);  // the digest in base64url without padding (PKCE S256)
std::optional<std::string> base64_decode(std::string_view text);  // standard alphabet, padded (HTTP Basic)
std::string base64_encode(std::string_view bytes);  // standard alphabet, padded, one line (MIME parts, contentBase64)
std::string new_token(std::size_t bytes = 32);   // random bytes as base64url: codes, refresh tokens
bool same_secret(std::string_view a, std::string_view b);  // constant-time for equal lengths

}  // namespace syndic
