// auth/oauth: clients (redirect URI rules, secrets kept as hashes, authentication), PKCE S256,
// single-use authorization codes and rotating refresh tokens with reuse detection; and the
// base64url and token helpers of core/ids they use.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "auth/credentials.hpp"
#include "auth/oauth.hpp"
#include "core/clock.hpp"
#include "core/ids.hpp"
#include "storage/database.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace oauth_test {

using namespace syndic;
using namespace syndic::oauth;

namespace {

struct OAuthFixture {
    std::unique_ptr<Database> db = Database::open(":memory:");
    FixedClock clock{*parse_iso_instant("2026-11-21T15:00:00Z")};
    std::string syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    std::string user = add_user("marie@example.ca");
    RegisteredClient app = register_client(*db, clock, "Gestion Plus", {"https://app.example.org/callback"}, "none", "dynamic");
    const std::string verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

    std::string add_user(const std::string& email) {
        const auto id = new_uuid();
        auto q = db->prepare(
            "INSERT INTO users (id, syndicate_id, email, name, role, password_hash, created_at) VALUES (?, ?, ?, 'X', 'member', 'x', ?)");
        q->bind(1, id);
        q->bind(2, syndicate);
        q->bind(3, email);
        q->bind(4, to_utc_iso(clock.now()));
        q->exec();
        return id;
    }
    std::string code(const std::string& redirect = "https://app.example.org/callback") {
        return issue_code(*db, clock, {app.client.id, user, redirect, code_challenge_s256(verifier), "read:co-owners", "http://127.0.0.1:8080/api"});
    }
    std::string count(const std::string& sql) {
        auto q = db->prepare(sql);
        q->executeStep();
        return q->getColumn(0).getString();
    }
};

std::string oauth_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const OAuthError& e) {
        return e.error;
    }
    return "(no error)";
}

}  // namespace

TEST_SUITE("oauth") {

TEST_CASE("base64 (HTTP Basic), tokens and constant-time comparison") {
    CHECK(base64_decode("YXBwOnMzY3JldA==") == std::optional<std::string>("app:s3cret"));
    CHECK(base64_decode("Zm9vYg==") == std::optional<std::string>("foob"));
    CHECK(base64_decode("Zm9v") == std::optional<std::string>("foo"));
    CHECK(base64_decode("") == std::optional<std::string>(""));
    CHECK_FALSE(base64_decode("Zm9"));
    CHECK_FALSE(base64_decode("Zm9*"));
    const auto a = new_token(), b = new_token();
    CHECK(a.size() == 43);
    CHECK(a != b);
    CHECK(same_secret("abc", "abc"));
    CHECK_FALSE(same_secret("abc", "abd"));
    CHECK_FALSE(same_secret("abc", "abcd"));
}

TEST_CASE("PKCE S256 as RFC 7636 (appendix B) computes it") {
    CHECK(code_challenge_s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    CHECK(valid_code_verifier(std::string(43, 'a')));
    CHECK(valid_code_verifier(std::string(128, '~')));
    CHECK_FALSE(valid_code_verifier(std::string(42, 'a')));
    CHECK_FALSE(valid_code_verifier(std::string(129, 'a')));
    CHECK_FALSE(valid_code_verifier(std::string(43, '+')));
}

TEST_CASE("redirect URIs: https, loopback http, private-use schemes; nothing else") {
    for (const char* ok : {"https://app.example.org/callback", "https://app.example.org:8443/cb?x=1", "http://127.0.0.1:33418/callback",
                           "http://localhost:9000/cb", "http://[::1]:5000/cb", "com.example.app:/oauth2redirect"})
        CHECK_MESSAGE(valid_redirect_uri(ok), ok);
    for (const char* bad : {"http://app.example.org/callback", "https://app.example.org/cb#frag", "javascript:alert(1)",
                            "myapp:/cb", "", "/relative/cb", "https://user@app.example.org/cb", "http://localhost.evil.com/cb",
                            "https://app.example.org/a b", "http://127.attacker.example/cb", "http://127.0.0.1.nip.io/cb"})
        CHECK_MESSAGE(!valid_redirect_uri(bad), bad);
}

TEST_CASE("clients: public and confidential, secrets kept as hashes") {
    OAuthFixture fx;
    CHECK_FALSE(fx.app.secret);
    CHECK(fx.app.client.is_public());
    CHECK(authenticate_client(*fx.db, fx.app.client.id, std::nullopt, fx.clock.now()).name == "Gestion Plus");
    CHECK(oauth_error([&] { authenticate_client(*fx.db, fx.app.client.id, std::string("a secret"), fx.clock.now()); }) == "invalid_client");

    const auto confidential = register_client(*fx.db, fx.clock, "Comptable", {"https://books.example.org/cb"}, "client_secret_basic", "admin");
    REQUIRE(confidential.secret);
    CHECK(fx.count("SELECT count(*) FROM oauth_clients WHERE secret_hash = '" + *confidential.secret + "'") == "0");
    CHECK(authenticate_client(*fx.db, confidential.client.id, confidential.secret, fx.clock.now()).id == confidential.client.id);
    CHECK(oauth_error([&] { authenticate_client(*fx.db, confidential.client.id, std::string("wrong"), fx.clock.now()); }) == "invalid_client");
    CHECK(oauth_error([&] { authenticate_client(*fx.db, confidential.client.id, std::nullopt, fx.clock.now()); }) == "invalid_client");
    CHECK(oauth_error([&] { authenticate_client(*fx.db, "no-such-client", std::nullopt, fx.clock.now()); }) == "invalid_client");

    CHECK(oauth_error([&] { register_client(*fx.db, fx.clock, "X", {"http://evil.example.com/cb"}, "none", "dynamic"); }) ==
          "invalid_redirect_uri");
    CHECK(oauth_error([&] { register_client(*fx.db, fx.clock, "X", {}, "none", "dynamic"); }) == "invalid_redirect_uri");
    CHECK(oauth_error([&] { register_client(*fx.db, fx.clock, "X", {"https://a.example/cb"}, "private_key_jwt", "dynamic"); }) ==
          "invalid_client_metadata");

    CHECK(disable_client(*fx.db, fx.clock, confidential.client.id));
    CHECK_FALSE(disable_client(*fx.db, fx.clock, confidential.client.id));
    CHECK(oauth_error([&] { authenticate_client(*fx.db, confidential.client.id, confidential.secret, fx.clock.now()); }) == "invalid_client");
    CHECK(list_clients(*fx.db, fx.clock.now()).size() == 2);
}

TEST_CASE("a client that registered itself and never completed an authorization is gone after 15 minutes") {
    OAuthFixture fx;
    const auto idle = register_client(*fx.db, fx.clock, "Jamais finie", {"https://idle.example.org/cb"}, "none", "dynamic");
    const auto admin = register_client(*fx.db, fx.clock, "Du syndicat", {"https://admin.example.org/cb"}, "none", "admin");
    fx.code();  // fx.app completes an authorization
    CHECK(dynamic_clients_counted(*fx.db, fx.clock.now()) == 2);
    fx.clock.advance(std::chrono::minutes(14));
    CHECK(find_client(*fx.db, idle.client.id, fx.clock.now()));
    CHECK(forget_unfinished_clients(*fx.db, fx.clock.now()) == 0);
    fx.clock.advance(std::chrono::minutes(2));
    CHECK_FALSE(find_client(*fx.db, idle.client.id, fx.clock.now()));
    CHECK(oauth_error([&] { authenticate_client(*fx.db, idle.client.id, std::nullopt, fx.clock.now()); }) == "invalid_client");
    CHECK(dynamic_clients_counted(*fx.db, fx.clock.now()) == 1);
    CHECK(list_clients(*fx.db, fx.clock.now()).size() == 2);
    CHECK(forget_unfinished_clients(*fx.db, fx.clock.now()) == 1);
    CHECK(find_client(*fx.db, fx.app.client.id, fx.clock.now()));
    CHECK(find_client(*fx.db, admin.client.id, fx.clock.now()));
    // The day's count keeps the completed one for 24 hours.
    fx.clock.advance(std::chrono::hours(24));
    CHECK(dynamic_clients_counted(*fx.db, fx.clock.now()) == 0);
    CHECK(find_client(*fx.db, fx.app.client.id, fx.clock.now()));
}

TEST_CASE("authorization codes: once, in time, for their client, redirect URI and verifier") {
    OAuthFixture fx;
    const auto redirect = fx.app.client.redirect_uris.front();
    SUBCASE("redeemed once") {
        const auto code = fx.code();
        CHECK(fx.count("SELECT count(*) FROM oauth_codes WHERE code_hash = '" + code + "'") == "0");  // stored hashed
        const auto grant = redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, fx.verifier);
        CHECK(grant.user_id == fx.user);
        CHECK(grant.scope == "read:co-owners");
        CHECK(grant.resource == "http://127.0.0.1:8080/api");
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, fx.verifier); }) == "invalid_grant");
    }
    SUBCASE("a reused code revokes the refresh tokens it gave") {
        const auto code = fx.code();
        const auto grant = redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, fx.verifier);
        const auto refresh = issue_refresh_token(*fx.db, fx.clock, grant);
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, fx.verifier); }) == "invalid_grant");
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, refresh, fx.app.client.id); }) == "invalid_grant");
    }
    SUBCASE("expired after 60 seconds") {
        const auto code = fx.code();
        fx.clock.advance(std::chrono::seconds(61));
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, fx.verifier); }) == "invalid_grant");
    }
    SUBCASE("another client, another redirect URI, a wrong or malformed verifier, an unknown code; each spends it") {
        const auto other = register_client(*fx.db, fx.clock, "Autre", {"https://other.example.org/cb"}, "none", "dynamic");
        auto code = fx.code();
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, other.client.id, redirect, fx.verifier); }) == "invalid_grant");
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, fx.verifier); }) == "invalid_grant");
        code = fx.code();
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect + "/", fx.verifier); }) == "invalid_grant");
        code = fx.code();
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, std::string(43, 'x')); }) == "invalid_grant");
        code = fx.code();
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, code, fx.app.client.id, redirect, "short"); }) == "invalid_grant");
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, "made-up", fx.app.client.id, redirect, fx.verifier); }) == "invalid_grant");
        CHECK(oauth_error([&] { redeem_code(*fx.db, fx.clock, "", fx.app.client.id, redirect, fx.verifier); }) == "invalid_grant");
    }
}

TEST_CASE("refresh tokens rotate; a spent one presented again revokes the whole family") {
    OAuthFixture fx;
    const auto grant = redeem_code(*fx.db, fx.clock, fx.code(), fx.app.client.id, fx.app.client.redirect_uris.front(), fx.verifier);
    const auto first = issue_refresh_token(*fx.db, fx.clock, grant);
    const auto again = rotate_refresh_token(*fx.db, fx.clock, first, fx.app.client.id);
    CHECK(again.family_id == grant.family_id);
    CHECK(again.scope == grant.scope);
    const auto second = issue_refresh_token(*fx.db, fx.clock, again);
    SUBCASE("the successor works; the spent one revokes it") {
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, first, fx.app.client.id); }) == "invalid_grant");
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, second, fx.app.client.id); }) == "invalid_grant");
    }
    SUBCASE("another client cannot use it, and its attempt spends nothing") {
        const auto other = register_client(*fx.db, fx.clock, "Autre", {"https://other.example.org/cb"}, "none", "dynamic");
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, second, other.client.id); }) == "invalid_grant");
        CHECK(rotate_refresh_token(*fx.db, fx.clock, second, fx.app.client.id).user_id == fx.user);
    }
    SUBCASE("expired after 30 days") {
        fx.clock.advance(std::chrono::days(31));
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, second, fx.app.client.id); }) == "invalid_grant");
    }
    SUBCASE("revoked by the client (RFC 7009), by disabling the user's tokens, or the client") {
        CHECK_FALSE(revoke_refresh_token(*fx.db, fx.clock, "unknown", fx.app.client.id));
        CHECK(revoke_refresh_token(*fx.db, fx.clock, second, fx.app.client.id));
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, second, fx.app.client.id); }) == "invalid_grant");
        const auto g2 = redeem_code(*fx.db, fx.clock, fx.code(), fx.app.client.id, fx.app.client.redirect_uris.front(), fx.verifier);
        const auto t2 = issue_refresh_token(*fx.db, fx.clock, g2);
        revoke_user_tokens(*fx.db, fx.clock, fx.user);
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, t2, fx.app.client.id); }) == "invalid_grant");
        const auto g3 = redeem_code(*fx.db, fx.clock, fx.code(), fx.app.client.id, fx.app.client.redirect_uris.front(), fx.verifier);
        const auto t3 = issue_refresh_token(*fx.db, fx.clock, g3);
        disable_client(*fx.db, fx.clock, fx.app.client.id);
        CHECK(oauth_error([&] { rotate_refresh_token(*fx.db, fx.clock, t3, fx.app.client.id); }) == "invalid_grant");
    }
}

}  // TEST_SUITE

}  // namespace oauth_test
