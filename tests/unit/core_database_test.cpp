// storage/ (opening, migrations, pragmas, transactions): a database in memory or in a file, shared
// by several openers, and the write transaction that rolls back unless committed.
#include "core_fixture.hpp"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/ids.hpp"
#include "storage/database.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace core_database_test {

using namespace syndic;
using namespace syndic::test::core_fixture;

namespace {

// A fresh folder under the system's temp dir, removed with everything in it at the end.
struct TempDir {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("syndic-core-test-" + new_uuid());
    TempDir() { std::filesystem::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

long long count_rows(Database& db, const std::string& table) {
    return db.sql().execAndGet("SELECT count(*) FROM " + table).getInt64();
}

void insert_syndicate(Database& db, const std::string& id) {
    SQLite::Statement q(db.sql(), "INSERT INTO syndicates (id, name, created_at) VALUES (?, 'S', '2026-01-01T00:00:00Z')");
    q.bind(1, id);
    q.exec();
}

bool has_syndicate(Database& db, const std::string& id) {
    SQLite::Statement q(db.sql(), "SELECT count(*) FROM syndicates WHERE id = ?");
    q.bind(1, id);
    q.executeStep();
    return q.getColumn(0).getInt() == 1;
}

}  // namespace

TEST_SUITE("core") {

// ---------------------------------------------------------------------------------------------
// Storage

TEST_CASE("an in-memory database is migrated to the latest version") {
    auto db = Database::open(":memory:");
    CHECK(Database::latest_schema_version() >= 11);  // every migration embedded (names checked in migration_order_test)
    CHECK(db->schema_version() == Database::latest_schema_version());
    for (const char* table : {"syndicates", "api_keys", "units", "unit_links", "co_owners"}) {
        SQLite::Statement q(db->sql(), "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
        q.bind(1, table);
        q.executeStep();
        CHECK_MESSAGE(q.getColumn(0).getInt() == 1, table);
    }
    SUBCASE("foreign keys are enforced") {
        CHECK(db->sql().execAndGet("PRAGMA foreign_keys").getInt() == 1);
        CHECK_THROWS(db->sql().exec(
            "INSERT INTO api_keys (id, syndicate_id, name, key_hash, key_prefix, role, scopes, created_at) "
            "VALUES ('k', 'no-such-syndicate', 'n', 'h', 'p', 'member', '*', '2026-01-01T00:00:00Z')"));
    }
}

TEST_CASE("a file database: WAL, foreign keys, busy timeout, shared by several openers") {
    TempDir dir;
    const std::string path = (dir.path / "nested" / "folder" / "syndic.db").string();
    auto db = Database::open(path);  // creates the missing folders
    REQUIRE(std::filesystem::exists(path));
    CHECK(db->path() == path);
    CHECK(db->schema_version() == Database::latest_schema_version());
    CHECK(db->sql().execAndGet("PRAGMA journal_mode").getString() == "wal");
    CHECK(db->sql().execAndGet("PRAGMA foreign_keys").getInt() == 1);
    CHECK(db->sql().execAndGet("PRAGMA busy_timeout").getInt() > 0);

    SUBCASE("a second opener sees the first one's writes and the same settings") {
        auto other = Database::open(path);
        CHECK(other->schema_version() == Database::latest_schema_version());
        CHECK(other->sql().execAndGet("PRAGMA foreign_keys").getInt() == 1);
        CHECK(other->sql().execAndGet("PRAGMA busy_timeout").getInt() > 0);
        CHECK(other->sql().execAndGet("PRAGMA journal_mode").getString() == "wal");

        FixedClock clock(at("2026-11-21T15:00:00Z"));
        const auto id = create_syndicate(*db, clock, "Syndicat A", false);
        CHECK(has_syndicate(*other, id));
        const auto id2 = create_syndicate(*other, clock, "Syndicat B", false);
        CHECK(has_syndicate(*db, id2));
    }
    SUBCASE("a writer does not block another opener's reads") {
        auto other = Database::open(path);
        {
            WriteTransaction tx(*db);
            insert_syndicate(*db, "pending");
            CHECK(count_rows(*other, "syndicates") == 0);  // reads go on, and see the last commit
            tx.commit();
        }
        CHECK(count_rows(*other, "syndicates") == 1);
    }
    SUBCASE("reopening keeps the data and does not migrate again") {
        insert_syndicate(*db, "kept");
        db.reset();
        auto again = Database::open(path);
        CHECK(again->schema_version() == Database::latest_schema_version());
        CHECK(has_syndicate(*again, "kept"));
    }
}

TEST_CASE("WriteTransaction rolls back unless committed") {
    auto db = Database::open(":memory:");
    SUBCASE("not committed: nothing stays") {
        {
            WriteTransaction tx(*db);
            insert_syndicate(*db, "a");
            CHECK(has_syndicate(*db, "a"));
        }
        CHECK_FALSE(has_syndicate(*db, "a"));
    }
    SUBCASE("committed: it stays") {
        {
            WriteTransaction tx(*db);
            insert_syndicate(*db, "a");
            tx.commit();
        }
        CHECK(has_syndicate(*db, "a"));
    }
    SUBCASE("an exception unwinding through it rolls back") {
        try {
            WriteTransaction tx(*db);
            insert_syndicate(*db, "a");
            throw std::runtime_error("refused");
        } catch (const std::runtime_error&) {
        }
        CHECK_FALSE(has_syndicate(*db, "a"));
        // And the connection is usable for the next transaction.
        WriteTransaction tx(*db);
        insert_syndicate(*db, "b");
        tx.commit();
        CHECK(has_syndicate(*db, "b"));
    }
    SUBCASE("a nested transaction is a savepoint: its rollback keeps the outer work") {
        {
            WriteTransaction outer(*db);
            insert_syndicate(*db, "outer");
            {
                WriteTransaction inner(*db);
                insert_syndicate(*db, "inner");
                CHECK(has_syndicate(*db, "inner"));
            }
            CHECK_FALSE(has_syndicate(*db, "inner"));
            CHECK(has_syndicate(*db, "outer"));
            {
                WriteTransaction inner(*db);
                insert_syndicate(*db, "second");
                inner.commit();
            }
            outer.commit();
        }
        CHECK(has_syndicate(*db, "outer"));
        CHECK(has_syndicate(*db, "second"));
        CHECK_FALSE(has_syndicate(*db, "inner"));
    }
    SUBCASE("a committed nested part is undone when the outer one rolls back") {
        {
            WriteTransaction outer(*db);
            insert_syndicate(*db, "outer");
            {
                WriteTransaction inner(*db);
                insert_syndicate(*db, "inner");
                inner.commit();
            }
        }
        CHECK_FALSE(has_syndicate(*db, "outer"));
        CHECK_FALSE(has_syndicate(*db, "inner"));
    }
}

TEST_CASE("recall gives what remember kept only while no connection has changed the data") {
    char pattern[] = "/tmp/syndic-memo-test-XXXXXX";
    const char* made = mkdtemp(pattern);
    REQUIRE(made != nullptr);
    const std::string folder = made;
    {
        auto db = Database::open(folder + "/memo.db");
        auto other = Database::open(folder + "/memo.db");
        db->run("CREATE TABLE t (x INTEGER)");
        const auto value = std::make_shared<const int>(7);

        CHECK(db->recall("k") == nullptr);  // nothing kept yet
        db->remember("k", value, 1);
        CHECK(db->recall("k") == value);
        CHECK(db->recall("other key") == nullptr);

        SUBCASE("a write of this connection drops it") {
            db->run("INSERT INTO t VALUES (1)");
            CHECK(db->recall("k") == nullptr);
            db->remember("k", value, 1);
            CHECK(db->recall("k") == value);
        }
        SUBCASE("a commit of another connection drops it") {
            other->run("INSERT INTO t VALUES (1)");
            CHECK(db->recall("k") == nullptr);
        }
        SUBCASE("a value remembered after the data changed since recall is not kept") {
            CHECK(db->recall("k") == value);
            other->run("INSERT INTO t VALUES (2)");
            db->remember("late", value, 1);
            CHECK(db->recall("late") == nullptr);
        }
        SUBCASE("at most memo_limit values, the oldest dropped first, and no value over the weight limit") {
            for (std::size_t i = 0; i < Database::memo_limit; ++i)
                db->remember("n" + std::to_string(i), std::make_shared<const int>(static_cast<int>(i)), 1);
            CHECK(db->recall("k") == nullptr);  // the oldest
            CHECK(*std::static_pointer_cast<const int>(db->recall("n0")) == 0);
            db->remember("heavy", value, Database::memo_weight_limit + 1);
            CHECK(db->recall("heavy") == nullptr);
            db->remember("half", value, Database::memo_weight_limit / 2 + 1);
            db->remember("other half", value, Database::memo_weight_limit / 2 + 1);
            CHECK(db->recall("half") == nullptr);  // dropped to make room
            CHECK(db->recall("other half") == value);
        }
    }
    std::error_code ec;
    std::filesystem::remove_all(folder, ec);
}

}  // TEST_SUITE

}  // namespace core_database_test
