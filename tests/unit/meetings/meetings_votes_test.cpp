// The meetings module's resolutions and votes (interface 2.5; decisions 3): add_resolution's
// numbering and record_votes' simple, absolute and special majorities, exact to the millionth.
// Every call goes through the registry, as a client's would.
#include "meetings/meetings_fixture.hpp"

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_votes_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

TEST_SUITE("meetings") {

TEST_CASE("add_resolution") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("numbered 1, 2, 3 in order, pending until voted") {
        const auto r1 = fx.resolution(m, "Approbation des états financiers 2025", "simple",
                                      "Il est résolu d'approuver les états financiers de l'exercice 2025.");
        const auto r2 = fx.resolution(m, "Réfection de la toiture", "absolute");
        const auto r3 = fx.resolution(m, "Modification de la déclaration", "special", "Texte complet.");
        CHECK(r1["number"] == 1);
        CHECK(r2["number"] == 2);
        CHECK(r3["number"] == 3);
        CHECK(r1["meetingId"] == m["id"]);
        CHECK(r1["title"] == "Approbation des états financiers 2025");
        CHECK(r1["description"] == "Il est résolu d'approuver les états financiers de l'exercice 2025.");
        CHECK(r1["majorityRequired"] == "simple");
        CHECK(r2["majorityRequired"] == "absolute");
        CHECK(r2["description"] == "");
        CHECK(r3["majorityRequired"] == "special");
        for (const auto& r : {r1, r2, r3}) {
            CHECK(r["outcome"] == "pending");
            CHECK(r["votesRecorded"] == false);
            CHECK(r["votesFor"] == 0);
            CHECK(r["votesAgainst"] == 0);
            CHECK(r["votesAbstain"] == 0);
        }
        const auto g = fx.get(m);
        REQUIRE(g["resolutions"].size() == 3);
        CHECK(g["resolutions"][0] == r1);
        CHECK(g["resolutions"][1] == r2);
        CHECK(g["resolutions"][2] == r3);
        // Another meeting numbers from 1.
        CHECK(fx.resolution(fx.meeting({{"title", "Autre"}}), "Budget", "simple")["number"] == 1);
    }
    SUBCASE("allowed while notice-sent and held; refused once the minutes are sent") {
        fx.notice(m);
        CHECK(fx.resolution(m, "Budget", "simple")["number"] == 1);
        fx.held(m);
        CHECK(fx.resolution(m, "Varia", "simple")["number"] == 2);
        fx.call("generate_minutes", {{"meetingId", m["id"]}});
        fx.call("send_minutes", {{"meetingId", m["id"]}});
        const json args = {{"meetingId", m["id"]}, {"title", "Trop tard"}, {"majorityRequired", "simple"}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_resolution", args);
        CHECK(fx.get(m)["resolutions"].size() == 2);
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "add_resolution",
                      (json{{"meetingId", unknown_id}, {"title", "Budget"}, {"majorityRequired", "simple"}}));
        CHECK(has_error_on(fx.error("add_resolution", {{"meetingId", unknown_id}, {"title", "B"}, {"majorityRequired", "simple"}}),
                           "/meetingId"));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution",
                      (json{{"meetingId", m["id"]}, {"title", "Budget"}, {"majorityRequired", "triple"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution", (json{{"meetingId", m["id"]}, {"title", "Budget"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution", (json{{"meetingId", m["id"]}, {"majorityRequired", "simple"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution",
                      (json{{"meetingId", m["id"]}, {"title", "   "}, {"majorityRequired", "simple"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution",
                      (json{{"meetingId", m["id"]}, {"title", "Budget"}, {"majorityRequired", "simple"}, {"outcome", "passed"}}));
        CHECK(fx.get(m)["resolutions"].empty());
    }
}

TEST_CASE("record_votes") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    // Everyone present: the votes present or represented, the majorities' base, are all 100.
    fx.attend(m, json::array({present(fx.emilie), present(fx.francois), present(fx.john), present(fx.marc)}));
    const auto simple = fx.resolution(m, "Budget 2027", "simple");
    const auto absolute = fx.resolution(m, "Réfection de la toiture", "absolute");
    const auto special = fx.resolution(m, "Modification de la déclaration", "special");
    // A meeting's votes are recorded on its day, not before.
    CHECK_REFUSED(fx, "MEETING_NOT_YET_HELD", "record_votes",
                  (json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 0}, {"votesAbstain", 0}}));
    fx.on_meeting_day(m);
    auto outcome = [&](const json& r, double yes, double no, double abstain) {
        return fx.votes(r, yes, no, abstain)["outcome"].get<std::string>();
    };

    SUBCASE("the votes are recorded and shown exactly") {
        const auto r = fx.votes(simple, 50.000001, 49.999999, 0);
        CHECK(r["id"] == simple["id"]);
        CHECK(r["votesFor"] == 50.000001);
        CHECK(r["votesAgainst"] == 49.999999);
        CHECK(r["votesAbstain"] == 0);
        CHECK(r["votesRecorded"] == true);
        CHECK(r["outcome"] == "passed");
        CHECK(fx.get(m)["resolutions"][0] == r);
        // Recording again replaces.
        const auto again = fx.votes(simple, 10, 60, 5);
        CHECK(again["votesFor"] == 10);
        CHECK(again["votesAgainst"] == 60);
        CHECK(again["votesAbstain"] == 5);
        CHECK(again["outcome"] == "rejected");
        CHECK(fx.get(m)["resolutions"][0]["outcome"] == "rejected");
        CHECK(fx.get(m)["resolutions"][1]["outcome"] == "pending");
    }
    SUBCASE("simple: more than 50 % of the votes present or represented (art. 1096)") {
        CHECK(outcome(simple, 50, 50, 0) == "rejected");
        CHECK(outcome(simple, 50.000001, 49.999999, 0) == "passed");
        CHECK(outcome(simple, 49.999999, 50.000001, 0) == "rejected");
        // Those present who did not vote stay in the base: 30.000001 of 100 is no majority, though
        // it beat the 30 against (it passed when the base was the votes cast).
        CHECK(outcome(simple, 30.000001, 30, 0) == "rejected");
        // Abstentions count: 40 of 100 is not a majority, though 40 > 30.
        CHECK(outcome(simple, 40, 30, 30) == "rejected");
        CHECK(outcome(simple, 50, 0, 50) == "rejected");
        CHECK(outcome(simple, 50.000001, 0, 49.999999) == "passed");
        CHECK(outcome(simple, 50.000001, 0, 0) == "passed");
        CHECK(outcome(simple, 0.000002, 0.000001, 0) == "rejected");
        CHECK(outcome(simple, 0, 0, 0) == "rejected");
    }
    SUBCASE("absolute: more than 75 % of the votes present or represented (art. 1097)") {
        CHECK(outcome(absolute, 75, 25, 0) == "rejected");
        CHECK(outcome(absolute, 75.000001, 24.999999, 0) == "passed");
        CHECK(outcome(absolute, 74.999999, 25.000001, 0) == "rejected");
        CHECK(outcome(absolute, 60.000001, 20, 0) == "rejected");      // all of the votes cast, 60 % of those present
        CHECK(outcome(absolute, 75, 0, 25) == "rejected");             // abstentions count
        CHECK(outcome(absolute, 75, 0, 0) == "rejected");              // exactly 75 % of those present (§9)
        CHECK(outcome(absolute, 76, 10, 14) == "passed");
        CHECK(outcome(absolute, 75.000001, 0, 0) == "passed");
    }
    SUBCASE("special: every vote of the syndicate, absent co-owners included") {
        CHECK(outcome(special, 100, 0, 0) == "passed");
        CHECK(outcome(special, 40, 0, 0) == "rejected");  // all of the votes cast, not all of the syndicate's
        CHECK(outcome(special, 99.999999, 0.000001, 0) == "rejected");
        CHECK(outcome(special, 99.999999, 0, 0.000001) == "rejected");  // an abstention breaks it
        CHECK(outcome(special, 99, 0, 1) == "rejected");
        CHECK(outcome(special, 0, 100, 0) == "rejected");
        CHECK(outcome(special, 0, 0, 0) == "rejected");
    }
    SUBCASE("the base is the votes present or represented: with 76 present, 38.000001 for passes simple") {
        fx.attend(m, json::array({absent(fx.marc)}));  // 30 + 21 + 25
        CHECK(outcome(simple, 38, 0, 0) == "rejected");
        CHECK(outcome(simple, 38.000001, 0, 0) == "passed");
        const auto r = fx.votes(absolute, 57.000001, 0, 0);  // more than 3/4 of 76
        CHECK(r["outcome"] == "passed");
        CHECK(r["quorum"]["votesPresent"] == 76);
        CHECK(r["quorum"]["votingBase"] == 100);
        CHECK(r["quorum"]["required"] == 51);
        CHECK(r["quorum"]["reached"] == true);
        CHECK(r["quorum"]["basis"] == "votes");
        CHECK(outcome(special, 76, 0, 0) == "rejected");  // Marc's 24 are not for
    }
    SUBCASE("votes over 100 % in total are refused") {
        const json args = {{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0.000001}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes", args);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes",
                      (json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 41}, {"votesAbstain", 0}}));
        CHECK(fx.votes(simple, 60, 40, 0)["outcome"] == "passed");  // exactly 100 is fine
    }
    SUBCASE("votes cannot exceed the votes present or represented") {
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Émilie Bélanger"), absent(fx.john),
                                  absent(fx.marc)}));
        const json over = {{"resolutionId", simple["id"]}, {"votesFor", 40}, {"votesAgainst", 11}, {"votesAbstain", 0.000001}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes", over);
        const auto e = fx.error("record_votes", over);
        REQUIRE(figure(e, "represented").has_value());
        CHECK(*figure(e, "represented") == 51);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes",
                      (json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 0}, {"votesAbstain", 0}}));
        CHECK(fx.votes(simple, 40, 11, 0)["outcome"] == "passed");  // exactly 51
        CHECK(fx.get(m)["resolutions"][0]["votesFor"] == 40);
    }
    SUBCASE("refused while the meeting is a draft") {
        const auto draft = fx.meeting({{"title", "Brouillon"}});
        const auto r = fx.resolution(draft, "Budget", "simple");
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_votes",
                      (json{{"resolutionId", r["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0}}));
        CHECK(fx.get(draft)["resolutions"][0]["outcome"] == "pending");
    }
    SUBCASE("allowed once held") {
        fx.held(m);
        CHECK(outcome(simple, 60, 40, 0) == "passed");
    }
    SUBCASE("the meetingId, when given, must be the resolution's") {
        const auto r = fx.call("record_votes", {{"resolutionId", simple["id"]}, {"meetingId", m["id"]},
                                                {"votesFor", 70}, {"votesAgainst", 30}, {"votesAbstain", 0}});
        CHECK(r["outcome"] == "passed");
        const auto other = fx.meeting({{"title", "Autre"}});
        for (const auto& meeting_id : {other["id"], json(unknown_id)}) {
            const json args = {{"resolutionId", simple["id"]}, {"meetingId", meeting_id},
                               {"votesFor", 10}, {"votesAgainst", 90}, {"votesAbstain", 0}};
            CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes", args);
        }
        CHECK(fx.get(m)["resolutions"][0]["votesFor"] == 70);
    }
    SUBCASE("RESOLUTION_NOT_FOUND") {
        const json args = {{"resolutionId", unknown_id}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0}};
        CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes", args);
        CHECK(has_error_on(fx.error("record_votes", args), "/resolutionId"));
        // A meeting's id is not a resolution's.
        CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes",
                      (json{{"resolutionId", m["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0}}));
    }
    SUBCASE("schema rejection") {
        for (const auto& args : {json{{"resolutionId", simple["id"]}, {"votesFor", 101}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", -1}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", "60"}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 40}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0},
                                      {"outcome", "passed"}}}) {
            CAPTURE(args.dump());
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes", args);
        }
        CHECK(fx.get(m)["resolutions"][0]["outcome"] == "pending");
    }
}

}  // TEST_SUITE

}  // namespace meetings_votes_test
