// Access tokens (docs/oauth.md): the signing keys over time: revocation, retirement, rotation,
// the key kept beside the database file (mode 0600) and found by a second connection, its
// replacement, and two processes signing the first token at once.
#include "access_tokens_fixture.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace syndic::test {
// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace access_tokens_keys_test {

using namespace std::chrono_literals;
using namespace access_token_fixture;

TEST_SUITE("access-tokens") {

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
    std::atomic<int> ready{0};
    std::mutex failures_mutex;
    std::vector<std::string> failures;  // what each thread that failed was told, to show it
    std::vector<std::thread> threads;
    for (auto& db : connections)
        threads.emplace_back([&, conn = db.get()] {
            ++ready;
            while (ready < 4) std::this_thread::yield();
            try {
                for (int i = 0; i < 10; ++i) sign_access_token(*conn, clock, member_claims("s"));
            } catch (const std::exception& e) {
                std::lock_guard lock(failures_mutex);
                failures.emplace_back(e.what());
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& failure : failures) MESSAGE(failure);
    CHECK(failures.empty());
    CHECK(count_rows(*connections[0], "signing_keys") == 1);
}

}  // TEST_SUITE

}  // namespace access_tokens_keys_test
}  // namespace syndic::test
