// What a new user tripped on in the meetings tools (issue 27, item 3): a written resolution's own
// fields repeated with each signature are accepted when they are what was recorded, and only a
// change is refused; instants given as Montreal's local time, and an offset that is not Montreal's
// said in warnings (update_meeting, adjourn_meeting; create_meeting through the executable in
// tests/cli/run_time_arguments.py); a co-owners' meeting's notice without an agenda warned of.
#include "board/board_fixture.hpp"
#include "meetings/meetings_fixture.hpp"

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_new_user_test {

using namespace syndic::test;

namespace {

using Board = OfficersFixture;  // Alice, Bruno and Chloé in office (board_fixture.hpp)

const json resolution = {{"body", "board"}, {"title", "Mandat de gestion"}, {"majorityRequired", "simple"},
                         {"text", "Le conseil confie la gestion courante à Gestion Riverin inc."}};

json signed_by(json args, const json& director, const std::string& day) {
    args["signatures"] = json::array({{{"signerId", director["id"]}, {"signedOn", day}}});
    return args;
}

}  // namespace

TEST_SUITE("meetings-new-user") {

TEST_CASE("record_written_resolution takes the resolution's recorded fields again with each signature") {
    Board fx;
    const auto r = fx.call("record_written_resolution", signed_by(resolution, fx.president, "2026-12-20"));
    REQUIRE(r["status"] == "collecting");
    json again = resolution;
    again["id"] = r["id"];
    again["title"] = "  Mandat de gestion ";  // stored trimmed: the same title
    const auto second = fx.call("record_written_resolution", signed_by(again, fx.secretary, "2026-12-20"));
    CHECK(second["status"] == "collecting");
    CHECK(second["missingSigners"].size() == 1);
    const auto third = fx.call("record_written_resolution", signed_by(again, fx.treasurer, "2026-12-20"));
    CHECK(third["status"] == "adopted");
    CHECK(third["title"] == "Mandat de gestion");
}

TEST_CASE("record_written_resolution refuses a change of the recorded fields, naming the field, and records nothing") {
    Board fx;
    const auto r = fx.call("record_written_resolution", signed_by(resolution, fx.president, "2026-12-20"));
    const std::pair<const char*, json> changes[] = {{"body", "general"},
                                                    {"title", "Autre titre"},
                                                    {"text", "Un autre texte."},
                                                    {"majorityRequired", "absolute"}};
    for (const auto& [key, value] : changes) {
        CAPTURE(key);
        json changed = resolution;
        changed["id"] = r["id"];
        changed[key] = value;
        const auto e = fx.error("record_written_resolution", signed_by(changed, fx.secretary, "2026-12-20"));
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == std::string("/") + key);
    }
    const auto now = fx.call("record_written_resolution", {{"id", r["id"]}});
    CHECK(now["missingSigners"].size() == 2);  // no refused call added its signature
}

TEST_CASE("update_meeting and adjourn_meeting read a local time as Montreal's and warn of another offset") {
    using namespace syndic::test::meeting_fixture;
    Building fx;
    const auto m = fx.meeting();
    const auto moved = fx.call("update_meeting", {{"id", m["id"]}, {"scheduledAt", "2026-12-16T19:00"}});
    CHECK(moved["scheduledAt"] == "2026-12-16T19:00:00-05:00");
    CHECK_FALSE(moved.contains("warnings"));
    const auto summer = fx.call("update_meeting", {{"id", m["id"]}, {"scheduledAt", "2027-06-15T19:00:00-05:00"}});
    CHECK(summer["scheduledAt"] == "2027-06-15T20:00:00-04:00");
    REQUIRE(summer["warnings"].size() == 1);
    CHECK(summer["warnings"][0].get<std::string>().find("2027-06-15T19:00:00-04:00") != std::string::npos);
    fx.call("update_meeting", {{"id", m["id"]}, {"scheduledAt", "2026-12-15T19:00"}});

    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), absent(fx.john)}));  // 30 of 51: no quorum
    fx.clock.set(at("2026-12-16T01:00:00Z"));  // the meeting's evening, 20:00 in Montreal
    const auto r = fx.call("adjourn_meeting", {{"meetingId", m["id"]}, {"reason", "no-quorum"},
                                               {"reconveneAt", "2027-04-12T19:00:00-05:00"}, {"location", "Salle B"}});
    CHECK(r["reconvened"]["scheduledAt"] == "2027-04-12T20:00:00-04:00");
    REQUIRE(r["warnings"].size() == 1);
    CHECK(r["warnings"][0].get<std::string>().find("20:00 in Montreal") != std::string::npos);
}

TEST_CASE("send_meeting_notice warns of a co-owners' meeting's notice without its agenda") {
    using namespace syndic::test::meeting_fixture;
    Building fx;
    const auto bare = fx.meeting({{"agenda", json::array()}});
    const auto sent = fx.notice(bare);
    REQUIRE(sent["warnings"].size() == 1);
    CHECK(sent["warnings"][0].get<std::string>().find("art. 1087") != std::string::npos);
    const auto left_out = fx.notice(fx.meeting(), {{"includeAgenda", false}});
    CHECK(left_out["warnings"].size() == 1);
    CHECK_FALSE(fx.notice(fx.meeting()).contains("warnings"));
}

}  // TEST_SUITE

}  // namespace meetings_new_user_test
