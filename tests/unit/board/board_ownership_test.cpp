// A director who stops being a co-owner (catalogue §3.0, §4.3): delete_co_owner, where the
// declaration requires directors to be co-owners and the person (records joined by samePersonAs)
// holds no other active record, ends their mandate that day (ownership-ended, director.mandate_ended)
// in the same call; an archived co-owner no longer stays a director in office.
#include "board/board_fixture.hpp"

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
