// Access tokens (docs/oauth.md): the round trip, the JWKS checked with OpenSSL alone, times,
// issuer and audience, and tampering with the payload, header or signature (one spelling of each
// signature, low-S), forged with the real key where the point is a claim or a header, so the
// signature is good and only the rule under test can refuse.
#include "access_tokens_fixture.hpp"

#include <string>

namespace syndic::test {
// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace access_tokens_test {

using namespace std::chrono_literals;
using namespace access_token_fixture;

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

}  // TEST_SUITE

}  // namespace access_tokens_test
}  // namespace syndic::test
