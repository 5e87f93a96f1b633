// auth/ (API keys, the caller's context, roles, the sign-in throttle): what a key stands for and
// what a caller may do, on a database in memory.
#include "core_fixture.hpp"

#include <chrono>
#include <string>

#include "auth/credentials.hpp"
#include "auth/sign_in_throttle.hpp"
#include "core/clock.hpp"
#include "core/context.hpp"
#include "core/ids.hpp"
#include "storage/database.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace core_auth_test {

using namespace syndic;
using namespace syndic::test::core_fixture;

TEST_SUITE("core") {

// ---------------------------------------------------------------------------------------------
// Credentials

TEST_CASE("API keys: only a hash is stored, and a key stands for its syndicate, role and scopes") {
    auto db = Database::open(":memory:");
    FixedClock clock(at("2026-11-21T15:00:00Z"));
    const auto syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    const auto other = create_syndicate(*db, clock, "Syndicat B", false);
    const auto key = issue_api_key(*db, clock, syndicate, Role::admin, {"read:co-owners", "write:co-owners"}, "board");

    CHECK(key.secret.rfind("sk_", 0) == 0);
    CHECK(key.secret.size() >= 3 + 43);

    SUBCASE("the secret appears nowhere in the api_keys table") {
        SQLite::Statement q(db->sql(), "SELECT * FROM api_keys");
        int rows = 0;
        bool hash_found = false;
        while (q.executeStep()) {
            ++rows;
            for (int i = 0; i < q.getColumnCount(); ++i) {
                if (q.getColumn(i).isNull()) continue;
                const std::string value = q.getColumn(i).getString();
                CHECK_MESSAGE(value.find(key.secret) == std::string::npos, "column " << q.getColumnName(i));
                // Nor any long piece of it (a prefix to tell keys apart is fine).
                CHECK_MESSAGE(value.find(key.secret.substr(3, 20)) == std::string::npos, "column " << q.getColumnName(i));
                if (value == sha256_hex(key.secret)) hash_found = true;
            }
        }
        CHECK(rows == 1);
        CHECK(hash_found);
    }
    SUBCASE("authenticate gives the key's syndicate, role and scopes") {
        const auto caller = authenticate(*db, key.secret);
        REQUIRE(caller.has_value());
        CHECK(caller->syndicate_id == syndicate);
        CHECK(caller->api_key_id == key.id);
        CHECK(caller->role == Role::admin);
        CHECK(caller->is_admin());
        CHECK(caller->scopes == std::vector<std::string>{"read:co-owners", "write:co-owners"});
        CHECK(caller->has_scope("write:co-owners"));
        CHECK_FALSE(caller->has_scope("write:declaration"));

        const auto member_key = issue_api_key(*db, clock, other, Role::member, {"*"}, "member");
        const auto member = authenticate(*db, member_key.secret);
        REQUIRE(member.has_value());
        CHECK(member->syndicate_id == other);
        CHECK(member->role == Role::member);
        CHECK_FALSE(member->is_admin());
        CHECK(member->has_scope("write:declaration"));
    }
    SUBCASE("list_api_keys shows the key without its secret") {
        const auto keys = list_api_keys(*db, syndicate);
        REQUIRE(keys.size() == 1);
        CHECK(keys[0].id == key.id);
        CHECK(keys[0].name == "board");
        CHECK(keys[0].role == Role::admin);
        CHECK(keys[0].prefix.size() < key.secret.size());
        CHECK(key.secret.rfind(keys[0].prefix, 0) == 0);
        CHECK_FALSE(keys[0].revoked_at.has_value());
        CHECK(list_api_keys(*db, other).empty());
    }
    SUBCASE("malformed and unknown keys do not authenticate") {
        CHECK_FALSE(authenticate(*db, "").has_value());
        CHECK_FALSE(authenticate(*db, "sk_short").has_value());
        CHECK_FALSE(authenticate(*db, key.secret.substr(3)).has_value());           // without sk_
        CHECK_FALSE(authenticate(*db, "pk_" + key.secret.substr(3)).has_value());   // wrong prefix
        CHECK_FALSE(authenticate(*db, key.secret + "x").has_value());
        std::string altered = key.secret;
        altered.back() = altered.back() == 'a' ? 'b' : 'a';
        CHECK_FALSE(authenticate(*db, altered).has_value());
        CHECK_FALSE(authenticate(*db, sha256_hex(key.secret)).has_value());  // the stored hash is no key
        CHECK_FALSE(authenticate(*db, new_api_key()).has_value());
    }
    SUBCASE("a revoked key no longer authenticates; revoke takes a unique id prefix") {
        const auto second = issue_api_key(*db, clock, syndicate, Role::member, {"read:co-owners"}, "second");
        CHECK_FALSE(revoke_api_key(*db, clock, ""));
        CHECK_FALSE(revoke_api_key(*db, clock, "no-such-key"));
        REQUIRE(key.id.substr(0, 8) != second.id.substr(0, 8));
        CHECK(revoke_api_key(*db, clock, key.id.substr(0, 8)));
        CHECK_FALSE(authenticate(*db, key.secret).has_value());
        CHECK(authenticate(*db, second.secret).has_value());  // the other key is untouched
        CHECK_FALSE(revoke_api_key(*db, clock, key.id));       // already revoked

        const auto keys = list_api_keys(*db, syndicate);
        REQUIRE(keys.size() == 2);
        for (const auto& k : keys) {
            if (k.id == key.id) CHECK(k.revoked_at == std::optional<std::string>("2026-11-21T15:00:00.000Z"));
            else CHECK_FALSE(k.revoked_at.has_value());
        }
        CHECK(revoke_api_key(*db, clock, second.id));
        CHECK_FALSE(authenticate(*db, second.secret).has_value());
    }
}

TEST_CASE("CallerContext::has_scope: listed scopes, or every scope with *") {
    CallerContext reader{"s", "k", {"read:co-owners"}, Role::member};
    CHECK(reader.has_scope("read:co-owners"));
    CHECK_FALSE(reader.has_scope("write:co-owners"));
    CHECK_FALSE(reader.has_scope("read:meetings"));
    CHECK_FALSE(reader.is_admin());

    CallerContext all{"s", "k", {"*"}, Role::admin};
    for (const char* scope : {"read:co-owners", "write:co-owners", "write:declaration", "read:meetings", "write:anything"})
        CHECK_MESSAGE(all.has_scope(scope), scope);
    CHECK(all.is_admin());

    CallerContext none{"s", "k", {}, Role::admin};
    CHECK_FALSE(none.has_scope("read:co-owners"));
}

TEST_CASE("roles read and write by name") {
    CHECK(role_name(Role::admin) == "admin");
    CHECK(role_name(Role::member) == "member");
    CHECK(parse_role("admin") == Role::admin);
    CHECK(parse_role("member") == Role::member);
    CHECK_FALSE(parse_role("owner").has_value());
}

TEST_CASE("sign-in throttle: one count per account however spelled, for the source that failed") {
    SignInThrottle t;
    Instant now{std::chrono::hours(1000)};
    for (int i = 0; i < 5; ++i) t.failed(" Lise@Example.ca ", "10.0.0.1", now);
    CHECK(t.wait("lise@example.ca", "10.0.0.1", now) > 0);
    CHECK(t.wait("\tLISE@example.CA", "10.0.0.1", now) > 0);
    // Issue 28, point 5: failures from one source never make the owner wait elsewhere.
    CHECK(t.wait("lise@example.ca", "10.0.0.2", now) == 0);
    CHECK(t.wait("paul@example.ca", "10.0.0.1", now) == 0);
    // The wait doubles with each further failure of that source, up to 15 minutes.
    now += std::chrono::seconds(61);
    t.failed("lise@example.ca", "10.0.0.1", now);
    CHECK(t.wait("lise@example.ca", "10.0.0.1", now) > 60);
    CHECK(t.wait("lise@example.ca", "10.0.0.1", now) <= 121);
    // 50 failures from one address (5 on each of 10 accounts) make it wait for strangers only.
    t.succeeded("paul@example.ca", "10.0.0.9", now);
    for (int a = 0; a < 10; ++a)
        for (int i = 0; i < 5; ++i) t.failed("guess" + std::to_string(a) + "@x.ca", "10.0.0.9", now);
    CHECK(t.wait("stranger@x.ca", "10.0.0.9", now) > 60);
    CHECK(t.wait("Paul@example.ca", "10.0.0.9", now) == 0);
    CHECK(t.wait("stranger@x.ca", "10.0.0.8", now) == 0);
    CHECK(t.wait("stranger@x.ca", "10.0.0.9", now + std::chrono::minutes(16)) == 0);
}

TEST_CASE("sign-in throttle: guessing one account from many sources leaves its owner a try at once") {
    SignInThrottle t;
    Instant now{std::chrono::hours(1000)};
    t.succeeded("nadia@example.ca", "2001:db8:1:2::/64", now - std::chrono::hours(24));
    // 60 sources, one failure each: none waits yet on its own count...
    for (int i = 0; i < 49; ++i) t.failed("nadia@example.ca", "198.51.100." + std::to_string(i), now);
    CHECK(t.wait("nadia@example.ca", "198.51.100.0", now) == 0);
    // ...but past 50 in all, a source never seen signing in waits after its first failure.
    for (int i = 49; i < 60; ++i) t.failed("nadia@example.ca", "198.51.100." + std::to_string(i), now);
    CHECK(t.wait("nadia@example.ca", "198.51.100.59", now) > 0);
    CHECK(t.wait("nadia@example.ca", "198.51.100.0", now) == 0);  // its failure came before the 50th
    // The owner on a new address still has a first try checked; on her usual one, her five.
    CHECK(t.wait("nadia@example.ca", "203.0.113.5", now) == 0);
    t.failed("nadia@example.ca", "203.0.113.5", now);
    CHECK(t.wait("nadia@example.ca", "203.0.113.5", now) > 0);
    for (int i = 0; i < 4; ++i) t.failed("nadia@example.ca", "2001:db8:1:2::/64", now);
    CHECK(t.wait("nadia@example.ca", "2001:db8:1:2::/64", now) == 0);
    t.failed("nadia@example.ca", "2001:db8:1:2::/64", now);
    CHECK(t.wait("nadia@example.ca", "2001:db8:1:2::/64", now) > 0);
}

}

}  // namespace core_auth_test
