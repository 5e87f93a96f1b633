// A director who stops being a co-owner (catalogue §3.0, §4.3): delete_co_owner, where the
// declaration requires directors to be co-owners and the person (records joined by samePersonAs)
// holds no other active record, ends their mandate that day (ownership-ended, director.mandate_ended)
// in the same call; an archived co-owner no longer stays a director in office.
#include "board/board_fixture.hpp"

#include "storage/migration_catalogue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace board_ownership_test {

using namespace syndic::test;

namespace {

std::vector<std::string> board_names(BoardFixture& fx, const std::string& as_of = "") {
    const auto board = as_of.empty() ? fx.call("get_board") : fx.call("get_board", {{"asOf", as_of}});
    std::vector<std::string> out;
    for (const auto& d : board["directors"]) out.push_back(d["name"]);
    return out;
}

// Board migration 003 run again, on rows written as before it.
void run_board_003(BoardFixture& fx) {
    for (const auto& m : syndic::embedded_migration_plan())
        if (m.key == syndic::MigrationKey{"board", 3}) fx.db->sql().exec(std::string(m.sql));
}

// A co-owner record archived at `instant` as the old delete_co_owner left it: the director kept.
void archive_as_before(BoardFixture& fx, const json& co_owner, const std::string& instant) {
    SQLite::Statement q(fx.db->sql(), "UPDATE co_owners SET deleted_at = ?, updated_at = ? WHERE id = ?");
    q.bind(1, instant);
    q.bind(2, instant);
    q.bind(3, co_owner["id"].get<std::string>());
    q.exec();
}

}  // namespace

TEST_SUITE("board") {

TEST_CASE("delete_co_owner ends the mandate of a director who is no longer a co-owner") {
    BoardFixture fx;
    fx.declare({{"directorsMustBeCoOwners", true}});
    const auto d = fx.appoint_co_owner(fx.alice, "president", {{"termStart", "2026-11-01"}});
    fx.appoint_co_owner(fx.bruno, "director", {{"termStart", "2026-11-01"}});
    const auto result = fx.call("delete_co_owner", {{"id", fx.alice["id"]}});
    REQUIRE(result["directorMandatesEnded"].size() == 1);
    const auto ended = result["directorMandatesEnded"][0];
    CHECK(ended["id"] == d["id"]);
    CHECK(ended["status"] == "ended");
    CHECK(ended["endReason"] == "ownership-ended");
    CHECK(ended["endedOn"] == "2026-11-21");  // the day of the call
    CHECK(board_names(fx) == std::vector<std::string>{"Bruno Côté"});
    CHECK(board_names(fx, "2026-11-20") == std::vector<std::string>{"Alice Roy", "Bruno Côté"});  // history kept
    // The board's event, with the director as the board shows it, in the same call as the archive.
    const auto event = fx.last_event("director.mandate_ended");
    CHECK(event["recordId"] == d["id"]);
    CHECK(event["tool"] == "delete_co_owner");
    CHECK(event["data"]["endReason"] == "ownership-ended");
    CHECK(fx.count_events("co_owner.archived") == 1);
    // An archived co-owner is refused again, and that changes nothing.
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "delete_co_owner", json({{"id", fx.alice["id"]}}));
}

TEST_CASE("where the declaration allows outside directors, the director stays") {
    BoardFixture fx;
    const auto d = fx.appoint_co_owner(fx.alice, "director", {{"termStart", "2026-11-01"}});
    const auto result = fx.call("delete_co_owner", {{"id", fx.alice["id"]}});
    CHECK_FALSE(result.contains("directorMandatesEnded"));
    CHECK(board_names(fx) == std::vector<std::string>{"Alice Roy"});
    CHECK(fx.count_events("director.mandate_ended") == 0);
    CHECK(fx.call("update_director", {{"id", d["id"]}, {"phone", "1"}})["status"] == "active");
}

TEST_CASE("the person, not the record: a director holding another unit stays until the last record goes") {
    BoardFixture fx;
    fx.declare({{"directorsMustBeCoOwners", true}});
    const auto p1 = fx.unit("P-1", 0, "parking");
    const auto alice_parking = fx.co_owner(p1["id"], "Alice", "Roy", {{"samePersonAs", fx.alice["id"]}});
    const auto d = fx.appoint_co_owner(fx.alice, "president", {{"termStart", "2026-11-01"}});
    // The director's own record goes; the person still holds the parking space.
    CHECK_FALSE(fx.call("delete_co_owner", {{"id", fx.alice["id"]}}).contains("directorMandatesEnded"));
    CHECK(board_names(fx) == std::vector<std::string>{"Alice Roy"});
    // The last record goes: the person is no longer a co-owner, joined through the archived record.
    const auto result = fx.call("delete_co_owner", {{"id", alice_parking["id"]}});
    REQUIRE(result["directorMandatesEnded"].size() == 1);
    CHECK(result["directorMandatesEnded"][0]["id"] == d["id"]);
    CHECK(board_names(fx).empty());
    // Another co-owner's archive leaves other directors alone.
    const auto b = fx.appoint_co_owner(fx.bruno, "director", {{"termStart", "2026-11-01"}});
    CHECK_FALSE(fx.call("delete_co_owner", {{"id", fx.chloe["id"]}}).contains("directorMandatesEnded"));
    CHECK(board_names(fx) == std::vector<std::string>{"Bruno Côté"});
    CHECK(b["status"] == "active");
}

TEST_CASE("board 003: a director kept in office by an archived co-owner record leaves on the archive's day") {
    BoardFixture fx;
    fx.declare({{"directorsMustBeCoOwners", true}});
    const auto summer = fx.appoint_co_owner(fx.alice, "president", {{"termStart", "2026-01-01"}});
    const auto winter = fx.appoint_co_owner(fx.bruno, "director", {{"termStart", "2026-01-01"}});
    const auto later = fx.appoint_co_owner(fx.chloe, "director", {{"termStart", "2026-11-20"}});
    archive_as_before(fx, fx.alice, "2026-07-02T04:30:00.000Z");  // 00:30 on 2 July in Montreal (EDT)
    archive_as_before(fx, fx.bruno, "2026-01-15T04:30:00.000Z");  // 23:30 on 14 January (EST)
    archive_as_before(fx, fx.chloe, "2026-03-08T06:30:00.000Z");  // before its term began
    run_board_003(fx);
    const auto day_of = [&](const json& d) {
        SQLite::Statement q(fx.db->sql(), "SELECT ended_on || ' ' || end_reason FROM directors WHERE id = ?");
        q.bind(1, d["id"].get<std::string>());
        q.executeStep();
        return q.getColumn(0).getString();
    };
    CHECK(day_of(summer) == "2026-07-02 ownership-ended");
    CHECK(day_of(winter) == "2026-01-14 ownership-ended");
    CHECK(day_of(later) == "2026-11-20 ownership-ended");
    CHECK(board_names(fx).empty());
    // Where the declaration allows outside directors, they stay.
    BoardFixture open;
    open.appoint_co_owner(open.alice, "director", {{"termStart", "2026-01-01"}});
    archive_as_before(open, open.alice, "2026-07-02T03:30:00.000Z");
    run_board_003(open);
    CHECK(board_names(open) == std::vector<std::string>{"Alice Roy"});
}

TEST_CASE("a mandate not begun yet ends on the day it would have begun") {
    BoardFixture fx;
    fx.declare({{"directorsMustBeCoOwners", true}});
    fx.appoint_co_owner(fx.alice, "director", {{"termStart", "2027-01-01"}});
    const auto result = fx.call("delete_co_owner", {{"id", fx.alice["id"]}});
    REQUIRE(result["directorMandatesEnded"].size() == 1);
    CHECK(result["directorMandatesEnded"][0]["endedOn"] == "2027-01-01");
    CHECK(board_names(fx, "2027-01-01").empty());
}

}

}  // namespace board_ownership_test
