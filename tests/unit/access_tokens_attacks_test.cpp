// Access tokens (docs/oauth.md): the attacks on libjwt's jwt_decode (none, HS256 with the public
// key as the secret, RS256, lax base64) shown to get through libjwt alone and refused here, and
// every malformed header, claim or token refused without an exception.
#include "access_tokens_fixture.hpp"

#include <string>

namespace syndic::test {
// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace access_tokens_attacks_test {

using namespace std::chrono_literals;
using namespace access_token_fixture;

TEST_SUITE("access-tokens") {

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

TEST_CASE("a token signed with the real key is refused with a lifetime this server never gives (issue 28, point 8)") {
    Signed fx;
    json payload = fx.payload;
    const auto iat = payload["iat"].get<std::int64_t>();
    payload["exp"] = iat + 10 * 365 * 24 * 3600;  // ten years
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "lifetime");
    payload["exp"] = iat + 3601;
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "lifetime");
    payload["exp"] = iat + 3600;
    CHECK_TOKEN_ACCEPTED(fx, fx.forged(payload));
    payload["iat"] = iat - 100;  // issued before, expiring when issued plus nothing
    payload["exp"] = iat - 100;
    CHECK_TOKEN_REFUSED(fx, fx.forged(payload), "expired");
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

}  // namespace access_tokens_attacks_test
}  // namespace syndic::test
