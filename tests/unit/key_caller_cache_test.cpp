// auth/key_caller_cache: the caller an API key stands for is kept between calls, and looked up
// again as soon as the keys may have changed: a revocation through this connection, or one
// committed by another connection (as `syndic-mcp keys revoke` does from another process).
#include "core_fixture.hpp"

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <string>

#include "auth/credentials.hpp"
#include "auth/key_caller_cache.hpp"
#include "core/ids.hpp"
#include "core/clock.hpp"
#include "storage/database.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace key_caller_cache_test {

using namespace syndic;
using namespace syndic::test::core_fixture;

TEST_SUITE("core") {

TEST_CASE("KeyCallerCache: the key is looked up once while nothing changes, again after any write") {
    auto db = Database::open(":memory:");
    FixedClock clock(at("2026-11-21T15:00:00Z"));
    const auto syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    const auto key = issue_api_key(*db, clock, syndicate, Role::admin, {"read:co-owners"}, "board");
    KeyCallerCache cache;

    const CallerContext* caller = cache.caller(*db, key.secret);
    REQUIRE(caller != nullptr);
    CHECK(caller->api_key_id == key.id);
    CHECK(caller->syndicate_id == syndicate);
    CHECK(caller->role == Role::admin);
    CHECK(caller->scopes == std::vector<std::string>{"read:co-owners"});
    for (int i = 0; i < 5; ++i) REQUIRE(cache.caller(*db, key.secret) != nullptr);
    CHECK(cache.lookups() == 1);

    SUBCASE("a key revoked through the same connection is refused on the next call") {
        REQUIRE(revoke_api_key(*db, clock, key.id));
        CHECK(cache.caller(*db, key.secret) == nullptr);
        CHECK(cache.lookups() == 2);
        CHECK(cache.caller(*db, key.secret) == nullptr);  // and stays refused
    }
    SUBCASE("any other write of this connection looks the key up again, and finds it still valid") {
        create_syndicate(*db, clock, "Syndicat B", false);
        REQUIRE(cache.caller(*db, key.secret) != nullptr);
        CHECK(cache.lookups() == 2);
    }
    SUBCASE("another key is looked up, not taken for the one kept") {
        const auto other = issue_api_key(*db, clock, syndicate, Role::member, {"*"}, "other");
        const CallerContext* second = cache.caller(*db, other.secret);
        REQUIRE(second != nullptr);
        CHECK(second->api_key_id == other.id);
        CHECK(cache.caller(*db, new_api_key()) == nullptr);  // an unknown key
        REQUIRE(cache.caller(*db, key.secret) != nullptr);
        CHECK(cache.caller(*db, key.secret)->api_key_id == key.id);
    }
    SUBCASE("a different connection is looked up on") {
        auto other_db = Database::open(":memory:");
        CHECK(cache.caller(*other_db, key.secret) == nullptr);  // no such key there
    }
}

TEST_CASE("KeyCallerCache: a key revoked by another connection is refused on the next call") {
    char pattern[] = "/tmp/syndic-key-cache-test-XXXXXX";
    const char* made = mkdtemp(pattern);
    REQUIRE(made != nullptr);
    const std::string folder = made;
    const std::string path = folder + "/keys.db";
    {
        FixedClock clock(at("2026-11-21T15:00:00Z"));
        auto server = Database::open(path);
        auto other = Database::open(path);  // the other process: `syndic-mcp keys revoke`
        const auto syndicate = create_syndicate(*other, clock, "Syndicat A", false);
        const auto key = issue_api_key(*other, clock, syndicate, Role::member, {"*"}, "board");
        const auto kept = issue_api_key(*other, clock, syndicate, Role::member, {"*"}, "kept");
        KeyCallerCache cache;
        REQUIRE(cache.caller(*server, key.secret) != nullptr);
        REQUIRE(cache.caller(*server, key.secret) != nullptr);
        CHECK(cache.lookups() == 1);

        SUBCASE("the key itself") {
            REQUIRE(revoke_api_key(*other, clock, key.id));
            CHECK(cache.caller(*server, key.secret) == nullptr);
        }
        SUBCASE("another key: the one kept is looked up again and is still valid") {
            REQUIRE(revoke_api_key(*other, clock, kept.id));
            REQUIRE(cache.caller(*server, key.secret) != nullptr);
            CHECK(cache.lookups() == 2);
        }
        SUBCASE("a write that rolls back changes nothing: the key stays valid") {
            {
                WriteTransaction tx(*other);
                REQUIRE(revoke_api_key(*other, clock, key.id));  // a savepoint inside tx, never committed
            }
            REQUIRE(cache.caller(*server, key.secret) != nullptr);
        }
    }
    std::filesystem::remove_all(folder);
}

}  // TEST_SUITE

}  // namespace key_caller_cache_test
