// record_ballots (catalogue §3.2): each co-owner's vote weighed by the voting roll, and the double
// majority of art. 1098 (3/4 of the co-owners entitled to vote holding 90 % of the votes that
// count), tested at both boundaries so that dropping either condition fails.
#include "meetings/meetings_fixture.hpp"

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_ballots_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

// A building of `fractions` given in percent, one co-owner per unit, all present at a convened
// meeting with one double-majority resolution.
struct Voters : MeetingFixture {
    std::vector<json> owners;
    json m, resolution;
    explicit Voters(const std::vector<double>& fractions, const std::string& majority = "double") {
        for (std::size_t i = 0; i < fractions.size(); ++i) {
            const auto u = unit("10" + std::to_string(i + 1), fractions[i]);
            owners.push_back(co_owner(u["id"], "Owner", std::string(1, static_cast<char>('A' + i)),
                                      {{"fractionPercent", fractions[i]}, {"email", "o" + std::to_string(i) + "@example.ca"}}));
        }
        m = meeting();
        notice(m);
        json rows = json::array();
        for (const auto& o : owners) rows.push_back(present(o));
        attend(m, rows);
        resolution = this->MeetingFixture::call("add_resolution", {{"meetingId", m["id"]}, {"title", "Travaux"},
                                                                   {"majorityRequired", majority}});
        on_meeting_day(m);
    }
    // The first `n_for` owners for, the rest against.
    json vote(std::size_t n_for) {
        json ballots = json::array();
        for (std::size_t i = 0; i < owners.size(); ++i)
            ballots.push_back({{"coOwnerId", owners[i]["id"]}, {"choice", i < n_for ? "for" : "against"}});
        return call("record_ballots", {{"resolutionId", resolution["id"]}, {"ballots", ballots}});
    }
};

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("record_ballots: weighed by the roll; totals, head count and outcome follow") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Émilie Bélanger"), present(fx.john), absent(fx.marc)}));
    const auto r = fx.resolution(m, "États financiers", "simple");
    // Not before the meeting's day; on it, the roll is frozen with the first ballots.
    CHECK_REFUSED(fx, "MEETING_NOT_YET_HELD", "record_ballots",
                  (json{{"resolutionId", r["id"]}, {"ballots", json::array({{{"coOwnerId", fx.emilie["id"]}, {"choice", "for"}}})}}));
    fx.on_meeting_day(m);
    const auto out = fx.call("record_ballots", {{"resolutionId", r["id"]},
                                                {"ballots", json::array({{{"coOwnerId", fx.emilie["id"]}, {"choice", "for"}},
                                                                         {{"coOwnerId", fx.francois["id"]}, {"choice", "against"}},
                                                                         {{"coOwnerId", fx.john["id"]}, {"choice", "abstain"}}})}});
    CHECK(out["votesFor"] == 30);
    CHECK(out["votesAgainst"] == 21);
    CHECK(out["votesAbstain"] == 25);
    CHECK(out["headcountFor"] == 1);
    CHECK(out["ballotsRecorded"] == true);
    CHECK(out["votesRecorded"] == true);
    CHECK(out["outcome"] == "rejected");  // 30 of the 76 present or represented
    CHECK(out["quorum"]["votesPresent"] == 76);
    CHECK(out["quorum"]["reached"] == true);
    CHECK(out["headcountBasis"] == "records");
    CHECK(out["headcountEntitled"] == 4);
    CHECK(out["votingBase"] == 100);
    REQUIRE(out["ballots"].size() == 3);
    CHECK(out["ballots"][0] == json{{"resolutionId", r["id"]}, {"coOwnerId", fx.emilie["id"]}, {"choice", "for"}, {"votes", 30},
                                    {"castBy", "owner"}});
    CHECK(out["ballots"][1]["castBy"] == "proxy");
    // replace false adds to them; the default replaces.
    const auto more = fx.call("record_ballots", {{"resolutionId", r["id"]}, {"replace", false},
                                                 {"ballots", json::array({{{"coOwnerId", fx.john["id"]}, {"choice", "for"}}})}});
    CHECK(more["votesFor"] == 55);
    CHECK(more["headcountFor"] == 2);
    CHECK(more["ballots"].size() == 3);
    const auto again = fx.call("record_ballots", {{"resolutionId", r["id"]},
                                                  {"ballots", json::array({{{"coOwnerId", fx.john["id"]}, {"choice", "for"}}})}});
    CHECK(again["ballots"].size() == 1);
    CHECK(again["outcome"] == "rejected");  // John's 25 of the 76 present: those without a ballot stay in the base
    CHECK(fx.count("SELECT count(*) FROM events WHERE type = 'resolution.decided' AND record_id = ?", r["id"]) == 3);
}

TEST_CASE("record_ballots: refusals") {
    Building fx;
    const auto m = fx.meeting();
    const auto r = fx.resolution(m, "Travaux", "double");
    auto args = [&](const json& who) {
        return json{{"resolutionId", r["id"]}, {"ballots", json::array({{{"coOwnerId", who}, {"choice", "for"}}})}};
    };
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_ballots", args(fx.emilie["id"]));  // a draft
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), absent(fx.marc)}));
    CHECK_REFUSED(fx, "MEETING_NOT_YET_HELD", "record_ballots", args(fx.emilie["id"]));  // before its day
    fx.on_meeting_day(m);
    CHECK_REFUSED(fx, "CO_OWNER_NOT_PRESENT", "record_ballots", args(fx.marc["id"]));     // absent
    CHECK_REFUSED(fx, "CO_OWNER_NOT_PRESENT", "record_ballots", args(fx.john["id"]));     // not recorded
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_ballots", args(unknown_id));
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_ballots", args(fx.zoe["id"]));        // archived, not at the meeting
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_ballots",
                  (json{{"resolutionId", unknown_id}, {"ballots", json::array({{{"coOwnerId", fx.emilie["id"]}, {"choice", "for"}}})}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "RESOLUTION_NOT_FOUND", "record_ballots", args(fx.emilie["id"]));
    json twice = args(fx.emilie["id"]);
    twice["ballots"].push_back({{"coOwnerId", fx.emilie["id"]}, {"choice", "against"}});
    CHECK(fx.error("record_ballots", twice).code() == "VALIDATION_FAILED");
    CHECK(fx.error("record_ballots", {{"resolutionId", r["id"]}, {"ballots", json::array({{{"coOwnerId", fx.emilie["id"]},
                                                                                            {"choice", "maybe"}}})}})
              .code() == "VALIDATION_FAILED");
    CHECK(fx.error("record_ballots", {{"resolutionId", r["id"]}, {"ballots", json::array()}}).code() == "VALIDATION_FAILED");
}

TEST_CASE("record_ballots: a double majority needs 3/4 of the co-owners AND 90 % of the voting base (art. 1098)") {
    SUBCASE("both exactly at the boundary: 3 of 4 co-owners holding exactly 90 %: passed") {
        Voters fx({30, 30, 30, 10});
        const auto r = fx.vote(3);
        CHECK(r["headcountFor"] == 3);
        CHECK(r["votesFor"] == 90);
        CHECK(r["outcome"] == "passed");
    }
    SUBCASE("heads are persons: two records of one person (samePersonAs) are one head, for only when both are") {
        Voters fx({30, 30, 20, 20});
        CHECK(fx.vote(3)["headcountBasis"] == "records");
        fx.call("update_co_owner", {{"id", fx.owners[3]["id"]}, {"samePersonAs", fx.owners[2]["id"]}});
        // 3 of 4 records for (80 %) was 3 of 4 heads; it is 2 of 3 persons: short of 3/4.
        auto r = fx.vote(3);
        CHECK(r["headcountBasis"] == "persons");
        CHECK(r["headcountEntitled"] == 3);
        CHECK(r["headcountFor"] == 2);
        CHECK(r["outcome"] == "rejected");
        r = fx.vote(4);  // all for: 3 persons of 3, 100 %
        CHECK(r["headcountFor"] == 3);
        CHECK(r["outcome"] == "passed");
    }
    SUBCASE("the head count is there, the votes a millionth short: rejected") {
        Voters fx({30, 30, 29.999999, 10.000001});
        const auto r = fx.vote(3);
        CHECK(r["headcountFor"] == 3);
        CHECK(r["votesFor"] == 89.999999);
        CHECK(r["outcome"] == "rejected");
    }
    SUBCASE("the votes are there, the head count is not: 3 of 5 co-owners with 90 %: rejected; 4 of 5: passed") {
        Voters fx({88, 1, 1, 5, 5});
        const auto r = fx.vote(3);
        CHECK(r["votesFor"] == 90);
        CHECK(r["headcountFor"] == 3);
        CHECK(r["outcome"] == "rejected");
        CHECK(fx.vote(4)["outcome"] == "passed");
    }
    SUBCASE("a simple resolution by ballots follows the votes cast") {
        Voters fx({30, 30, 30, 10}, "simple");
        CHECK(fx.vote(2)["outcome"] == "passed");  // 60 of 100
        CHECK(fx.vote(1)["outcome"] == "rejected");
    }
}

}  // TEST_SUITE

}  // namespace meetings_ballots_test
