// What the access-token tests (tests/unit/access_tokens*_test.cpp) share: a member's claims, the
// check of a token and its refusal macros, a token's parts, OpenSSL and libjwt helpers that sign
// and verify without the code under test, a fixture with one signed token, and a folder of its
// own. It holds no check of a token rule: those stay in the test files.
#pragma once
#include <jwt.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <filesystem>
#include <string>
#include <vector>

#include "auth/access_tokens.hpp"
#include "auth/signing_key.hpp"
#include "core/base64url.hpp"
#include "core/ids.hpp"
#include "fixture.hpp"

namespace syndic::test::access_token_fixture {

inline const std::string base_url = "http://127.0.0.1:8080/api";  // the issuer, and the resource

inline AccessTokenClaims member_claims(const std::string& syndicate) {
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

inline TokenCheck check(Fixture& fx, const std::string& token) {
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

inline std::vector<std::string> parts_of(const std::string& token) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (std::size_t dot; (dot = token.find('.', from)) != std::string::npos; from = dot + 1)
        parts.push_back(token.substr(from, dot - from));
    parts.push_back(token.substr(from));
    return parts;
}

inline json decoded_json(const std::string& part) { return json::parse(base64url_decode(part).value()); }
inline std::string encoded_json(const json& j) { return base64url_encode(j.dump()); }

inline std::string pem_text(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(n));
}

// The private key kept for the database (beside it, never in it), which must be the one of `kid`.
inline std::string stored_private_pem(Database& db, const std::string& kid) {
    const auto kept = read_signing_key(db);
    REQUIRE(kept.has_value());
    REQUIRE(kept->kid == kid);
    return kept->private_pem;
}

inline int count_rows(Database& db, const std::string& table, const std::string& where = "1") {
    return db.sql().execAndGet("SELECT count(*) FROM " + table + " WHERE " + where).getInt();
}

// A P-256 public key built from a JWK's x and y alone: the SubjectPublicKeyInfo (RFC 5480) of the
// uncompressed point, parsed by OpenSSL.
inline EVP_PKEY* key_of_jwk(const json& jwk) {
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
inline std::string public_pem_of_jwk(const json& jwk) {
    EVP_PKEY* key = key_of_jwk(jwk);
    BIO* bio = BIO_new(BIO_s_mem());
    REQUIRE(PEM_write_bio_PUBKEY(bio, key) == 1);
    std::string pem = pem_text(bio);
    BIO_free(bio);
    EVP_PKEY_free(key);
    return pem;
}

// Verifies a JWS ES256 signature (r and s, 32 bytes each) with OpenSSL, without libjwt.
inline bool openssl_verifies(EVP_PKEY* key, const std::string& signing_input, const std::string& raw_signature) {
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
inline std::string forge(const std::string& private_pem, const json& header, const json& payload) {
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
inline std::string libjwt_token(jwt_alg_t alg, const std::string& key, const std::string& kid, const json& payload) {
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
inline bool libjwt_accepts(const std::string& token, const std::string& key) {
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
}  // namespace syndic::test::access_token_fixture
