// What a database has applied (storage/migration_history.hpp): migrations applied in the plan's
// order and recorded in schema_migrations, a database of a globally numbered schema version
// (PRAGMA user_version 1..20) upgraded in place with its data, a newer database refused, and
// restore's schema check by the migrations a backup has.
#include <doctest/doctest.h>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "legacy_database.hpp"
#include "storage/backup.hpp"
#include "storage/database.hpp"
#include "storage/migration_history.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace migration_history_test {

using namespace syndic;
using syndic::test::make_legacy_database;

namespace {

using Graph = std::map<std::string, std::vector<std::string>>;

struct TempDir {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("syndic-migrations-" + new_uuid());
    TempDir() { std::filesystem::create_directories(path); }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string file(const char* name) const { return (path / name).string(); }
};

std::string_view history_table_sql() {
    for (const auto& m : embedded_migration_plan())
        if (m.name == "core/009_schema_migrations.sql") return m.sql;
    FAIL("no core/009_schema_migrations.sql");
    return "";
}

// "name" of every recorded migration, with " (before)" when an older syndic-mcp applied it.
std::vector<std::string> recorded(SQLite::Database& db) {
    std::vector<std::string> out;
    SQLite::Statement q(db, "SELECT name, applied_at IS NULL FROM schema_migrations ORDER BY module, number");
    while (q.executeStep()) out.push_back(q.getColumn(0).getString() + (q.getColumn(1).getInt() ? " (before)" : ""));
    return out;
}

// The names of the recorded migrations in the order the database applied them.
std::vector<std::string> applied_order(SQLite::Database& db) {
    std::vector<std::string> out;
    SQLite::Statement q(db, "SELECT name FROM schema_migrations ORDER BY seq");
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
    return out;
}

// The schema `keys` make when run in the plan's order (a new database's), whatever order they are in.
std::map<std::string, std::string> schema_in_plan_order(const std::vector<MigrationKey>& keys) {
    SQLite::Database db(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    for (const auto& m : embedded_migration_plan())
        if (std::find(keys.begin(), keys.end(), m.key) != keys.end()) db.exec(std::string(m.sql));
    return schema_objects(db);
}

int user_version(SQLite::Database& db) { return db.execAndGet("PRAGMA user_version").getInt(); }

bool has_table(SQLite::Database& db, const std::string& name) { return db.tableExists(name); }

// A syndicate, a unit, a co-owner and (from schema version 2) a meeting, in any schema version.
void add_rows(SQLite::Database& db, int version) {
    db.exec("INSERT INTO syndicates (id, name, created_at) VALUES ('s1', 'Les Érables', '2026-01-01T00:00:00.000Z')");
    db.exec("INSERT INTO units (id, syndicate_id, number, type, fraction_units, created_at, updated_at) VALUES "
            "('u1', 's1', '101', 'apartment', 100000000, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')");
    db.exec("INSERT INTO co_owners (id, syndicate_id, unit_id, first_name, last_name, fraction_units, search_text, sort_key, "
            "created_at, updated_at) VALUES ('c1', 's1', 'u1', 'Marie', 'Tremblay', 100000000, 'marie tremblay', "
            "'tremblay marie', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')");
    if (version >= 2)
        db.exec("INSERT INTO meetings (id, syndicate_id, title, type, scheduled_at, location, created_at, updated_at) VALUES "
                "('m1', 's1', 'AGA 2026', 'aga', '2026-03-16T23:00:00.000Z', 'Salle', '2026-01-01T00:00:00.000Z', "
                "'2026-01-01T00:00:00.000Z')");
}

std::string restore_refusal(const std::string& backup, const std::string& target) {
    std::string saved_as;
    try {
        restore_database(backup, target, false, saved_as);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_SUITE("migrations") {

TEST_CASE("two modules built side by side, each with its own 001: both applied and recorded, then only what is new") {
    SQLite::Database db(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    std::vector<EmbeddedFile> files = {{"core/001_history.sql", history_table_sql()},
                                       {"parking/001_permits.sql", "CREATE TABLE permits (id TEXT PRIMARY KEY) STRICT;"},
                                       {"lockers/001_lockers.sql", "CREATE TABLE lockers (id TEXT PRIMARY KEY) STRICT;"}};
    const Graph graph = {{"lockers", {}}, {"parking", {}}};
    apply_migrations(db, ":memory:", order_migrations(files, graph));
    CHECK(has_table(db, "permits"));
    CHECK(has_table(db, "lockers"));
    CHECK(recorded(db) == std::vector<std::string>{"core/001_history.sql", "lockers/001_lockers.sql", "parking/001_permits.sql"});
    CHECK(user_version(db) == 3);

    files.push_back({"lockers/002_sizes.sql", "ALTER TABLE lockers ADD COLUMN size TEXT;"});
    apply_migrations(db, ":memory:", order_migrations(files, graph));
    CHECK(applied_order(db).back() == "lockers/002_sizes.sql");  // after all the database had
    CHECK(recorded(db).size() == 4);
    CHECK(user_version(db) == 4);
    CHECK_NOTHROW(apply_migrations(db, ":memory:", order_migrations(files, graph)));  // nothing runs twice
}

TEST_CASE("a module's migrations run after those of the modules it depends on") {
    const std::vector<EmbeddedFile> files = {
        {"core/001_history.sql", history_table_sql()},
        {"alpha/001_copies.sql", "CREATE TABLE copies (id TEXT) STRICT; INSERT INTO copies SELECT id FROM originals;"},
        {"zulu/001_originals.sql", "CREATE TABLE originals (id TEXT) STRICT; INSERT INTO originals VALUES ('z');"}};
    SQLite::Database db(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    SUBCASE("with the dependency declared, alpha reads what zulu made") {
        apply_migrations(db, ":memory:", order_migrations(files, {{"alpha", {"zulu"}}, {"zulu", {}}}));
        CHECK(db.execAndGet("SELECT group_concat(id) FROM copies").getString() == "z");
        CHECK(applied_order(db) == std::vector<std::string>{"core/001_history.sql", "zulu/001_originals.sql", "alpha/001_copies.sql"});
    }
    SUBCASE("without it, alpha runs first (by id) and fails; nothing is left applied") {
        CHECK_THROWS_WITH(apply_migrations(db, ":memory:", order_migrations(files, {{"alpha", {}}, {"zulu", {}}})),
                          doctest::Contains("no such table: originals"));
        CHECK_FALSE(has_table(db, "schema_migrations"));
        CHECK_FALSE(has_table(db, "copies"));
    }
}

TEST_CASE("a database of schema version 8, 15 or 20 upgrades in place: exactly its migrations recorded, its data kept") {
    const auto fresh = schema_objects(Database::open(":memory:")->sql());
    for (const int version : {8, 15, 20}) {
        CAPTURE(version);
        TempDir dir;
        const auto path = dir.file("old.db");
        {
            SQLite::Database old(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            make_legacy_database(old, version);
            add_rows(old, version);
        }
        auto db = Database::open(path);
        CHECK(db->schema_version() == Database::latest_schema_version());
        std::set<std::string> before, after;
        for (const auto& name : recorded(db->sql()))
            (name.ends_with(" (before)") ? before : after).insert(name.substr(0, name.find(' ')));
        std::set<std::string> had;
        for (const auto& key : legacy_migrations(version))
            for (const auto& m : embedded_migration_plan())
                if (m.key == key) had.insert(std::string(m.name));
        CHECK(before == had);
        const auto order = applied_order(db->sql());  // those it had first, in the order they ran
        CHECK(std::set<std::string>(order.begin(), order.begin() + static_cast<long>(had.size())) == had);
        CHECK(before.size() + after.size() == static_cast<std::size_t>(Database::latest_schema_version()));
        CHECK(after.count("core/009_schema_migrations.sql") == 1);
        CHECK(db->sql().execAndGet("SELECT name FROM syndicates WHERE id = 's1'").getString() == "Les Érables");
        CHECK(db->sql().execAndGet("SELECT last_name FROM co_owners WHERE id = 'c1'").getString() == "Tremblay");
        CHECK(db->sql().execAndGet("SELECT title FROM meetings WHERE id = 'm1'").getString() == "AGA 2026");
        CHECK(schema_objects(db->sql()) == fresh);
        // Opened again, nothing more is applied and nothing is recorded twice.
        db.reset();
        db = Database::open(path);
        CHECK(recorded(db->sql()).size() == static_cast<std::size_t>(Database::latest_schema_version()));
    }
}

TEST_CASE("every globally numbered version: the migrations it maps to make its schema, and upgrade to today's") {
    const auto fresh = schema_objects(Database::open(":memory:")->sql());
    for (int version = 1; version <= last_legacy_version; ++version) {
        CAPTURE(version);
        SQLite::Database old(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        make_legacy_database(old, version);
        // Restore's check replays them in the order they ran; in a new database's order they make
        // the same schema.
        CHECK(schema_objects(old) == Database::schema_objects_at(legacy_migrations(version)));
        CHECK(schema_objects(old) == schema_in_plan_order(legacy_migrations(version)));
        apply_migrations(old, ":memory:", embedded_migration_plan());
        CHECK(schema_objects(old) == fresh);
        CHECK(user_version(old) == Database::latest_schema_version());
    }
}

TEST_CASE("a database a newer syndic-mcp wrote is refused at open and left as it was") {
    TempDir dir;
    const auto path = dir.file("newer.db");
    const auto ours = "(schema version " + std::to_string(Database::latest_schema_version()) + ")";
    SUBCASE("it records a migration this one does not know") {
        {
            auto db = Database::open(path);
            db->sql().exec("INSERT INTO schema_migrations (module, number, name, seq, applied_at) VALUES "
                           "('parking', 1, 'parking/001_permits.sql', 1000, '2027-01-01T00:00:00.000Z')");
        }
        const auto unknown = "with migrations unknown to this syndic-mcp's " + ours + ": parking/1";
        CHECK_THROWS_WITH_AS(Database::open(path), doctest::Contains(unknown.c_str()), std::runtime_error);
        CHECK_THROWS_WITH_AS(Database::open(path), doctest::Contains("written by a newer syndic-mcp"), std::runtime_error);
        SQLite::Database raw(path, SQLite::OPEN_READONLY);
        CHECK(raw.execAndGet("SELECT count(*) FROM schema_migrations").getInt() == Database::latest_schema_version() + 1);
    }
    SUBCASE("it has no records and a user_version past the globally numbered ones") {
        {
            SQLite::Database raw(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            raw.exec("PRAGMA user_version = " + std::to_string(last_legacy_version + 1));
        }
        const auto newer = "schema version 21, newer than this syndic-mcp's " + ours;
        CHECK_THROWS_WITH_AS(Database::open(path), doctest::Contains(newer.c_str()), std::runtime_error);
        SQLite::Database raw(path, SQLite::OPEN_READONLY);
        CHECK_FALSE(raw.tableExists("syndicates"));
    }
}

TEST_CASE("restore checks a backup's schema against the migrations it has, recorded or of its old version") {
    TempDir dir;
    const auto backup = dir.file("backup.db");
    const auto target = dir.file("restored.db");
    SUBCASE("a backup of schema version 8 restores, brought to today's schema with its rows") {
        {
            SQLite::Database old(backup, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            make_legacy_database(old, 8);
            add_rows(old, 8);
        }
        std::string saved_as;
        const auto summary = restore_database(backup, target, false, saved_as);
        CHECK(summary.schema_version == Database::latest_schema_version());
        CHECK(summary.rows.at("co_owners") == 1);
        CHECK(summary.rows.at("schema_migrations") == Database::latest_schema_version());
    }
    SUBCASE("...not with an object its version never had") {
        {
            SQLite::Database old(backup, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
            make_legacy_database(old, 8);
            add_rows(old, 8);
            old.exec("CREATE VIEW spy AS SELECT * FROM co_owners");
        }
        CHECK(restore_refusal(backup, target).find("objects it should not have: view spy") != std::string::npos);
    }
    SUBCASE("a backup without an object of a migration it records is refused") {
        {
            auto db = Database::open(backup);
            add_rows(db->sql(), 20);
            db->sql().exec("DROP TABLE ballots");
        }
        CHECK(restore_refusal(backup, target).find("objects missing: table ballots") != std::string::npos);
    }
    SUBCASE("a backup recording a migration this one does not know is refused as newer") {
        {
            auto db = Database::open(backup);
            add_rows(db->sql(), 20);
            db->sql().exec("INSERT INTO schema_migrations (module, number, name, seq) VALUES "
                           "('parking', 1, 'parking/001_permits.sql', 1000)");
        }
        const auto why = restore_refusal(backup, target);
        CHECK(why.find("comes from a newer syndic-mcp") != std::string::npos);
        CHECK(why.find("parking/1") != std::string::npos);
    }
}

}  // TEST_SUITE

}  // namespace migration_history_test
