// The meetings module's attendance and quorum (interface 2.4): record_attendance (present, by proxy,
// absent; names and fractions kept as recorded) and calculate_quorum against the syndicate's
// required share. Every call goes through the registry, as a client's would.
#include "meetings/meetings_fixture.hpp"
#include "storage/settings.hpp"

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_attendance_quorum_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

TEST_SUITE("meetings") {

TEST_CASE("record_attendance") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("refused while the meeting is a draft") {
        const json args = {{"meetingId", m["id"]}, {"attendees", json::array({present(fx.emilie)})}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_attendance", args);
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("present, by proxy and absent; the result carries the quorum") {
        fx.notice(m);
        const auto r = fx.attend(m, json::array({absent(fx.marc), by_proxy(fx.francois, "Émilie Bélanger"), present(fx.emilie)}));
        REQUIRE(r["attendees"].size() == 3);
        CHECK(r["attendees"][0]["name"] == "Émilie Bélanger");
        CHECK(r["attendees"][0]["attendance"] == "present");
        CHECK(r["attendees"][0]["proxyHolder"].is_null());
        CHECK(r["attendees"][1]["name"] == "François Côté");
        CHECK(r["attendees"][1]["attendance"] == "proxy");
        CHECK(r["attendees"][1]["proxyHolder"] == "Émilie Bélanger");
        CHECK(r["attendees"][1]["fractionPercent"] == 21);
        CHECK(r["attendees"][2]["name"] == "Marc Gagnon");
        CHECK(r["attendees"][2]["attendance"] == "absent");
        CHECK(r["quorum"] == json{{"basis", "votes"}, {"present", 30}, {"proxied", 21}, {"total", 51}, {"required", 51}, {"quorumReached", true}, {"votingBase", 100}, {"suspended", 0}, {"rule", "standard"}, {"majorityOfAllVotes", true}});
        CHECK(r["quorumPercent"] == 51);
        CHECK(fx.get(m)["attendees"] == r["attendees"]);
        // Later calls add to the list.
        const auto more = fx.attend(m, json::array({present(fx.john)}));
        CHECK(more["attendees"].size() == 4);
        CHECK(more["quorum"]["present"] == 55);
        CHECK(more["quorum"]["total"] == 76);
    }
    SUBCASE("also once the meeting is held") {
        fx.notice(m);
        fx.held(m);
        CHECK(fx.attend(m, json::array({present(fx.john)}))["attendees"].size() == 1);
    }
    SUBCASE("re-recording a co-owner replaces their line") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), present(fx.john)}));
        const auto r = fx.attend(m, json::array({by_proxy(fx.emilie, "Hélène Dubé")}));
        REQUIRE(r["attendees"].size() == 2);
        CHECK(r["attendees"][0]["coOwnerId"] == fx.emilie["id"]);
        CHECK(r["attendees"][0]["attendance"] == "proxy");
        CHECK(r["attendees"][0]["proxyHolder"] == "Hélène Dubé");
        CHECK(r["quorum"]["present"] == 25);
        CHECK(r["quorum"]["proxied"] == 30);
        const auto back = fx.attend(m, json::array({present(fx.emilie)}));
        CHECK(back["attendees"][0]["attendance"] == "present");
        CHECK(back["attendees"][0]["proxyHolder"].is_null());
        CHECK(fx.count("SELECT count(*) FROM meeting_attendees WHERE meeting_id = ?", m["id"]) == 2);
    }
    SUBCASE("name and fraction are kept as recorded, even when the co-owner changes or is archived") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Marc Gagnon")}));
        fx.call("update_co_owner", {{"id", fx.emilie["id"]}, {"lastName", "Bélanger-Roy"}, {"fractionPercent", 25}});
        fx.call("delete_co_owner", {{"id", fx.francois["id"]}});
        const auto g = fx.get(m);
        REQUIRE(g["attendees"].size() == 2);
        CHECK(g["attendees"][0]["name"] == "Émilie Bélanger");
        CHECK(g["attendees"][0]["fractionPercent"] == 30);
        CHECK(g["attendees"][1]["name"] == "François Côté");
        CHECK(g["attendees"][1]["fractionPercent"] == 21);
        CHECK(fx.quorum(m)["total"] == 51);
        CHECK(g["quorumPercent"] == 51);
        // Recording Émilie again takes her name and fraction as they are now.
        const auto again = fx.attend(m, json::array({present(fx.emilie)}));
        CHECK(again["attendees"][0]["name"] == "Émilie Bélanger-Roy");
        CHECK(again["attendees"][0]["fractionPercent"] == 25);
    }
    SUBCASE("proxy needs a proxyHolder; present and absent take none") {
        fx.notice(m);
        for (const auto& row : {json{{"coOwnerId", fx.emilie["id"]}, {"attendance", "proxy"}},
                                json{{"coOwnerId", fx.emilie["id"]}, {"attendance", "proxy"}, {"proxyHolder", nullptr}},
                                json{{"coOwnerId", fx.emilie["id"]}, {"attendance", "proxy"}, {"proxyHolder", "   "}}}) {
            CAPTURE(row.dump());
            const json args = {{"meetingId", m["id"]}, {"attendees", json::array({present(fx.john), row})}};
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", args);
            CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/1/proxyHolder"));
        }
        for (const char* attendance : {"present", "absent"}) {
            CAPTURE(attendance);
            const json args = {{"meetingId", m["id"]},
                               {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]},
                                                           {"attendance", attendance},
                                                           {"proxyHolder", "Hélène Dubé"}}})}};
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", args);
            CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/0/proxyHolder"));
        }
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("a co-owner listed twice is refused") {
        fx.notice(m);
        const json args = {{"meetingId", m["id"]},
                           {"attendees", json::array({present(fx.emilie), present(fx.john), absent(fx.emilie)})}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", args);
        CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/2/coOwnerId"));
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("CO_OWNER_NOT_FOUND: unknown, archived, or another syndicate's; nothing of the call is kept") {
        fx.notice(m);
        const auto b_unit = fx.call_as(fx.other_admin, "create_unit", {{"number", "101"}, {"type", "apartment"}});
        const auto b_owner = fx.call_as(fx.other_admin, "create_co_owner",
                                        {{"unitId", b_unit["id"]}, {"firstName", "Paul"}, {"lastName", "Roy"}});
        for (const auto& id : {json(unknown_id), fx.zoe["id"], b_owner["id"], fx.u101["id"]}) {
            CAPTURE(id.dump());
            const json args = {{"meetingId", m["id"]},
                               {"attendees", json::array({present(fx.emilie), {{"coOwnerId", id}, {"attendance", "present"}}})}};
            CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_attendance", args);
            CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/1/coOwnerId"));
        }
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "record_attendance",
                      (json{{"meetingId", unknown_id}, {"attendees", json::array({present(fx.emilie)})}}));
    }
    SUBCASE("schema rejection") {
        fx.notice(m);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]}, {"attendees", json::array()}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]},
                            {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]}, {"attendance", "late"}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]}, {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]},
                            {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]}, {"attendance", "present"}, {"seat", 4}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", (json{{"meetingId", m["id"]}}));
    }
}

TEST_CASE("calculate_quorum") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("nothing recorded: nobody, required 51, not reached") {
        CHECK(fx.quorum(m) == json{{"basis", "votes"}, {"present", 0}, {"proxied", 0}, {"total", 0}, {"required", 51}, {"quorumReached", false}, {"votingBase", 100}, {"suspended", 0}, {"rule", "standard"}, {"majorityOfAllVotes", false}});
    }
    SUBCASE("present + proxied against the required quorum; absent counts for nothing") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Émilie Bélanger"), absent(fx.marc),
                                  absent(fx.john)}));
        // 30 + 21 = 51: exactly the required quorum is reached.
        CHECK(fx.quorum(m) == json{{"basis", "votes"}, {"present", 30}, {"proxied", 21}, {"total", 51}, {"required", 51}, {"quorumReached", true}, {"votingBase", 100}, {"suspended", 0}, {"rule", "standard"}, {"majorityOfAllVotes", true}});
        CHECK(fx.get(m)["quorumPercent"] == 51);

        // François's share becomes 20.999999: once recorded again, 50.999999 is not enough.
        fx.call("update_co_owner", {{"id", fx.francois["id"]}, {"fractionPercent", 20.999999}});
        CHECK(fx.quorum(m)["total"] == 51);  // attendance keeps what was recorded
        fx.attend(m, json::array({by_proxy(fx.francois, "Émilie Bélanger")}));
        const auto q = fx.quorum(m);
        CHECK(q["present"] == 30);
        CHECK(q["proxied"] == 20.999999);
        CHECK(q["total"] == 50.999999);
        CHECK(q["required"] == 51);
        CHECK(q["quorumReached"] == false);
        CHECK(fx.get(m)["quorumPercent"] == 50.999999);

        // A syndicate whose declaration sets 40 %.
        set_setting(*fx.db, fx.syndicate, "requiredQuorumPercent", 40, "2026-11-21T15:00:00.000Z");
        const auto q40 = fx.quorum(m);
        CHECK(q40["required"] == 40);
        CHECK(q40["total"] == 50.999999);
        CHECK(q40["quorumReached"] == true);
        // Syndicate B keeps 51.
        const auto b = fx.meeting({}, &fx.other_admin);
        CHECK(fx.call_as(fx.other_admin, "calculate_quorum", {{"meetingId", b["id"]}})["required"] == 51);
    }
    SUBCASE("only absences: zero") {
        fx.notice(m);
        fx.attend(m, json::array({absent(fx.emilie), absent(fx.john)}));
        CHECK(fx.quorum(m) == json{{"basis", "votes"}, {"present", 0}, {"proxied", 0}, {"total", 0}, {"required", 51}, {"quorumReached", false}, {"votingBase", 100}, {"suspended", 0}, {"rule", "standard"}, {"majorityOfAllVotes", false}});
    }
    SUBCASE("everyone: 100") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), present(fx.francois), by_proxy(fx.john, "x"), by_proxy(fx.marc, "y")}));
        CHECK(fx.quorum(m) == json{{"basis", "votes"}, {"present", 51}, {"proxied", 49}, {"total", 100}, {"required", 51}, {"quorumReached", true}, {"votingBase", 100}, {"suspended", 0}, {"rule", "standard"}, {"majorityOfAllVotes", true}});
    }
    SUBCASE("read-only and needs read:meetings") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:meetings"}, syndic::Role::member};
        CHECK(fx.call_as(reader, "calculate_quorum", {{"meetingId", m["id"]}})["required"] == 51);
        const syndic::CallerContext other{fx.syndicate, "key-co", {"read:co-owners"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, other, "INSUFFICIENT_SCOPE", "calculate_quorum", (json{{"meetingId", m["id"]}}));
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "calculate_quorum", (json{{"meetingId", unknown_id}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "calculate_quorum", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "calculate_quorum", (json{{"meetingId", m["id"]}, {"required", 40}}));
    }
}

}  // TEST_SUITE

}  // namespace meetings_attendance_quorum_test
