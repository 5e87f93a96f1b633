// Rules read from the schema rather than kept by hand (decisions: "Settings home, references and
// migrations"): the references to a record found from the foreign keys (live_references, and
// delete_unit's guard built on it), and the numbering of the migration files.
#include "fixture.hpp"

#include <stdexcept>

#include "storage/references.hpp"

using namespace syndic;
using namespace syndic::test;

namespace {

std::string refusal_of(const std::vector<std::string>& names) {
    try {
        check_migration_names(names);
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_SUITE("schema-rules") {

TEST_CASE("live_references: every column whose foreign key points at the table, live rows of the syndicate only") {
    Fixture fx;
    const auto unit = fx.unit("101", 10);
    const auto id = unit["id"].get<std::string>();
    CHECK(live_references(*fx.db, "units", id, fx.syndicate).empty());
    const auto owner = fx.co_owner(id, "Marie", "Tremblay");
    fx.co_owner(id, "Jean", "Roy");
    auto refs = live_references(*fx.db, "units", id, fx.syndicate);
    REQUIRE(refs.size() == 1);
    CHECK(refs[0].table == "co_owners");
    CHECK(refs[0].column == "unit_id");
    CHECK(refs[0].count == 2);
    // Archived rows are not a use; another syndicate's rows are not counted for this one.
    fx.call("delete_co_owner", {{"id", owner["id"]}});
    CHECK(live_references(*fx.db, "units", id, fx.syndicate).at(0).count == 1);
    CHECK(live_references(*fx.db, "units", id, fx.other_syndicate).empty());
}

TEST_CASE("delete_unit: a new table referencing units refuses the deletion without an edit to units.cpp") {
    Fixture fx;
    fx.unit("100", 100);  // the fractions still sum to 100 once unit 101 is gone
    const auto unit = fx.unit("101", 0);
    const auto id = unit["id"].get<std::string>();
    // A module that does not exist yet: its table keeps an archive column and its syndicate.
    fx.db->sql().exec(
        "CREATE TABLE parking_permits (id TEXT PRIMARY KEY, syndicate_id TEXT NOT NULL REFERENCES syndicates(id), "
        "unit_id TEXT REFERENCES units(id), deleted_at TEXT) STRICT");
    fx.db->sql().exec("INSERT INTO parking_permits VALUES ('p1', '" + fx.syndicate + "', '" + id + "', NULL)");
    const auto e = fx.error("delete_unit", {{"id", id}});
    CHECK(e.code() == "UNIT_IN_USE");
    CHECK(e.field() == "/id");
    CHECK(e.detail() == "Unit 101 still has 1 record(s) in parking_permits referring to it; delete or move them first.");
    CHECK(figure(e, "activeParkingPermits") == 1);
    CHECK_REFUSED(fx, "UNIT_IN_USE", "delete_unit", (json{{"id", id}}));
    // Archived, the permit no longer holds the unit.
    fx.db->sql().exec("UPDATE parking_permits SET deleted_at = '2026-11-21T15:00:00.000Z'");
    CHECK(fx.call("delete_unit", {{"id", id}})["deletedAt"].is_string());
}

TEST_CASE("delete_unit: today's references answer as before") {
    Fixture fx;
    const auto unit = fx.unit("101", 10);
    fx.co_owner(unit["id"].get<std::string>(), "Marie", "Tremblay");
    const auto e = fx.error("delete_unit", {{"id", unit["id"]}});
    CHECK(e.detail() == "Unit 101 still has 1 active co-owner(s); archive or move them first.");
    CHECK(figure(e, "activeCoOwners") == 1);
    CHECK(e.figures().size() == 1);
}

TEST_CASE("migration names: numbered from 1, without a gap, a duplicate or a name without a number") {
    CHECK(refusal_of({"001_core.sql", "002_meetings.sql", "003_oauth.sql"}).empty());
    CHECK(refusal_of({"003_oauth.sql", "001_core.sql", "002_meetings.sql"}).empty());  // listed in any order
    CHECK(refusal_of({"meetings/002_meetings.sql", "001_core.sql"}).empty());         // in a module's folder
    const auto duplicate = refusal_of({"001_core.sql", "002_a.sql", "002_b.sql"});
    CHECK(duplicate.find("two migration files bring schema version 2: 002_a.sql and 002_b.sql") != std::string::npos);
    const auto gap = refusal_of({"001_core.sql", "002_meetings.sql", "004_list_indexes.sql"});
    CHECK(gap.find("no migration file brings schema version 3 (after 002_meetings.sql), yet 004_list_indexes.sql") !=
          std::string::npos);
    CHECK(refusal_of({"002_meetings.sql"}).find("schema version 1 (the numbers start at 001)") != std::string::npos);
    for (const char* bad : {"core.sql", "x001_core.sql", "001core.sql", "001_core.txt", "000_zero.sql"})
        CHECK(refusal_of({"001_core.sql", bad}).find(std::string("migration file without a number: ") + bad) !=
              std::string::npos);
}

TEST_CASE("the embedded migrations pass the check, and their last number is the schema version") {
    CHECK_NOTHROW(Database::latest_schema_version());
    CHECK(Database::open(":memory:")->schema_version() == Database::latest_schema_version());
}

}  // TEST_SUITE
