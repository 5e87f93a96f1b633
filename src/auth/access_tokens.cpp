#include "auth/access_tokens.hpp"

#include <jwt.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/base64url.hpp"
#include "core/ids.hpp"
#include "core/json_parse.hpp"
#include "core/text.hpp"
#include "auth/openssl_handles.hpp"
#include "auth/signing_key.hpp"

namespace syndic {
namespace {

using nlohmann::json;
using std::chrono::seconds;

// A key is retired once a newer one has replaced it for this long: every token it signed
// (at most max_access_token_lifetime, plus the leeway) has expired by then.
constexpr seconds key_retirement_delay{24 * 60 * 60};
static_assert(max_access_token_lifetime + access_token_leeway < key_retirement_delay);

using openssl::Bio;
using openssl::Bn;
using openssl::Pkey;
using openssl::PkeyCtx;
struct JwtFree { void operator()(jwt_t* p) const { jwt_free(p); } };
struct CFree { void operator()(char* p) const { std::free(p); } };  // what libjwt and jansson return
using Jwt = std::unique_ptr<jwt_t, JwtFree>;
using CString = std::unique_ptr<char, CFree>;

[[noreturn]] void token_crypto_failed(const std::string& what) {
    throw std::runtime_error(what + " failed (OpenSSL or libjwt)");
}

std::int64_t unix_seconds(Instant t) {
    return std::chrono::floor<seconds>(t).time_since_epoch().count();
}

std::string iso_of_unix_seconds(std::int64_t s) {
    return to_utc_iso(Instant{std::chrono::duration_cast<std::chrono::milliseconds>(seconds{s})});
}

// What a memory BIO holds, as text.
std::string bio_text(BIO* bio) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

std::optional<std::string> text_member(const json& object, const char* name) {
    const auto it = object.find(name);
    if (it == object.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

std::optional<std::int64_t> integer_member(const json& object, const char* name) {
    const auto it = object.find(name);
    if (it == object.end()) return std::nullopt;
    if (it->is_number_unsigned()) {
        const auto v = it->get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
        return static_cast<std::int64_t>(v);
    }
    if (it->is_number_integer()) return it->get<std::int64_t>();
    return std::nullopt;
}

// Adds a key pair: its private half is kept beside the database (signing_key.hpp) and signs from
// now on; its public JWK goes to `signing_keys`, for the JWKS and for verifying. A pair given is
// one already kept (its public half is added again).
SigningKeyPair insert_key(Database& db, const Clock& clock, std::optional<SigningKeyPair> pair = std::nullopt) {
    const SigningKeyPair made = pair ? *pair : make_signing_key_pair();
    auto q = db.prepare("INSERT INTO signing_keys (kid, public_jwk, created_at) VALUES (?, ?, ?)");
    q->bind(1, made.kid);
    q->bind(2, made.public_jwk);
    q->bind(3, to_utc_iso(clock.now()));
    q->exec();
    if (!pair) keep_signing_key(db, made);
    return made;
}

enum class KeyState { unknown, retired, active };

KeyState state_of(Database& db, const std::string& kid) {
    auto q = db.prepare("SELECT retired_at IS NOT NULL FROM signing_keys WHERE kid = ?");
    q->bind(1, kid);
    if (!q->executeStep()) return KeyState::unknown;
    return q->getColumn(0).getInt() != 0 ? KeyState::retired : KeyState::active;
}

// The key that signs: the one kept beside the database while `signing_keys` holds it unretired.
// A kept key the table does not know (a backup was restored) has its public half added again; a
// retired one, or none, is replaced by a new key. Two processes may both find none: the write
// transaction (BEGIN IMMEDIATE) lets one in at a time, and the second finds the first's key.
SigningKeyPair signing_key(Database& db, const Clock& clock) {
    if (auto key = read_signing_key(db); key && state_of(db, key->kid) == KeyState::active) return *key;
    WriteTransaction tx(db);
    auto kept = read_signing_key(db);
    const auto state = kept ? state_of(db, kept->kid) : KeyState::unknown;
    if (kept && state == KeyState::active) return *kept;
    auto made = insert_key(db, clock, kept && state == KeyState::unknown ? kept : std::nullopt);
    tx.commit();
    return made;
}

// The public key of a stored JWK, as PEM (what libjwt verifies with); nullopt if it is not a
// P-256 key.
std::optional<std::string> public_pem_of_jwk(const std::string& jwk_text) {
    const json jwk = json::parse(jwk_text, nullptr, false);
    if (!jwk.is_object() || text_member(jwk, "kty") != "EC" || text_member(jwk, "crv") != "P-256")
        return std::nullopt;
    const auto x_text = text_member(jwk, "x"), y_text = text_member(jwk, "y");
    const auto x = x_text ? base64url_decode(*x_text) : std::nullopt;
    const auto y = y_text ? base64url_decode(*y_text) : std::nullopt;
    if (!x || !y || x->size() != 32 || y->size() != 32) return std::nullopt;
    std::string point = "\x04" + *x + *y;  // uncompressed form (SEC 1)
    char group[] = "prime256v1";
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()),
        OSSL_PARAM_construct_end(),
    };
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
    EVP_PKEY* raw = nullptr;
    if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &raw, EVP_PKEY_PUBLIC_KEY, params) != 1)
        return std::nullopt;
    Pkey key(raw);
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PUBKEY(bio.get(), key.get()) != 1) token_crypto_failed("writing a public key");
    return bio_text(bio.get());
}

// The verifying keys as PEM, by kid, for this process. The database is asked about the kid on
// every verification (a key made by another process is found, a retired one refused at once);
// this only spares rebuilding the PEM, and holds the JWK it was built from so that the same kid
// in another database is never confused with it.
class VerificationKeys {
public:
    std::optional<std::string> pem(const std::string& kid, const std::string& jwk) {
        {
            std::lock_guard lock(mutex_);
            const auto it = by_kid_.find(kid);
            if (it != by_kid_.end() && it->second.first == jwk) return it->second.second;
        }
        auto pem = public_pem_of_jwk(jwk);
        if (!pem) return std::nullopt;
        std::lock_guard lock(mutex_);
        by_kid_[kid] = {jwk, *pem};
        return pem;
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::pair<std::string, std::string>> by_kid_;  // kid -> (JWK, PEM)
};

VerificationKeys& verification_keys() {
    static VerificationKeys keys;
    return keys;
}

TokenCheck refuse(std::string why) {
    TokenCheck check;
    check.error = std::move(why);
    return check;
}

// The claims of a verified token, when each is there with its type.
std::variant<AccessTokenClaims, std::string> read_claims(const json& c, std::string_view audience) {
    AccessTokenClaims claims;
    const std::pair<const char*, std::string*> texts[] = {
        {"iss", &claims.issuer},          {"sub", &claims.subject}, {"scope", &claims.scope},
        {"client_id", &claims.client_id}, {"syndicate_id", &claims.syndicate_id},
        {"role", &claims.role},           {"jti", &claims.jti},
    };
    for (const auto& [name, field] : texts) {
        auto value = text_member(c, name);
        if (!value) return std::string("the token's claim '") + name + "' is missing or not a string";
        if (value->empty() && std::string_view(name) != "scope")
            return std::string("the token's claim '") + name + "' is empty";
        *field = std::move(*value);
    }
    if (claims.role != "admin" && claims.role != "member") return std::string("the token's role is neither admin nor member");
    const auto exp = integer_member(c, "exp"), iat = integer_member(c, "iat"), nbf = integer_member(c, "nbf");
    if (!exp || !iat || !nbf) return std::string("the token's claims exp, iat and nbf must all be whole numbers");
    claims.expires_at = *exp;
    claims.issued_at = *iat;
    const auto aud = c.find("aud");
    bool typed = aud != c.end() && (aud->is_string() || (aud->is_array() && !aud->empty()));
    bool ours = typed && aud->is_string() && aud->get<std::string>() == audience;
    if (typed && aud->is_array())
        for (const auto& one : *aud) {
            if (!one.is_string()) typed = false;
            else if (one.get<std::string>() == audience) ours = true;
        }
    if (!typed) return std::string("the token's claim 'aud' is missing or not a string or an array of strings");
    if (!ours) return std::string("the token is not for this resource (aud)");
    claims.audience = std::string(audience);
    return claims;
}

// The order n of P-256, big-endian. An ECDSA signature (r, s) verifies as (r, n - s) too, so a
// token would have two spellings: only s <= n/2 ("low S") is written and accepted.
constexpr unsigned char p256_order[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF,
                                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17,
                                          0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51};

// Whether the S half (the last 32 bytes, big-endian) of an ES256 signature is at most n/2:
// compares 2s with n, byte by byte from the low end with the carry.
bool low_s(std::string_view signature) {
    const auto* s = reinterpret_cast<const unsigned char*>(signature.data()) + 32;
    unsigned char doubled[32];
    unsigned carry = 0;
    for (int i = 31; i >= 0; --i) {
        const unsigned v = (static_cast<unsigned>(s[i]) << 1) | carry;
        doubled[i] = static_cast<unsigned char>(v & 0xFF);
        carry = v >> 8;
    }
    if (carry) return false;  // 2s >= 2^256 > n
    return std::memcmp(doubled, p256_order, 32) <= 0;
}

// The same signature with S replaced by n - S (valid for the same message and key).
std::string negate_s(std::string signature) {
    auto* s = reinterpret_cast<unsigned char*>(signature.data()) + 32;
    int borrow = 0;
    for (int i = 31; i >= 0; --i) {
        int v = static_cast<int>(p256_order[i]) - static_cast<int>(s[i]) - borrow;
        borrow = v < 0;
        s[i] = static_cast<unsigned char>(v + (borrow ? 256 : 0));
    }
    return signature;
}

}  // namespace

std::string sign_access_token(Database& db, const Clock& clock, AccessTokenClaims claims, seconds lifetime) {
    if (lifetime <= seconds{0} || lifetime > max_access_token_lifetime)
        throw std::invalid_argument("an access token lives more than 0 seconds and at most an hour");
    for (const auto* field : {&claims.issuer, &claims.subject, &claims.audience, &claims.client_id, &claims.syndicate_id})
        if (field->empty()) throw std::invalid_argument("an access token needs an issuer, subject, audience, client and syndicate");
    if (claims.role != "admin" && claims.role != "member")
        throw std::invalid_argument("an access token's role is admin or member");

    const auto key = signing_key(db, clock);
    const std::int64_t now = unix_seconds(clock.now());
    claims.issued_at = now;
    claims.expires_at = now + lifetime.count();
    claims.jti = new_uuid();
    const json payload = {
        {"iss", claims.issuer},       {"sub", claims.subject},     {"aud", claims.audience},
        {"exp", claims.expires_at},   {"iat", claims.issued_at},   {"nbf", claims.issued_at},
        {"jti", claims.jti},          {"scope", claims.scope},     {"client_id", claims.client_id},
        {"syndicate_id", claims.syndicate_id},                     {"role", claims.role},
    };

    jwt_t* raw = nullptr;
    if (jwt_new(&raw) != 0) token_crypto_failed("jwt_new");
    Jwt token(raw);
    // libjwt 1.10 writes the header's alg and typ itself: typ is always "JWT" (it replaces any
    // other value, and its jwt_decode refuses any other), so "at+jwt" cannot be had from it.
    if (jwt_add_grants_json(token.get(), payload.dump().c_str()) != 0 ||
        jwt_add_header(token.get(), "kid", key.kid.c_str()) != 0 ||
        jwt_set_alg(token.get(), JWT_ALG_ES256, reinterpret_cast<const unsigned char*>(key.private_pem.data()),
                    static_cast<int>(key.private_pem.size())) != 0)
        token_crypto_failed("preparing an access token");
    CString encoded(jwt_encode_str(token.get()));
    if (!encoded) token_crypto_failed("signing an access token");
    std::string out(encoded.get());
    const auto dot = out.rfind('.');
    const auto signature = base64url_decode(std::string_view(out).substr(dot + 1));
    if (!signature || signature->size() != 64) token_crypto_failed("signing an access token (not a 64-byte ES256 signature)");
    if (!low_s(*signature)) out = out.substr(0, dot + 1) + base64url_encode(negate_s(*signature));
    if (out.size() > max_access_token_size)
        throw std::invalid_argument("these claims make an access token longer than 8 KiB");
    return out;
}

namespace {

// Why the token's times refuse it at `now` (Unix seconds), or nothing: expired, not valid yet,
// issued in the future, or a lifetime this server never gives (a key leaked for a moment would
// mint tokens good for years: exp - iat is more than 0 and at most an hour; issue 28, point 8).
std::optional<std::string> time_refusal(const AccessTokenClaims& claims, std::int64_t not_before, std::int64_t now) {
    const std::int64_t leeway = access_token_leeway.count();
    if (claims.expires_at <= now - leeway) return "the token has expired";
    if (not_before > now + leeway) return "the token is not valid yet (nbf)";
    if (claims.issued_at > now + leeway) return "the token was issued in the future (iat)";
    if (claims.expires_at - claims.issued_at > max_access_token_lifetime.count() || claims.expires_at <= claims.issued_at)
        return "the token's lifetime (exp - iat) is not one this server gives (at most an hour)";
    return std::nullopt;
}

}  // namespace

TokenCheck verify_access_token(Database& db, const Clock& clock, std::string_view token, std::string_view issuer,
                               std::string_view audience) {
    if (token.size() > max_access_token_size) return refuse("the token is longer than 8 KiB");
    const auto first = token.find('.');
    const auto second = first == token.npos ? token.npos : token.find('.', first + 1);
    if (second == token.npos || token.find('.', second + 1) != token.npos)
        return refuse("the token is not a JWT (three parts separated by dots)");
    const auto header_text = base64url_decode(token.substr(0, first));
    const auto payload_text = base64url_decode(token.substr(first + 1, second - first - 1));
    const auto signature = base64url_decode(token.substr(second + 1));
    if (!header_text || !payload_text || !signature) return refuse("the token's parts are not base64url");
    // Ours nest two deep (aud may be an array); deeper ones, and a claim named twice (libjwt and
    // this check could each read another of the two), are refused before libjwt sees them.
    try {
        if (!parse_json(*payload_text, {2, 1000}).is_object()) return refuse("the token's claims are not a JSON object");
    } catch (const JsonParseError& e) {
        return refuse(std::string("the token's claims are refused: it ") + e.what());
    }

    // The header is read here, before libjwt sees the token: jwt_decode verifies with whatever
    // algorithm the header names (HS256 with the public key's PEM as the secret, or none), so only
    // an ES256 header with the kid of one of our keys may reach it.
    json header;
    try {
        header = parse_json(*header_text, {3, 1000});
    } catch (const JsonParseError& e) {
        return refuse(std::string("the token's header is refused: it ") + e.what());
    }
    if (!header.is_object()) return refuse("the token's header is not a JSON object");
    if (text_member(header, "alg") != "ES256") return refuse("the token's algorithm (alg) is not ES256");
    if (text_member(header, "typ") != "JWT") return refuse("the token's type (typ) is not JWT");
    if (header.contains("crit")) return refuse("the token's header has critical extensions (crit)");
    const auto kid = text_member(header, "kid");
    if (!kid || kid->empty()) return refuse("the token names no key (kid)");
    if (signature->size() != 64) return refuse("the token's signature is not an ES256 signature (64 bytes)");
    if (!low_s(*signature)) return refuse("the token's signature is not in its low-S form (S > n/2)");

    std::string jwk;
    {
        auto q = db.prepare("SELECT public_jwk, retired_at IS NOT NULL FROM signing_keys WHERE kid = ?");
        q->bind(1, *kid);
        if (!q->executeStep()) return refuse("the token's key (kid) is unknown");
        if (q->getColumn(1).getInt() != 0) return refuse("the token's key (kid) has been retired");
        jwk = q->getColumn(0).getString();
    }
    const auto pem = verification_keys().pem(*kid, jwk);
    if (!pem) throw std::runtime_error("the stored signing key " + *kid + " is not a P-256 JWK");

    jwt_t* raw = nullptr;
    const std::string text(token);
    const int rc = jwt_decode(&raw, text.c_str(), reinterpret_cast<const unsigned char*>(pem->data()),
                              static_cast<int>(pem->size()));
    Jwt decoded(raw);
    if (rc != 0 || !decoded) return refuse("the token's signature does not verify");
    // libjwt read the header on its own: it must have read what was checked above.
    const char* decoded_kid = jwt_get_header(decoded.get(), "kid");
    if (jwt_get_alg(decoded.get()) != JWT_ALG_ES256 || !decoded_kid || *kid != decoded_kid)
        return refuse("the token's header is ambiguous");
    CString grants(jwt_get_grants_json(decoded.get(), nullptr));
    const json payload = grants ? json::parse(grants.get(), nullptr, false) : json();
    if (!payload.is_object()) return refuse("the token's claims are not a JSON object");

    auto read = read_claims(payload, audience);
    if (auto* why = std::get_if<std::string>(&read)) return refuse(std::move(*why));
    auto& claims = std::get<AccessTokenClaims>(read);
    if (claims.issuer != issuer) return refuse("the token was not issued here (iss)");
    if (auto why = time_refusal(claims, *integer_member(payload, "nbf"), unix_seconds(clock.now())))
        return refuse(std::move(*why));
    {
        auto q = db.prepare("SELECT 1 FROM oauth_revoked_access_tokens WHERE jti = ?");
        q->bind(1, claims.jti);
        if (q->executeStep()) return refuse("the token has been revoked");
    }
    TokenCheck check;
    check.claims = std::move(claims);
    return check;
}

void revoke_access_token(Database& db, const Clock& clock, const std::string& jti, std::int64_t expires_at) {
    if (jti.empty()) throw std::invalid_argument("revoking an access token needs its jti");
    const std::int64_t now = unix_seconds(clock.now());
    // A token is refused as expired from exp + leeway on, so its row is needed until then, and
    // none of ours lives past now + the longest lifetime (which also keeps the date writable).
    const std::int64_t gone = now - access_token_leeway.count();
    const std::int64_t latest = now + (max_access_token_lifetime + access_token_leeway).count();
    WriteTransaction tx(db);
    if (expires_at > gone) {
        auto q = db.prepare(
            "INSERT INTO oauth_revoked_access_tokens (jti, expires_at) VALUES (?, ?) "
            "ON CONFLICT (jti) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)");
        q->bind(1, jti);
        q->bind(2, iso_of_unix_seconds(std::min(expires_at, latest)));
        q->exec();
    }
    auto q = db.prepare("DELETE FROM oauth_revoked_access_tokens WHERE expires_at <= ?");
    q->bind(1, iso_of_unix_seconds(gone));
    q->exec();
    tx.commit();
}

json jwks(Database& db, const Clock& clock) {
    signing_key(db, clock);
    json keys = json::array();
    auto q = db.prepare(
        "SELECT public_jwk FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, rowid DESC");
    while (q->executeStep()) keys.push_back(json::parse(q->getColumn(0).getString()));
    return json::object({{"keys", std::move(keys)}});
}

void rotate_signing_key(Database& db, const Clock& clock) {
    const Instant now = clock.now();
    WriteTransaction tx(db);
    insert_key(db, clock);
    // Every key older than one made more than a day ago stopped signing more than a day ago.
    auto q = db.prepare(
        "UPDATE signing_keys SET retired_at = ?1 WHERE retired_at IS NULL AND EXISTS ("
        "SELECT 1 FROM signing_keys AS newer WHERE newer.created_at < ?2 AND "
        "(newer.created_at > signing_keys.created_at OR "
        "(newer.created_at = signing_keys.created_at AND newer.rowid > signing_keys.rowid)))");
    q->bind(1, to_utc_iso(now));
    q->bind(2, to_utc_iso(now - key_retirement_delay));
    q->exec();
    tx.commit();
}

std::string replace_signing_key(Database& db, const Clock& clock) {
    WriteTransaction tx(db);
    const auto made = insert_key(db, clock);
    auto q = db.prepare("UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL AND kid <> ?");
    q->bind(1, to_utc_iso(clock.now()));
    q->bind(2, made.kid);
    q->exec();
    tx.commit();
    return made.kid;
}

}  // namespace syndic
