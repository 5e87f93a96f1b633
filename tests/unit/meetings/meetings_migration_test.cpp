// Meetings migration 007 (issue 27, item 2: existing data keeps its meaning): each resolution of a
// meeting whose votes were recorded before the quorum snapshot existed gets one, computed once from
// its recorded attendance; its outcome is then read on the votes present, and one that fails the
// new checks stays recorded but authorises nothing. The test writes rows as the old code left them
// (no snapshot) and runs the migration's backfill on them.
#include "meetings/meetings_fixture.hpp"

#include <string>

#include "storage/migration_catalogue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_migration_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

// Resolutions as the old code left them, then the backfill of meetings 007 (its UPDATE statements:
// the columns and tables it adds exist already).
void run_backfill(Building& fx) {
    fx.db->sql().exec("UPDATE resolutions SET quorum = NULL, headcount_basis = NULL");
    for (const auto& m : syndic::embedded_migration_plan())
        if (m.key == syndic::MigrationKey{"meetings", 7}) {
            const std::string sql(m.sql);
            const auto from = sql.find("UPDATE resolutions SET quorum = (");
            REQUIRE(from != std::string::npos);
            fx.db->sql().exec(sql.substr(from));
        }
}

json resolution_of(Building& fx, const json& m, const json& r) {
    const auto meeting = fx.get(m);  // kept: a range-for over a temporary's member would dangle
    for (const auto& x : meeting["resolutions"])
        if (x["id"] == r["id"]) return x;
    return nullptr;
}

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("meetings 007: a past resolution gets its quorum from its recorded attendance, and is read on the votes present") {
    Building fx;
    const auto m = fx.meeting();
    const auto simple = fx.resolution(m, "États financiers", "simple");
    const auto absolute = fx.resolution(m, "Toiture", "absolute");
    const auto undecided = fx.resolution(m, "Stationnement", "simple");
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.john, "Émilie Bélanger"), absent(fx.marc)}));  // 30 + 25
    fx.votes(simple, 30, 25, 0);
    fx.votes(absolute, 30, 0, 0);  // 30 of 55 present: no absolute majority (art. 1097)
    fx.held(m);
    run_backfill(fx);
    // As the old code read it, on the votes cast: 30 of 30, passed. Read on the 55 present: rejected.
    const auto a = resolution_of(fx, m, absolute);
    CHECK(a["quorum"]["reached"] == true);
    CHECK(a["quorum"]["basis"] == "votes");
    CHECK(a["quorum"]["votesPresent"] == 55);
    CHECK(a["quorum"]["votingBase"] == 100);
    CHECK(a["quorum"]["required"] == 51);
    CHECK(a["quorum"]["majorityOfAllVotes"] == true);
    CHECK(a["outcome"] == "rejected");
    CHECK(resolution_of(fx, m, simple)["outcome"] == "passed");  // 30 of 55
    CHECK(resolution_of(fx, m, undecided)["quorum"].is_null());  // no votes, no snapshot
}

TEST_CASE("meetings 007: without quorum, a past resolution no longer authorises; a reconvened meeting's has it") {
    Building fx;
    const auto m = fx.meeting();
    const auto r = fx.resolution(m, "Règlement", "simple");
    const auto later = fx.resolution(m, "Toiture", "simple");
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie)}));  // 30 of 51 required
    fx.votes(r, 30, 0, 0);
    const auto adjourned = fx.call("adjourn_meeting", {{"meetingId", m["id"]}, {"reason", "no-quorum"},
                                                       {"reconveneAt", "2027-01-12T19:00:00-05:00"}, {"location", "Salle B"}});
    const auto again = adjourned["reconvened"];
    fx.notice(again);
    fx.attend(again, json::array({present(fx.marc)}));  // 24: those present form the quorum (art. 1089)
    const auto carried = fx.get(again)["resolutions"][0];
    fx.votes(carried, 24, 0, 0);
    fx.held(again);
    run_backfill(fx);
    const auto first = resolution_of(fx, m, r);
    CHECK(first["outcome"] == "passed");  // as voted...
    CHECK(first["quorum"]["reached"] == false);  // ...without quorum: 30 of 51
    CHECK(first["quorum"]["votesPresent"] == 30);
    const auto e = fx.error("set_bylaw", {{"article", "9"}, {"title", "T"}, {"text", "X"}, {"category", "other"},
                                          {"resolutionId", r["id"]}});
    CHECK(e.code() == "QUORUM_NOT_REACHED");
    const auto second = resolution_of(fx, again, carried);
    CHECK(second["quorum"]["reached"] == true);
    CHECK(second["quorum"]["rule"] == "adjourned");
    CHECK(second["quorum"]["required"] == 0);
    CHECK(second["quorum"]["majorityOfAllVotes"] == false);  // 24 of 100
    CHECK(fx.call("set_bylaw", {{"article", "9"}, {"title", "T"}, {"text", "X"}, {"category", "other"},
                                {"resolutionId", carried["id"]}})["status"] == "active");
    (void)later;
}

TEST_CASE("meetings 007: a board meeting's past resolution had no directors' attendance: it authorises nothing") {
    Building fx;
    const auto m = fx.meeting({{"type", "board"}});
    const auto r = fx.resolution(m, "Mandat de gestion", "simple");
    fx.notice(m);
    fx.held(m);
    // As the old code recorded it: votes of co-owners, in percent of the fractions.
    fx.db->sql().exec("UPDATE resolutions SET votes_recorded = 1, votes_for = 51000000 WHERE id = '" +
                      r["id"].get<std::string>() + "'");
    run_backfill(fx);
    const auto b = resolution_of(fx, m, r);
    CHECK(b["quorum"]["basis"] == "directors");
    CHECK(b["quorum"]["reached"] == false);
    CHECK(b["quorum"]["votesPresent"] == 0);
    CHECK(b["outcome"] == "rejected");  // no director recorded present: no vote counts
    const auto e = fx.error("set_management_mandate", {{"managerName", "Gestion"}, {"startOn", "2027-01-01"},
                                                       {"delegatedPowers", json::array({"administration courante"})},
                                                       {"resolutionId", r["id"]}});
    CHECK(e.code() == "RESOLUTION_NOT_PASSED");
}

}  // TEST_SUITE

}  // namespace meetings_migration_test
