// base64url without padding (RFC 4648 section 5), as JWTs, JWKs and PKCE write bytes. Decoding is
// strict: the alphabet only, no padding, no white space, and the unused low bits of the last
// character zero, so each byte string has exactly one text and a changed character always
// changes the bytes.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace syndic {

std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace syndic
