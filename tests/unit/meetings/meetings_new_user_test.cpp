// What a new user tripped on in the meetings tools (issue 27, item 3): a written resolution's own
// fields repeated with each signature are accepted when they are what was recorded, and only a
// change is refused.
#include "board/board_fixture.hpp"

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_new_user_test {

using namespace syndic::test;

namespace {

// A board of three: Alice (president), Bruno (secretary), Chloé (treasurer).
struct Board : BoardFixture {
    json president, secretary, treasurer;
    Board() {
        president = appoint_co_owner(alice, "president");
        secretary = appoint_co_owner(bruno, "secretary");
        treasurer = appoint_co_owner(chloe, "treasurer");
        clock.set(at("2026-12-20T15:00:00Z"));  // the directors took office on 2026-12-15
    }
};

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
    const auto r = fx.call("record_written_resolution", signed_by(resolution, fx.president, "2026-12-18"));
    REQUIRE(r["status"] == "collecting");
    json again = resolution;
    again["id"] = r["id"];
    again["title"] = "  Mandat de gestion ";  // stored trimmed: the same title
    const auto second = fx.call("record_written_resolution", signed_by(again, fx.secretary, "2026-12-19"));
    CHECK(second["status"] == "collecting");
    CHECK(second["missingSigners"].size() == 1);
    const auto third = fx.call("record_written_resolution", signed_by(again, fx.treasurer, "2026-12-20"));
    CHECK(third["status"] == "adopted");
    CHECK(third["title"] == "Mandat de gestion");
}

TEST_CASE("record_written_resolution refuses a change of the recorded fields, naming the field, and records nothing") {
    Board fx;
    const auto r = fx.call("record_written_resolution", signed_by(resolution, fx.president, "2026-12-18"));
    const std::pair<const char*, json> changes[] = {{"body", "general"},
                                                    {"title", "Autre titre"},
                                                    {"text", "Un autre texte."},
                                                    {"majorityRequired", "absolute"}};
    for (const auto& [key, value] : changes) {
        CAPTURE(key);
        json changed = resolution;
        changed["id"] = r["id"];
        changed[key] = value;
        const auto e = fx.error("record_written_resolution", signed_by(changed, fx.secretary, "2026-12-19"));
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == std::string("/") + key);
    }
    const auto now = fx.call("record_written_resolution", {{"id", r["id"]}});
    CHECK(now["missingSigners"].size() == 2);  // no refused call added its signature
}

}  // TEST_SUITE

}  // namespace meetings_new_user_test
