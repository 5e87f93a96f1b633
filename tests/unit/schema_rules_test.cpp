// Rules read from the schema rather than kept by hand (decisions: "Settings home, references and
// migrations"): the references to a record found from the foreign keys (live_references, and
// delete_unit's guard built on it). The migrations' numbering: migration_order_test.cpp.
#include "fixture.hpp"

#include "storage/references.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace schema_rules_test {

using namespace syndic;
using namespace syndic::test;

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

}  // TEST_SUITE

}  // namespace schema_rules_test
