// Identifiers and secrets: random UUIDs for records, API keys (sk_ + base62), opaque tokens
// (session cookies and the like), and the SHA-256 under which a key or token is stored. Uses the OS's cryptographic randomness; knows no storage.
#pragma once
#include <string>
#include <string_view>

namespace syndic {

std::string new_uuid();                    // RFC 9562 version 4, lower case
std::string new_api_key();                 // "sk_" + 43 base62 characters (256 random bits)
std::string sha256_hex(std::string_view);  // lower-case hex digest
std::string new_random_token();            // 43 base64url characters (256 random bits), unpadded

}  // namespace syndic
