// Access tokens (docs/oauth.md): the round trip, the JWKS checked with OpenSSL alone, and every
// refusal, forged with the real key where the point is a claim or a header (so the signature is
// good and only the rule under test can refuse), and the attacks on libjwt's jwt_decode (none,
// HS256 with the public key as the secret, RS256, lax base64) shown to get through libjwt alone.
#include <jwt.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "auth/access_tokens.hpp"
#include "auth/signing_key.hpp"
#include "core/base64url.hpp"
#include "core/ids.hpp"
#include "fixture.hpp"

namespace syndic::test {
namespace {

using namespace std::chrono_literals;

const std::string base_url = "http://127.0.0.1:8080/api";  // the issuer, and the resource

AccessTokenClaims member_claims(const std::string& syndicate) {
    AccessTokenClaims c;
    c.issuer = base_url;
    c.subject = "user-1";
    c.audience = base_url;
    c.scope = "units:read meetings:read";
    c.client_id = "client-1";
    c.syndicate_id = syndicate;
    c.role = "member";
    return c;
}

TokenCheck check(Fixture& fx, const std::string& token) {
    return verify_access_token(*fx.db, fx.clock, token, base_url, base_url);
}

// The token is refused, without an exception, for a reason whose words include `why`.
#define CHECK_TOKEN_REFUSED(fx, token, why)                                                     \
    do {                                                                                        \
        TokenCheck check_;                                                                      \
        CHECK_NOTHROW(check_ = check((fx), (token)));                                           \
        CHECK_FALSE(check_.claims.has_value());                                                 \
        CHECK_MESSAGE(check_.error.find(why) != std::string::npos, "error: " << check_.error); \
    } while (0)

#define CHECK_TOKEN_ACCEPTED(fx, token)                                             \
    do {                                                                            \
        const auto check_ = check((fx), (token));                                   \
        CHECK_MESSAGE(check_.claims.has_value(), "refused: " << check_.error);      \
    } while (0)

std::vector<std::string> parts_of(const std::string& token) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (std::size_t dot; (dot = token.find('.', from)) != std::string::npos; from = dot + 1)
        parts.push_back(token.substr(from, dot - from));
    parts.push_back(token.substr(from));
    return parts;
}

json decoded_json(const std::string& part) { return json::parse(base64url_decode(part).value()); }
std::string encoded_json(const json& j) { return base64url_encode(j.dump()); }

std::string pem_text(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(n));
}

// The private key kept for the database (beside it, never in it), which must be the one of `kid`.
std::string stored_private_pem(Database& db, const std::string& kid) {
    const auto kept = read_signing_key(db);
    REQUIRE(kept.has_value());
    REQUIRE(kept->kid == kid);
    return kept->private_pem;
}

int count_rows(Database& db, const std::string& table, const std::string& where = "1") {
    return db.sql().execAndGet("SELECT count(*) FROM " + table + " WHERE " + where).getInt();
}

// A P-256 public key built from a JWK's x and y alone: the SubjectPublicKeyInfo (RFC 5480) of the
// uncompressed point, parsed by OpenSSL.
EVP_PKEY* key_of_jwk(const json& jwk) {
    static const unsigned char spki_prefix[] = {0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
                                                0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
                                                0x07, 0x03, 0x42, 0x00, 0x04};
    const auto x = base64url_decode(jwk.at("x").get<std::string>()).value();
    const auto y = base64url_decode(jwk.at("y").get<std::string>()).value();
    REQUIRE(x.size() == 32);
    REQUIRE(y.size() == 32);
    const std::string der = std::string(reinterpret_cast<const char*>(spki_prefix), sizeof spki_prefix) + x + y;
    const auto* p = reinterpret_cast<const unsigned char*>(der.data());
    EVP_PKEY* key = d2i_PUBKEY(nullptr, &p, static_cast<long>(der.size()));
    REQUIRE(key != nullptr);
    return key;
}

// The public key's PEM, as anyone who reads the JWKS can write it.
std::string public_pem_of_jwk(const json& jwk) {
    EVP_PKEY* key = key_of_jwk(jwk);
    BIO* bio = BIO_new(BIO_s_mem());
    REQUIRE(PEM_write_bio_PUBKEY(bio, key) == 1);
    std::string pem = pem_text(bio);
    BIO_free(bio);
    EVP_PKEY_free(key);
    return pem;
}

// Verifies a JWS ES256 signature (r and s, 32 bytes each) with OpenSSL, without libjwt.
bool openssl_verifies(EVP_PKEY* key, const std::string& signing_input, const std::string& raw_signature) {
    if (raw_signature.size() != 64) return false;
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw_signature.data());
    ECDSA_SIG* sig = ECDSA_SIG_new();
    ECDSA_SIG_set0(sig, BN_bin2bn(bytes, 32, nullptr), BN_bin2bn(bytes + 32, 32, nullptr));
    unsigned char* der = nullptr;
    const int der_len = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    const bool ok = EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
                    EVP_DigestVerify(ctx, der, static_cast<std::size_t>(der_len),
                                     reinterpret_cast<const unsigned char*>(signing_input.data()),
                                     signing_input.size()) == 1;
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return ok;
}

// A JWS with any header and claims, signed ES256 with a stored key: what only the holder of the
// key could make, so that a refusal of it is the rule's doing, not the signature's.
std::string forge(const std::string& private_pem, const json& header, const json& payload) {
    const std::string input = encoded_json(header) + "." + encoded_json(payload);
    BIO* bio = BIO_new_mem_buf(private_pem.data(), static_cast<int>(private_pem.size()));
    EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    REQUIRE(key != nullptr);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    std::size_t der_len = 0;
    REQUIRE(EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1);
    REQUIRE(EVP_DigestSign(ctx, nullptr, &der_len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1);
    std::vector<unsigned char> der(der_len);
    REQUIRE(EVP_DigestSign(ctx, der.data(), &der_len, reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1);
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    const unsigned char* p = der.data();
    ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der_len));
    unsigned char raw[64];
    REQUIRE(BN_bn2binpad(ECDSA_SIG_get0_r(sig), raw, 32) == 32);
    // Written low-S (s <= n/2), as the server writes and alone accepts.
    BIGNUM* order = nullptr;
    REQUIRE(BN_hex2bn(&order, "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551") > 0);
    BIGNUM* half = BN_dup(order);
    BN_rshift1(half, half);
    BIGNUM* s = BN_dup(ECDSA_SIG_get0_s(sig));
    if (BN_cmp(s, half) > 0) BN_sub(s, order, s);
    REQUIRE(BN_bn2binpad(s, raw + 32, 32) == 32);
    BN_free(s);
    BN_free(half);
    BN_free(order);
    ECDSA_SIG_free(sig);
    return input + "." + base64url_encode(std::string(reinterpret_cast<const char*>(raw), 64));
}

// A JWT made by libjwt itself with any algorithm and key (a kid header added).
std::string libjwt_token(jwt_alg_t alg, const std::string& key, const std::string& kid, const json& payload) {
    jwt_t* jwt = nullptr;
    REQUIRE(jwt_new(&jwt) == 0);
    REQUIRE(jwt_add_grants_json(jwt, payload.dump().c_str()) == 0);
    REQUIRE(jwt_add_header(jwt, "kid", kid.c_str()) == 0);
    REQUIRE(jwt_set_alg(jwt, alg, alg == JWT_ALG_NONE ? nullptr : reinterpret_cast<const unsigned char*>(key.data()),
                        alg == JWT_ALG_NONE ? 0 : static_cast<int>(key.size())) == 0);
    char* text = jwt_encode_str(jwt);
    REQUIRE(text != nullptr);
    std::string token(text);
    std::free(text);
    jwt_free(jwt);
    return token;
}

// Whether libjwt's jwt_decode alone, given this key, takes the token.
bool libjwt_accepts(const std::string& token, const std::string& key) {
    jwt_t* jwt = nullptr;
    const int rc = jwt_decode(&jwt, token.c_str(), key.empty() ? nullptr : reinterpret_cast<const unsigned char*>(key.data()),
                              static_cast<int>(key.size()));
    jwt_free(jwt);
    return rc == 0;
}

// A fixture with one token signed, its parts, its key, and what forging the like takes.
struct Signed : Fixture {
    std::string token = sign_access_token(*db, clock, member_claims(syndicate));
    std::vector<std::string> parts = parts_of(token);
    json header = decoded_json(parts[0]);
    json payload = decoded_json(parts[1]);
    std::string kid = header.at("kid").get<std::string>();
    std::string private_pem = stored_private_pem(*db, kid);
    json jwk = jwks(*db, clock).at("keys").at(0);
    std::string public_pem = public_pem_of_jwk(jwk);

    std::string forged(const json& payload_) { return forge(private_pem, header, payload_); }
};

// A database file of its own, removed at the end.
struct TempFolder {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("syndic-jwt-test-" + new_uuid());
    TempFolder() { std::filesystem::create_directories(path); }
    ~TempFolder() { std::filesystem::remove_all(path); }
};

TEST_SUITE("access-tokens") {

TEST_CASE("a signed token verifies and gives its claims back") {
    Signed fx;
    const auto result = check(fx, fx.token);
    REQUIRE_MESSAGE(result.claims.has_value(), result.error);
    const auto& c = *result.claims;
    CHECK(c.issuer == base_url);
    CHECK(c.subject == "user-1");
    CHECK(c.audience == base_url);
    CHECK(c.scope == "units:read meetings:read");
    CHECK(c.client_id == "client-1");
    CHECK(c.syndicate_id == fx.syndicate);
    CHECK(c.role == "member");
    const std::int64_t now = std::chrono::floor<std::chrono::seconds>(fx.clock.now()).time_since_epoch().count();
    CHECK(c.issued_at == now);
    CHECK(c.expires_at == now + 15 * 60);
    CHECK(c.jti.size() == 36);
    CHECK(result.error.empty());

    CHECK(fx.header == json{{"alg", "ES256"}, {"typ", "JWT"}, {"kid", fx.kid}});
    CHECK(fx.payload.at("nbf") == now);
    CHECK(fx.payload.at("jti") == c.jti);
    CHECK(fx.payload.at("aud") == base_url);

    // Each token has its own jti, and the same key signs them while it is the newest.
    const auto again = sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate), 5min);
    CHECK(decoded_json(parts_of(again)[1]).at("jti") != c.jti);
    CHECK(decoded_json(parts_of(again)[0]).at("kid") == fx.kid);
    CHECK(decoded_json(parts_of(again)[1]).at("exp") == now + 300);
    CHECK(count_rows(*fx.db, "signing_keys") == 1);
}

TEST_CASE("the private key is PKCS#8 PEM; the JWKS publishes its public half, which verifies tokens with OpenSSL alone") {
    Signed fx;
    CHECK(fx.private_pem.rfind("-----BEGIN PRIVATE KEY-----", 0) == 0);
    const json set = jwks(*fx.db, fx.clock);
    REQUIRE(set.at("keys").size() == 1);
    const json& jwk = set["keys"][0];
    CHECK(jwk.at("kty") == "EC");
    CHECK(jwk.at("crv") == "P-256");
    CHECK(jwk.at("alg") == "ES256");
    CHECK(jwk.at("use") == "sig");
    CHECK(jwk.at("kid") == fx.kid);
    CHECK_FALSE(jwk.contains("d"));  // nothing private
    CHECK(jwk.at("x").get<std::string>().size() == 43);
    CHECK(jwk.at("y").get<std::string>().size() == 43);

    EVP_PKEY* key = key_of_jwk(jwk);
    const std::string input = fx.parts[0] + "." + fx.parts[1];
    const std::string signature = base64url_decode(fx.parts[2]).value();
    CHECK(openssl_verifies(key, input, signature));
    CHECK_FALSE(openssl_verifies(key, input + " ", signature));
    EVP_PKEY_free(key);
}

TEST_CASE("every ES256 signature is r and s of 32 bytes each, zero-padded, and verifies") {
    // One signature in 128 has an r or an s under 32 bytes: an unpadded encoder would show here.
    Signed fx;
    EVP_PKEY* key = key_of_jwk(fx.jwk);
    int verified = 0;
    for (int i = 0; i < 400; ++i) {
        const auto parts = parts_of(sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate)));
        REQUIRE(parts[2].size() == 86);
        verified += openssl_verifies(key, parts[0] + "." + parts[1], base64url_decode(parts[2]).value()) ? 1 : 0;
    }
    CHECK(verified == 400);
    EVP_PKEY_free(key);
}

TEST_CASE("an expired token is refused, within the 30 s of leeway it is not") {
    Signed fx;
    fx.clock.advance(15min + 29s);
    CHECK_TOKEN_ACCEPTED(fx, fx.token);
    fx.clock.advance(1s);
    CHECK_TOKEN_REFUSED(fx, fx.token, "expired");
    fx.clock.advance(24h);
    CHECK_TOKEN_REFUSED(fx, fx.token, "expired");
}

TEST_CASE("a token not valid yet is refused, within the leeway it is not") {
    Signed fx;
    const Instant signed_at = fx.clock.now();
    fx.clock.set(signed_at - 30s);
    CHECK_TOKEN_ACCEPTED(fx, fx.token);
    fx.clock.set(signed_at - 31s);
    CHECK_TOKEN_REFUSED(fx, fx.token, "not valid yet");

    // nbf and iat are each checked.
    fx.clock.set(signed_at);
    const std::int64_t now = fx.payload.at("iat").get<std::int64_t>();
    json later = fx.payload;
    later["nbf"] = now + 60;
    CHECK_TOKEN_REFUSED(fx, fx.forged(later), "nbf");
    json future = fx.payload;
    future["iat"] = now + 60;
    CHECK_TOKEN_REFUSED(fx, fx.forged(future), "iat");
    future["iat"] = now + 30;
    CHECK_TOKEN_ACCEPTED(fx, fx.forged(future));
}

TEST_CASE("a token of another issuer or for another audience is refused") {
    Signed fx;
    CHECK_FALSE(verify_access_token(*fx.db, fx.clock, fx.token, "https://elsewhere.example/api", base_url).claims);
    CHECK(verify_access_token(*fx.db, fx.clock, fx.token, "https://elsewhere.example/api", base_url).error.find("iss") !=
          std::string::npos);
    const auto other_audience = verify_access_token(*fx.db, fx.clock, fx.token, base_url, base_url + "/mcp");
    CHECK_FALSE(other_audience.claims);
    CHECK(other_audience.error.find("aud") != std::string::npos);

    auto claims = member_claims(fx.syndicate);
    claims.issuer = "https://elsewhere.example/api";
    CHECK_TOKEN_REFUSED(fx, sign_access_token(*fx.db, fx.clock, claims), "iss");
    claims = member_claims(fx.syndicate);
    claims.audience = "https://elsewhere.example/api";
    CHECK_TOKEN_REFUSED(fx, sign_access_token(*fx.db, fx.clock, claims), "aud");

    // aud may be an array (RFC 7519) holding ours; not one without it, nor one of other types.
    json payload = fx.payload;
    payload["aud"] = {"https://elsewhere.example", base_url};
    CHECK_TOKEN_ACCEPTED(fx, fx.forged(payload));
    CHECK(check(fx, fx.forged(payload)).claims->audience == base_url);
    payload["aud"] = {"https://elsewhere.example"};
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "aud");
    payload["aud"] = json::array();
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "aud");
    payload["aud"] = {base_url, 5};
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "aud");
    payload["aud"] = 5;
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "aud");
    payload["aud"] = base_url + "/";
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "aud");
}

TEST_CASE("a tampered payload or header is refused") {
    Signed fx;
    json payload = fx.payload;
    payload["role"] = "admin";
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + encoded_json(payload) + "." + fx.parts[2], "signature");
    payload = fx.payload;
    payload["exp"] = payload["exp"].get<std::int64_t>() + 3600;
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + encoded_json(payload) + "." + fx.parts[2], "signature");
    json header = fx.header;
    header["x5u"] = "https://attacker.example/key";
    CHECK_TOKEN_REFUSED(fx, encoded_json(header) + "." + fx.parts[1] + "." + fx.parts[2], "signature");
    // The same token untouched still verifies.
    CHECK_TOKEN_ACCEPTED(fx, fx.parts[0] + "." + fx.parts[1] + "." + fx.parts[2]);
}

TEST_CASE("a tampered signature is refused, and so is any other spelling of the same one") {
    Signed fx;
    std::string sig = fx.parts[2];
    sig[40] = sig[40] == 'A' ? 'B' : 'A';
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + fx.parts[1] + "." + sig, "signature");
    const auto raw = base64url_decode(fx.parts[2]).value();
    std::string flipped = raw;
    flipped[63] = static_cast<char>(flipped[63] ^ 1);
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + fx.parts[1] + "." + base64url_encode(flipped), "signature");
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + fx.parts[1] + "." + base64url_encode(raw.substr(0, 63)), "signature");
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + fx.parts[1] + ".", "signature");

    // libjwt's base64 decoding skips what is not base64 and ignores the last character's unused
    // bits: these spellings of the good signature get through jwt_decode, and must not through us.
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const char last = fx.parts[2].back();
    const std::string unused_bits = fx.parts[2].substr(0, 85) + alphabet[(std::string(alphabet).find(last)) ^ 1];
    const std::string padded = fx.parts[2] + "=";
    const std::string junk = fx.parts[2].substr(0, 40) + "*" + fx.parts[2].substr(40);
    for (const auto& spelling : {unused_bits, padded, junk}) {
        const auto token = fx.parts[0] + "." + fx.parts[1] + "." + spelling;
        CHECK(libjwt_accepts(token, fx.public_pem));
        CHECK_TOKEN_REFUSED(fx, token, "base64url");
    }
}

// n - s for the s half of a 64-byte ES256 signature, n the order of P-256.
std::string with_negated_s(std::string sig) {
    static constexpr unsigned char n[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51};
    int borrow = 0;
    for (int i = 31; i >= 0; --i) {
        int v = n[i] - static_cast<unsigned char>(sig[32 + i]) - borrow;
        borrow = v < 0;
        sig[32 + i] = static_cast<char>(v + (borrow ? 256 : 0));
    }
    return sig;
}

TEST_CASE("only the low-S spelling of an ES256 signature is written and accepted") {
    // (r, n - s) verifies as (r, s) does: a second spelling of every token (issue 15).
    Signed fx;
    EVP_PKEY* key = key_of_jwk(fx.jwk);
    for (int i = 0; i < 40; ++i) {
        const auto parts = parts_of(sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate)));
        const auto raw = base64url_decode(parts[2]).value();
        CHECK(static_cast<unsigned char>(raw[32]) <= 0x7F);  // s <= n/2 starts with a byte below 0x80
        const auto high = with_negated_s(raw);
        CHECK(openssl_verifies(key, parts[0] + "." + parts[1], high));  // the other spelling is a valid signature
        CHECK_TOKEN_REFUSED(fx, parts[0] + "." + parts[1] + "." + base64url_encode(high), "low-S");
        CHECK_TOKEN_ACCEPTED(fx, parts[0] + "." + parts[1] + "." + parts[2]);
    }
    EVP_PKEY_free(key);
}

TEST_CASE("a header or claims naming a key twice are refused") {
    Signed fx;
    const auto header = base64url_decode(fx.parts[0]).value();
    const auto twice = header.substr(0, header.size() - 1) + ",\"alg\":\"none\"}";
    CHECK_TOKEN_REFUSED(fx, base64url_encode(twice) + "." + fx.parts[1] + "." + fx.parts[2], "twice");
    const auto claims = base64url_decode(fx.parts[1]).value();
    const auto again = claims.substr(0, claims.size() - 1) + ",\"role\":\"admin\"}";
    CHECK_TOKEN_REFUSED(fx, fx.parts[0] + "." + base64url_encode(again) + "." + fx.parts[2], "twice");
}

TEST_CASE("alg none is refused, though libjwt takes it when given no key") {
    Signed fx;
    const auto token = libjwt_token(JWT_ALG_NONE, "", fx.kid, fx.payload);
    CHECK(parts_of(token)[2].empty());
    CHECK(decoded_json(parts_of(token)[0]).at("alg") == "none");
    CHECK(libjwt_accepts(token, ""));
    CHECK_TOKEN_REFUSED(fx, token, "alg");
    // With a signature appended, and with the algorithm's name in other cases.
    CHECK_TOKEN_REFUSED(fx, token + fx.parts[2], "alg");
    for (const char* none : {"None", "NONE", "nOnE"}) {
        json header = {{"alg", none}, {"typ", "JWT"}, {"kid", fx.kid}};
        CHECK_TOKEN_REFUSED(fx, encoded_json(header) + "." + fx.parts[1] + ".", "alg");
    }
}

TEST_CASE("HS256 signed with the public key's PEM as the HMAC secret is refused, though libjwt takes it") {
    Signed fx;
    // Anyone can write the PEM from the JWKS; libjwt verifies with the header's algorithm, so an
    // HMAC keyed with that very text passes jwt_decode when the verifier hands it the PEM.
    for (jwt_alg_t alg : {JWT_ALG_HS256, JWT_ALG_HS384, JWT_ALG_HS512}) {
        json payload = fx.payload;
        payload["role"] = "admin";
        const auto token = libjwt_token(alg, fx.public_pem, fx.kid, payload);
        CHECK(libjwt_accepts(token, fx.public_pem));
        CHECK_TOKEN_REFUSED(fx, token, "alg");
    }
}

TEST_CASE("RS256 and every algorithm but ES256 are refused") {
    Signed fx;
    EVP_PKEY* rsa = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<std::size_t>(2048));
    REQUIRE(rsa != nullptr);
    BIO* bio = BIO_new(BIO_s_mem());
    REQUIRE(PEM_write_bio_PrivateKey(bio, rsa, nullptr, nullptr, 0, nullptr, nullptr) == 1);
    const std::string rsa_pem = pem_text(bio);
    BIO_free(bio);
    EVP_PKEY_free(rsa);
    const auto token = libjwt_token(JWT_ALG_RS256, rsa_pem, fx.kid, fx.payload);
    CHECK(decoded_json(parts_of(token)[0]).at("alg") == "RS256");
    CHECK_TOKEN_REFUSED(fx, token, "alg");

    // Other names with a good ES256 signature: only the exact "ES256" passes.
    for (const json& alg : {json("ES384"), json("ES512"), json("es256"), json("ES256 "), json("PS256"), json("EdDSA"),
                            json("HS256"), json(nullptr), json(7), json::array({"ES256"})}) {
        json header = fx.header;
        header["alg"] = alg;
        CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "alg");
    }
    json header = fx.header;
    header.erase("alg");
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "alg");
}

TEST_CASE("a header with another typ, critical extensions or no kid is refused") {
    Signed fx;
    // libjwt 1.10 writes typ JWT only and its jwt_decode refuses any other (at+jwt included).
    json header = fx.header;
    header["typ"] = "at+jwt";
    const auto at_jwt = forge(fx.private_pem, header, fx.payload);
    CHECK_FALSE(libjwt_accepts(at_jwt, fx.public_pem));
    CHECK_TOKEN_REFUSED(fx, at_jwt, "typ");
    header.erase("typ");
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "typ");

    header = fx.header;
    header["crit"] = {"exp"};
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "crit");

    header = fx.header;
    header.erase("kid");
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "kid");
    header["kid"] = "";
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "kid");
    header["kid"] = 5;
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "kid");
    // A header that nests deeper than any JOSE header does, or is not an object.
    header = fx.header;
    header["x"] = {{"y", {{"z", {1}}}}};
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "header");
    CHECK_TOKEN_REFUSED(fx, encoded_json(json::array({"ES256"})) + "." + fx.parts[1] + "." + fx.parts[2], "header");
}

TEST_CASE("a token of an unknown key is refused") {
    Signed fx;
    Fixture elsewhere;  // another database, with keys of its own
    const auto foreign = sign_access_token(*elsewhere.db, elsewhere.clock, member_claims(fx.syndicate));
    CHECK_TOKEN_REFUSED(fx, foreign, "unknown");
    // Our token relabelled with the other kid, and a kid that names nothing.
    json header = fx.header;
    header["kid"] = decoded_json(parts_of(foreign)[0]).at("kid");
    CHECK_TOKEN_REFUSED(fx, encoded_json(header) + "." + fx.parts[1] + "." + fx.parts[2], "unknown");
    header["kid"] = "' OR 1=1 --";
    CHECK_TOKEN_REFUSED(fx, forge(fx.private_pem, header, fx.payload), "unknown");
}

TEST_CASE("every claim must be there with its type") {
    Signed fx;
    for (const char* claim : {"iss", "sub", "aud", "exp", "iat", "nbf", "jti", "scope", "client_id", "syndicate_id", "role"}) {
        CAPTURE(claim);
        json payload = fx.payload;
        payload.erase(claim);
        CHECK_TOKEN_REFUSED(fx, fx.forged(payload), claim);
    }
    const std::pair<const char*, json> mistyped[] = {
        {"exp", json("1900000000")}, {"exp", json(1.9e9)},     {"iat", json(true)},   {"nbf", json(nullptr)},
        {"exp", json(1e30)},         {"sub", json(42)},        {"sub", json("")},     {"jti", json("")},
        {"scope", json::array()},    {"role", json("owner")},  {"role", json("Admin")}, {"client_id", json("")},
        {"syndicate_id", json::object()},
    };
    for (const auto& [claim, value] : mistyped) {
        CAPTURE(claim);
        CAPTURE(value.dump());
        json payload = fx.payload;
        payload[claim] = value;
        CHECK_TOKEN_REFUSED(fx, fx.forged(payload), claim == std::string("role") ? "role" : claim);
    }
    // An empty scope is a grant of nothing, not a malformed token; an unknown claim is ignored.
    json payload = fx.payload;
    payload["scope"] = "";
    payload["extra"] = "ignored";
    CHECK_TOKEN_ACCEPTED(fx, fx.forged(payload));
    // Claims that nest deeper than an aud array are refused before any parser sees them.
    payload = fx.payload;
    payload["extra"] = {{"a", {{"b", 1}}}};
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "nest");
    CHECK_TOKEN_REFUSED(fx, fx.forged(json::array({json::array({fx.payload})})), "nest");
}

TEST_CASE("a revoked token is refused until it expires, and expired revocations are forgotten") {
    Signed fx;
    const auto other = sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate));
    const auto claims = *check(fx, fx.token).claims;
    revoke_access_token(*fx.db, fx.clock, claims.jti, claims.expires_at);
    CHECK_TOKEN_REFUSED(fx, fx.token, "revoked");
    CHECK_TOKEN_ACCEPTED(fx, other);
    revoke_access_token(*fx.db, fx.clock, claims.jti, claims.expires_at);  // twice is fine
    CHECK(count_rows(*fx.db, "oauth_revoked_access_tokens") == 1);

    // Within the leeway after exp the row is still needed; after it, the next revocation prunes it.
    fx.clock.advance(15min + 29s);
    const auto late = sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate));
    const auto late_claims = *check(fx, late).claims;
    revoke_access_token(*fx.db, fx.clock, late_claims.jti, late_claims.expires_at);
    CHECK_TOKEN_REFUSED(fx, fx.token, "revoked");
    CHECK(count_rows(*fx.db, "oauth_revoked_access_tokens") == 2);
    fx.clock.advance(1s);
    revoke_access_token(*fx.db, fx.clock, late_claims.jti, late_claims.expires_at);
    CHECK(count_rows(*fx.db, "oauth_revoked_access_tokens") == 1);
    CHECK(count_rows(*fx.db, "oauth_revoked_access_tokens", "jti = '" + claims.jti + "'") == 0);
    CHECK_TOKEN_REFUSED(fx, fx.token, "expired");
    CHECK_TOKEN_REFUSED(fx, late, "revoked");
    // A token already expired leaves no row.
    revoke_access_token(*fx.db, fx.clock, "old", claims.expires_at - 3600);
    CHECK(count_rows(*fx.db, "oauth_revoked_access_tokens", "jti = 'old'") == 0);
    CHECK_THROWS_AS(revoke_access_token(*fx.db, fx.clock, "", late_claims.expires_at), std::invalid_argument);
}

TEST_CASE("a token signed by a retired key is refused, even with the key known to this process") {
    Signed fx;
    CHECK_TOKEN_ACCEPTED(fx, fx.token);
    fx.db->sql().exec("UPDATE signing_keys SET retired_at = '2026-11-21T15:00:00.000Z'");
    CHECK_TOKEN_REFUSED(fx, fx.token, "retired");
    // Its key is gone from the JWKS; with every key retired, a new one is made to sign.
    const json set = jwks(*fx.db, fx.clock);
    REQUIRE(set.at("keys").size() == 1);
    CHECK(set["keys"][0].at("kid") != fx.kid);
    const auto fresh = sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate));
    CHECK(decoded_json(parts_of(fresh)[0]).at("kid") == set["keys"][0].at("kid"));
    CHECK_TOKEN_ACCEPTED(fx, fresh);
}

TEST_CASE("rotation: the new key signs, the old one verifies, and a day after its replacement it is retired") {
    Signed fx;
    rotate_signing_key(*fx.db, fx.clock);
    const auto second = sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate));
    const std::string second_kid = decoded_json(parts_of(second)[0]).at("kid");
    CHECK(second_kid != fx.kid);
    CHECK_TOKEN_ACCEPTED(fx, fx.token);
    CHECK_TOKEN_ACCEPTED(fx, second);
    json set = jwks(*fx.db, fx.clock);
    REQUIRE(set.at("keys").size() == 2);
    CHECK(set["keys"][0].at("kid") == second_kid);  // newest first
    CHECK(set["keys"][1].at("kid") == fx.kid);

    // Rotating again within the day keeps all three.
    fx.clock.advance(23h);
    rotate_signing_key(*fx.db, fx.clock);
    CHECK(jwks(*fx.db, fx.clock).at("keys").size() == 3);
    // A day after the second key replaced the first, the first is retired; the second (replaced
    // only an hour ago) and the third stay.
    fx.clock.advance(1h + 1s);
    rotate_signing_key(*fx.db, fx.clock);
    set = jwks(*fx.db, fx.clock);
    REQUIRE(set.at("keys").size() == 3);
    for (const auto& jwk : set["keys"]) CHECK(jwk.at("kid") != fx.kid);
    CHECK(count_rows(*fx.db, "signing_keys", "retired_at IS NOT NULL") == 1);
    CHECK_TOKEN_REFUSED(fx, fx.token, "retired");
    CHECK_TOKEN_REFUSED(fx, second, "expired");
}

TEST_CASE("a second connection to the same file finds the keys the first made") {
    TempFolder folder;
    const std::string path = (folder.path / "syndic.db").string();
    FixedClock clock{fixed_now()};
    auto first = Database::open(path);
    auto second = Database::open(path);
    const std::string syndicate = create_syndicate(*first, clock, "Syndicat A", false);

    const auto token = sign_access_token(*first, clock, member_claims(syndicate));
    const auto seen = verify_access_token(*second, clock, token, base_url, base_url);
    CHECK_MESSAGE(seen.claims.has_value(), seen.error);
    CHECK(jwks(*second, clock).at("keys").size() == 1);  // the first's key, no second one made

    // A key made by the second after the first has verified with its own is found by the first.
    CHECK(verify_access_token(*first, clock, token, base_url, base_url).claims);
    rotate_signing_key(*second, clock);
    const auto newer = sign_access_token(*second, clock, member_claims(syndicate));
    CHECK(parts_of(newer)[0] != parts_of(token)[0]);
    CHECK(verify_access_token(*first, clock, newer, base_url, base_url).claims);
    CHECK(parts_of(sign_access_token(*first, clock, member_claims(syndicate)))[0] == parts_of(newer)[0]);

    // A key retired through the second is refused by the first at once.
    second->sql().exec("UPDATE signing_keys SET retired_at = '2026-11-21T15:00:00.000Z' WHERE kid = '" +
                       decoded_json(parts_of(token)[0]).at("kid").get<std::string>() + "'");
    CHECK(verify_access_token(*first, clock, token, base_url, base_url).error.find("retired") != std::string::npos);
}

TEST_CASE("the private key is kept beside the database file (mode 0600), never in it") {
    TempFolder folder;
    const std::string path = (folder.path / "syndic.db").string();
    FixedClock clock{fixed_now()};
    auto db = Database::open(path);
    const std::string syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    const auto token = sign_access_token(*db, clock, member_claims(syndicate));
    const std::string kid = decoded_json(parts_of(token)[0]).at("kid");
    const auto key_file = path + ".signing-key";
    REQUIRE(std::filesystem::exists(key_file));
    const auto mode = std::filesystem::status(key_file).permissions() & std::filesystem::perms::all;
    CHECK(mode == (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
    CHECK(stored_private_pem(*db, kid).rfind("-----BEGIN PRIVATE KEY-----", 0) == 0);
    // No column of the table holds it: only kid, public_jwk, created_at, retired_at.
    CHECK(count_rows(*db, "pragma_table_info('signing_keys')") == 4);
    CHECK(count_rows(*db, "pragma_table_info('signing_keys')", "name = 'private_pem'") == 0);
    db->sql().exec("PRAGMA wal_checkpoint(TRUNCATE)");
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes.find("PRIVATE KEY") == std::string::npos);

    // A database put back without this key (a restored backup) takes the kept key's public half
    // again: the tokens it signed still verify, and it goes on signing.
    db->sql().exec("DELETE FROM signing_keys");
    CHECK_FALSE(verify_access_token(*db, clock, token, base_url, base_url).claims);
    const auto next = sign_access_token(*db, clock, member_claims(syndicate));
    CHECK(decoded_json(parts_of(next)[0]).at("kid") == kid);
    CHECK(verify_access_token(*db, clock, token, base_url, base_url).claims);
}

TEST_CASE("replace_signing_key: a new key signs and every token signed before is refused at once") {
    Signed fx;
    CHECK_TOKEN_ACCEPTED(fx, fx.token);
    const auto kid = replace_signing_key(*fx.db, fx.clock);
    CHECK(kid != fx.kid);
    CHECK_TOKEN_REFUSED(fx, fx.token, "retired");
    CHECK_TOKEN_REFUSED(fx, fx.forged(fx.payload), "retired");
    const auto fresh = sign_access_token(*fx.db, fx.clock, member_claims(fx.syndicate));
    CHECK(decoded_json(parts_of(fresh)[0]).at("kid") == kid);
    CHECK_TOKEN_ACCEPTED(fx, fresh);
    REQUIRE(jwks(*fx.db, fx.clock).at("keys").size() == 1);
}

TEST_CASE("two processes signing the first token at once make one key") {
    TempFolder folder;
    const std::string path = (folder.path / "syndic.db").string();
    FixedClock clock{fixed_now()};
    Database::open(path);  // migrated once, so the race is the key's alone
    std::vector<std::unique_ptr<Database>> connections;
    for (int i = 0; i < 4; ++i) connections.push_back(Database::open(path));
    std::atomic<int> ready{0}, failures{0};
    std::vector<std::thread> threads;
    for (auto& db : connections)
        threads.emplace_back([&, conn = db.get()] {
            ++ready;
            while (ready < 4) std::this_thread::yield();
            try {
                for (int i = 0; i < 10; ++i) sign_access_token(*conn, clock, member_claims("s"));
            } catch (...) {
                ++failures;
            }
        });
    for (auto& t : threads) t.join();
    CHECK(failures == 0);
    CHECK(count_rows(*connections[0], "signing_keys") == 1);
}

TEST_CASE("tokens over 8 KiB are refused before parsing") {
    Signed fx;
    json payload = fx.payload;
    payload["pad"] = std::string(5000, 'a');
    const auto large = fx.forged(payload);
    CHECK(large.size() < max_access_token_size);
    CHECK_TOKEN_ACCEPTED(fx, large);
    payload["pad"] = std::string(6200, 'a');
    const auto too_large = fx.forged(payload);
    CHECK(too_large.size() > max_access_token_size);
    CHECK_TOKEN_REFUSED(fx, too_large, "8 KiB");
    CHECK_TOKEN_REFUSED(fx, std::string(max_access_token_size + 1, 'a'), "8 KiB");
    CHECK_TOKEN_REFUSED(fx, fx.token + std::string(max_access_token_size, 'A'), "8 KiB");
    // Nor are such tokens issued.
    auto claims = member_claims(fx.syndicate);
    claims.scope = std::string(7000, 's');
    CHECK_THROWS_AS(sign_access_token(*fx.db, fx.clock, claims), std::invalid_argument);
}

TEST_CASE("garbage is refused without an exception") {
    Signed fx;
    const std::string nul("a\0b.c.d", 7);
    for (const std::string& token :
         {std::string(), std::string("."), std::string(".."), std::string("..."), std::string("a.b"), std::string("a.b.c"),
          std::string("a.b.c.d"), fx.token + ".", "." + fx.token, fx.parts[0] + ".." + fx.parts[2], nul,
          fx.parts[0] + "." + fx.parts[1] + "\n." + fx.parts[2], std::string("Bearer ") + fx.token,
          encoded_json("not an object") + "." + fx.parts[1] + "." + fx.parts[2],
          base64url_encode("{\"alg\":\"ES256\",") + "." + fx.parts[1] + "." + fx.parts[2],
          fx.parts[0] + "." + base64url_encode("not json") + "." + fx.parts[2],
          fx.parts[0] + "." + base64url_encode(std::string(3000, '[')) + "." + fx.parts[2],
          base64url_encode(std::string(3000, '{')) + "." + fx.parts[1] + "." + fx.parts[2]}) {
        CAPTURE(token);
        TokenCheck result;
        CHECK_NOTHROW(result = check(fx, token));
        CHECK_FALSE(result.claims.has_value());
        CHECK_FALSE(result.error.empty());
    }
    // A payload that is valid base64url but not JSON, properly signed.
    CHECK_TOKEN_REFUSED(fx, fx.forged(json("a string")), "claims");
}

TEST_CASE("sign_access_token refuses what verify_access_token would") {
    Fixture fx;
    auto claims = member_claims(fx.syndicate);
    CHECK_THROWS_AS(sign_access_token(*fx.db, fx.clock, claims, 0s), std::invalid_argument);
    CHECK_THROWS_AS(sign_access_token(*fx.db, fx.clock, claims, 2h), std::invalid_argument);
    CHECK_NOTHROW(sign_access_token(*fx.db, fx.clock, claims, 1h));
    for (auto field : {&AccessTokenClaims::issuer, &AccessTokenClaims::subject, &AccessTokenClaims::audience,
                       &AccessTokenClaims::client_id, &AccessTokenClaims::syndicate_id}) {
        auto broken = claims;
        broken.*field = "";
        CHECK_THROWS_AS(sign_access_token(*fx.db, fx.clock, broken), std::invalid_argument);
    }
    claims.role = "owner";
    CHECK_THROWS_AS(sign_access_token(*fx.db, fx.clock, claims), std::invalid_argument);
    claims.role = "admin";
    const auto admin = check(fx, sign_access_token(*fx.db, fx.clock, claims));
    REQUIRE(admin.claims);
    CHECK(admin.claims->role == "admin");
}

}  // TEST_SUITE

}  // namespace
}  // namespace syndic::test
