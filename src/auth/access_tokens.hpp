// The OAuth access tokens (docs/oauth.md, "Access tokens"): JWTs signed ES256 with the key kept
// beside the database (signing_key.hpp; never in it, so a backup cannot sign), verified with the
// public keys of `signing_keys` (so every process on the database verifies alike): their strict
// verification (algorithm, key, signature, issuer, audience, times, revocation), revocation by
// jti, the JWKS that publishes the public keys, and key rotation.
// Knows storage and cryptography, not HTTP.
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/clock.hpp"
#include "storage/database.hpp"

namespace syndic {

inline constexpr std::chrono::seconds access_token_lifetime{15 * 60};
// The longest lifetime sign_access_token accepts, well under the day after which a replaced key
// is retired.
inline constexpr std::chrono::seconds max_access_token_lifetime{60 * 60};
// How far exp, nbf and iat may be off the clock (clocks of several servers disagree a little).
inline constexpr std::chrono::seconds access_token_leeway{30};
// Longer tokens are refused before anything is parsed.
inline constexpr std::size_t max_access_token_size = 8 * 1024;

struct AccessTokenClaims {
    std::string issuer;        // iss: the base URL
    std::string subject;       // sub: the user id
    std::string audience;      // aud: the resource (the base URL)
    std::string scope;         // space-separated
    std::string client_id;
    std::string syndicate_id;
    std::string role;          // "admin" or "member"
    std::string jti;
    std::int64_t issued_at = 0;   // iat (and nbf), seconds since 1970
    std::int64_t expires_at = 0;  // exp
};

// Signs `claims` with the newest key that is not retired (making the first key when there is
// none); fills iat, nbf and exp from the clock and `lifetime` (more than 0, at most an hour) and
// a random jti. Header {alg: ES256, typ: JWT, kid}. Throws std::invalid_argument for claims that
// verify_access_token would refuse (an empty issuer, subject, audience, client or syndicate, a
// role other than admin or member).
std::string sign_access_token(Database& db, const Clock& clock, AccessTokenClaims claims,
                              std::chrono::seconds lifetime = access_token_lifetime);

struct TokenCheck {
    std::optional<AccessTokenClaims> claims;  // set when the token verifies
    std::string error;                        // otherwise why not: English, for logs and error_description
};

// Verifies a presented token: at most 8 KiB; header alg ES256 (nothing else: not none, not HS*,
// not RS*), typ JWT, no crit; kid of a key that is not retired; the signature; iss equal to
// `issuer`; aud equal to `audience` (or an array holding it); exp, nbf and iat with 30 s of
// leeway; jti not revoked; every claim of AccessTokenClaims present and of its type. A bad token
// never throws; only a failing database (or a broken stored key) does.
TokenCheck verify_access_token(Database& db, const Clock& clock, std::string_view token,
                               std::string_view issuer, std::string_view audience);

// Refuses the token of this jti from now until it expires (`expires_at`, its exp), and forgets
// the revoked tokens that have expired (leeway included) meanwhile.
void revoke_access_token(Database& db, const Clock& clock, const std::string& jti, std::int64_t expires_at);

// {"keys": [...]}: the public JWK of every key that is not retired, newest first (making the
// first key when there is none).
nlohmann::json jwks(Database& db, const Clock& clock);

// Adds a key, which signs from now on, and retires every key that a newer one replaced more than
// a day ago (every token it signed has expired): retired keys leave the JWKS and their tokens are
// refused.
void rotate_signing_key(Database& db, const Clock& clock);

// Adds a key, which signs from now on, and retires every other key at once: every token signed
// before is refused from now on (its holder signs in again or uses its refresh token). For a key
// that may have leaked. Returns the new key's kid.
std::string replace_signing_key(Database& db, const Clock& clock);

}  // namespace syndic
