// Secrets at rest (issue 15, section 3), at the storage layer: a new database file is its owner's
// alone whatever the umask, and a database of a newer schema is refused at open and left as it
// was. The command line's side is in tests/secrets/run_secrets_tests.py.
#include <doctest/doctest.h>

#include <SQLiteCpp/Database.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "core/ids.hpp"
#include "storage/database.hpp"
#include "storage/file_modes.hpp"
#include "storage/legacy_versions.hpp"
#include "storage/migration_history.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace secrets_test {

using namespace syndic;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("syndic-secrets-test-" + new_uuid());
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

fs::perms mode_of(const fs::path& p) { return fs::status(p).permissions() & fs::perms::all; }

}  // namespace

TEST_SUITE("secrets") {

TEST_CASE("a new file database is its owner's alone (0600, folders made 0700), whatever the umask") {
    TempDir dir;
    const std::string path = (dir.path / "made" / "syndic.db").string();
    const mode_t before = ::umask(0);
    { auto db = Database::open(path); }
    write_private_file((dir.path / "made" / "key").string(), "secret\n");
    ::umask(before);
    CHECK(mode_of(path) == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(mode_of(dir.path / "made") == fs::perms::owner_all);
    CHECK(mode_of(dir.path) == fs::perms::owner_all);
    CHECK(mode_of(dir.path / "made" / "key") == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(files_readable_by_others(path).empty());
    fs::permissions(path, fs::perms::group_read | fs::perms::others_read, fs::perm_options::add);
    CHECK(files_readable_by_others(path) == std::vector<std::string>{path});
}

TEST_CASE("a database of a newer schema is refused at open, naming both versions, and left as it was") {
    TempDir dir;
    const std::string path = (dir.path / "syndic.db").string();
    Database::open(path)->sql().exec("PRAGMA user_version = 99");
    CHECK_THROWS_WITH_AS(Database::open(path), doctest::Contains("schema version 99"), std::runtime_error);
    const std::string ours = "(schema version " + std::to_string(Database::latest_schema_version()) + ")";
    CHECK_THROWS_WITH_AS(Database::open(path), doctest::Contains(ours.c_str()), std::runtime_error);
    SQLite::Database raw(path, SQLite::OPEN_READONLY);
    CHECK(raw.execAndGet("PRAGMA user_version").getInt() == 99);
}

TEST_CASE("the schema objects of each version are those its migrations make") {
    auto db = Database::open(":memory:");
    const auto now = Database::schema_objects(db->sql());
    CHECK(now == Database::schema_objects_at(applied_migrations(db->sql(), embedded_migration_plan()).known));
    CHECK(now.count("table signing_keys") == 1);
    CHECK(now.at("table signing_keys").find("private_pem") == std::string::npos);
    CHECK(Database::schema_objects_at(legacy_migrations(8)).at("table signing_keys").find("private_pem") != std::string::npos);
    CHECK(Database::schema_objects_at(legacy_migrations(2)).count("table signing_keys") == 0);
}

}  // TEST_SUITE

}  // namespace secrets_test
