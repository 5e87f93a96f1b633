// The meetings module's voting roll (catalogue §3.2): migration 017 (resolutions rebuilt for the
// double majority and written resolutions, with the declaration's rows that name them kept),
// add_resolution's double majority, get_voting_roll (art. 1090, 1091, 1092, 1094, 1099) and the
// quorum measured on it (art. 1089).
#include "meetings/meetings_fixture.hpp"

#include <SQLiteCpp/Database.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "modules/meetings/voting_roll.hpp"
#include "legacy_database.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_roll_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

// A building of `fractions` given in percent, one co-owner per unit, named A, B, C...
struct Owners : MeetingFixture {
    std::vector<json> units, owners;
    explicit Owners(const std::vector<double>& fractions) {
        for (std::size_t i = 0; i < fractions.size(); ++i) {
            const std::string letter(1, static_cast<char>('A' + i));
            units.push_back(unit("10" + std::to_string(i + 1), fractions[i]));
            owners.push_back(co_owner(units.back()["id"], "Owner", letter, {{"fractionPercent", fractions[i]}}));
        }
    }
    json roll(const json& m, json extra = json::object()) {
        json args = {{"meetingId", m["id"]}};
        args.update(extra);
        return call("get_voting_roll", args);
    }
    const json& entry(const json& roll, const json& owner) {
        for (const auto& e : roll["entries"])
            if (e["coOwnerId"] == owner["id"]) return e;
        FAIL("no roll entry for " << owner["id"]);
        return roll;
    }
};

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("meetings 003 (schema version 17): resolutions rebuilt with the rows that name them kept, foreign keys intact") {
    const auto path = (std::filesystem::temp_directory_path() / ("syndic-017-" + std::to_string(::getpid()) + ".db")).string();
    std::filesystem::remove(path);
    {
        SQLite::Database old(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        old.exec("PRAGMA foreign_keys = ON");
        make_legacy_database(old, 15);
        old.exec("INSERT INTO syndicates (id, name, created_at) VALUES ('s1', 'Les Érables', '2026-01-01T00:00:00.000Z')");
        old.exec("INSERT INTO meetings (id, syndicate_id, title, type, scheduled_at, location, created_at, updated_at) VALUES "
                 "('m1', 's1', 'AGA', 'aga', '2026-03-16T23:00:00.000Z', 'Salle', '2026-01-01T00:00:00.000Z', "
                 "'2026-01-01T00:00:00.000Z')");
        old.exec("INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, majority_required, votes_recorded, "
                 "votes_for, created_at, updated_at, body, source, decided_on) VALUES "
                 "('r1', 'm1', 's1', 1, 'Règlement', 'absolute', 1, 90000000, '2026-03-16', '2026-03-16', 'general', "
                 "'meeting', '2026-03-16'), ('r2', 'm1', 's1', 2, 'Modification', 'special', 0, 0, '2026-03-16', "
                 "'2026-03-16', NULL, NULL, NULL)");
        old.exec("INSERT INTO bylaws (id, syndicate_id, article, title, text, category, adopted_by_resolution_id, "
                 "effective_from, status, search_text, sort_key, created_at, updated_at) VALUES ('b1', 's1', '1', 'Bruit', "
                 "'Silence', 'noise', 'r1', '2026-03-16', 'active', 'bruit', '0001', '2026', '2026')");
        old.exec("INSERT INTO declaration_amendments (id, syndicate_id, part, summary, resolution_id, decided_on, "
                 "contestable_until, status, created_at, updated_at) VALUES ('a1', 's1', 'by-laws', 'Bruit', 'r2', "
                 "'2026-03-16', '2026-06-14', 'adopted', '2026', '2026')");
    }
    auto db = syndic::Database::open(path);
    CHECK(db->schema_version() == syndic::Database::latest_schema_version());
    auto& sql = db->sql();
    {
    SQLite::Statement fk(sql, "PRAGMA foreign_key_check");
    CHECK_FALSE(fk.executeStep());
    SQLite::Statement rows(sql, "SELECT id, meeting_id, majority_required, votes_for, body, source, decided_on, "
                                "ballots_recorded FROM resolutions ORDER BY id");
    REQUIRE(rows.executeStep());
    CHECK(rows.getColumn(0).getString() == "r1");
    CHECK(rows.getColumn(1).getString() == "m1");
    CHECK(rows.getColumn(2).getString() == "absolute");
    CHECK(rows.getColumn(3).getInt64() == 90000000);
    CHECK(rows.getColumn(4).getString() == "general");
    CHECK(rows.getColumn(5).getString() == "meeting");
    CHECK(rows.getColumn(6).getString() == "2026-03-16");
    CHECK(rows.getColumn(7).getInt() == 0);
    REQUIRE(rows.executeStep());
    CHECK(rows.getColumn(0).getString() == "r2");
    CHECK(rows.getColumn(4).isNull());
    CHECK_FALSE(rows.executeStep());
    }
    // The index is back, the children still point at the table, and the new shape holds.
    CHECK(sql.execAndGet("SELECT count(*) FROM sqlite_schema WHERE name = 'resolutions_by_meeting'").getInt() == 1);
    CHECK_THROWS(sql.exec("DELETE FROM resolutions WHERE id = 'r1'"));  // bylaw b1 names it
    CHECK_NOTHROW(sql.exec("INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, majority_required, "
                           "created_at, updated_at, source) VALUES ('w1', NULL, 's1', 1, 'Écrite', 'double', '2026', '2026', "
                           "'written')"));
    CHECK_THROWS(sql.exec("INSERT INTO resolutions (id, meeting_id, syndicate_id, position, title, majority_required, "
                          "created_at, updated_at) VALUES ('w2', NULL, 's1', 1, 'x', 'triple', '2026', '2026')"));
    CHECK(sql.execAndGet("SELECT quorum_rule || agenda_additions FROM meetings WHERE id = 'm1'").getString() == "standard[]");
    db.reset();
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
}

TEST_CASE("add_resolution: double majority, decided by ballots only") {
    Building fx;
    const auto m = fx.meeting();
    const auto r = fx.resolution(m, "Travaux majeurs", "double");
    CHECK(r["majorityRequired"] == "double");
    CHECK(r["outcome"] == "pending");
    CHECK(r["ballotsRecorded"] == false);
    CHECK(r["headcountFor"].is_null());
    CHECK(r["source"] == "meeting");
    CHECK(r["body"] == "general");
    CHECK(r["decidedOn"].is_null());
    CHECK(r["contestableUntil"].is_null());
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), present(fx.francois), present(fx.john), present(fx.marc)}));
    const json args = {{"resolutionId", r["id"]}, {"votesFor", 100}, {"votesAgainst", 0}, {"votesAbstain", 0}};
    CHECK_REFUSED(fx, "BALLOTS_REQUIRED", "record_votes", args);
    CHECK(fx.get(m)["resolutions"][0]["outcome"] == "pending");
    // A decided resolution says when, and until when it may be contested (art. 1103: 90 days).
    const auto simple = fx.resolution(m, "États financiers", "simple");
    const auto voted = fx.votes(simple, 60, 10, 0);
    CHECK(voted["decidedOn"] == "2026-12-15");
    CHECK(voted["contestableUntil"] == "2027-03-15");
    // The schema knows no other majority.
    CHECK(fx.error("add_resolution", {{"meetingId", m["id"]}, {"title", "x"}, {"majorityRequired", "triple"}}).code() ==
          "VALIDATION_FAILED");
}

TEST_CASE("get_voting_roll: every co-owner with their fraction as votes (art. 1090)") {
    Building fx;
    const auto m = fx.meeting();
    const auto roll = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    CHECK(roll["meetingId"] == m["id"]);
    CHECK(roll["asOf"] == "2026-11-21");
    REQUIRE(roll["entries"].size() == 4);  // Zoé is archived and did not attend
    const auto& e = roll["entries"][0];
    CHECK(e["coOwnerId"] == fx.emilie["id"]);
    CHECK(e["name"] == "Émilie Bélanger");
    CHECK(e["unitId"] == fx.u101["id"]);
    CHECK(e["unitNumber"] == "101");
    CHECK(e["fractionPercent"] == 30);
    CHECK(e["votes"] == 30);
    CHECK(e["status"] == "entitled");
    CHECK(e["overdueSince"].is_null());
    CHECK(e["overdueCents"] == 0);
    CHECK(e["attendance"].is_null());
    CHECK(roll["totals"] == json{{"allVotes", 100}, {"suspendedVotes", 0}, {"reducedVotes", 0}, {"votingBase", 100},
                                 {"entitledCoOwners", 4}, {"fractions", 4}});
    // asOf as a day or an instant; anything else is refused.
    CHECK(fx.call("get_voting_roll", {{"meetingId", m["id"]}, {"asOf", "2026-12-01"}})["asOf"] == "2026-12-01");
    CHECK(fx.call("get_voting_roll", {{"meetingId", m["id"]}, {"asOf", "2026-12-02T01:00:00Z"}})["asOf"] == "2026-12-01");
    CHECK(fx.error("get_voting_roll", {{"meetingId", m["id"]}, {"asOf", "demain"}}).code() == "VALIDATION_FAILED");
    CHECK(fx.error("get_voting_roll", {{"meetingId", m["id"]}, {"extra", 1}}).code() == "VALIDATION_FAILED");
    CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "get_voting_roll", (json{{"meetingId", unknown_id}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "MEETING_NOT_FOUND", "get_voting_roll", (json{{"meetingId", m["id"]}}));
    // Once held, the roll is read for the meeting's day.
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), absent(fx.marc)}));
    fx.held(m);
    const auto held = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    CHECK(held["asOf"] == "2026-12-15");
    CHECK(held["entries"][0]["attendance"] == "present");
}

TEST_CASE("get_voting_roll: fewer than 5 fractions, a co-owner with more than half the votes is reduced (art. 1091)") {
    SUBCASE("to the votes of all the others before attendance, of those present or represented after") {
        Owners fx({60, 20, 20});
        const auto m = fx.meeting();
        auto roll = fx.roll(m);
        CHECK(fx.entry(roll, fx.owners[0])["votes"] == 40);
        CHECK(fx.entry(roll, fx.owners[0])["status"] == "reduced-1091");
        CHECK(fx.entry(roll, fx.owners[1])["status"] == "entitled");
        CHECK(roll["totals"]["reducedVotes"] == 20);
        CHECK(roll["totals"]["votingBase"] == 80);
        fx.notice(m);
        fx.attend(m, json::array({present(fx.owners[0]), by_proxy(fx.owners[1], "Owner A"), absent(fx.owners[2])}));
        roll = fx.roll(m);
        CHECK(fx.entry(roll, fx.owners[0])["votes"] == 20);
        CHECK(roll["totals"]["reducedVotes"] == 40);
        CHECK(roll["totals"]["votingBase"] == 60);
        // The quorum counts the votes present or represented after the reduction (20 + 20), against
        // 51 % of the voting base, from which the reduced votes left (60): the holder alone no
        // longer makes quorum with unreduced fractions.
        const auto q = fx.quorum(m);
        CHECK(q["present"] == 20);
        CHECK(q["proxied"] == 20);
        CHECK(q["total"] == 40);
        CHECK(q["votingBase"] == 60);
        CHECK(q["required"] == 30.6);
        CHECK(q["quorumReached"] == true);
        CHECK(q["rule"] == "standard");
        CHECK(q["suspended"] == 0);
        CHECK(q["majorityOfAllVotes"] == true);
    }
    SUBCASE("exactly half is not more than half") {
        Owners fx({50, 25, 25});
        const auto roll = fx.roll(fx.meeting());
        CHECK(fx.entry(roll, fx.owners[0])["votes"] == 50);
        CHECK(fx.entry(roll, fx.owners[0])["status"] == "entitled");
        CHECK(roll["totals"]["reducedVotes"] == 0);
    }
    SUBCASE("no other co-owner on the roll: nobody to protect, no reduction") {
        Owners fx({60});
        fx.unit("102", 40);  // a lot with no co-owner recorded
        const auto roll = fx.roll(fx.meeting());
        CHECK(fx.entry(roll, fx.owners[0])["votes"] == 60);
        CHECK(roll["totals"]["reducedVotes"] == 0);
    }
    SUBCASE("5 fractions or more: no reduction") {
        Owners fx({60, 10, 10, 10, 10});
        const auto roll = fx.roll(fx.meeting());
        CHECK(fx.entry(roll, fx.owners[0])["votes"] == 60);
        CHECK(roll["totals"]["fractions"] == 5);
        CHECK(roll["totals"]["votingBase"] == 100);
    }
    SUBCASE("a parking linked to an apartment is part of its lot, not a fraction of its own") {
        Owners fx({60, 20, 10, 5});
        fx.unit("P1", 5, "parking", {{"linkedUnits", json::array({fx.units[1]["id"]})}});
        const auto roll = fx.roll(fx.meeting());
        CHECK(roll["totals"]["fractions"] == 4);
        CHECK(fx.entry(roll, fx.owners[0])["status"] == "reduced-1091");
    }
}

TEST_CASE("get_voting_roll: the developer is capped at 60 % after 2 years, 25 % after 3, residence excluded (art. 1092)") {
    // The residence (10), two units of the developer (30 + 31), two buyers (15 + 14): 5 fractions.
    Owners fx({10, 30, 31, 15, 14});
    const json developer = {{"coOwnerIds", json::array({fx.owners[0]["id"], fx.owners[1]["id"], fx.owners[2]["id"]})},
                            {"residenceUnitId", fx.units[0]["id"]}};
    const auto m = fx.meeting();
    auto registered = [&](const std::string& day) {
        fx.call("update_declaration", {{"registeredOn", day}, {"developer", developer}});
        return fx.roll(m);  // read on 2026-11-21
    };
    SUBCASE("before the end of the second year: no cap") {
        const auto roll = registered("2024-11-22");
        CHECK(fx.entry(roll, fx.owners[2])["votes"] == 31);
        CHECK(roll["totals"]["reducedVotes"] == 0);
    }
    SUBCASE("from the end of the second year: 60 % of all votes, the residence apart") {
        const auto roll = registered("2024-11-21");
        CHECK(fx.entry(roll, fx.owners[0])["votes"] == 10);
        CHECK(fx.entry(roll, fx.owners[0])["status"] == "entitled");
        CHECK(fx.entry(roll, fx.owners[1])["status"] == "reduced-developer");
        CHECK(fx.entry(roll, fx.owners[2])["status"] == "reduced-developer");
        const double kept = fx.entry(roll, fx.owners[1])["votes"].get<double>() + fx.entry(roll, fx.owners[2])["votes"].get<double>();
        CHECK(kept == doctest::Approx(60).epsilon(1e-12));
        CHECK(roll["totals"]["reducedVotes"] == 1);
        CHECK(roll["totals"]["votingBase"] == 99);
        CHECK(fx.entry(roll, fx.owners[3])["votes"] == 15);
    }
    SUBCASE("from the end of the third year: 25 %") {
        const auto roll = registered("2023-11-21");
        CHECK(fx.entry(roll, fx.owners[1])["votes"] == 12.295082);
        CHECK(fx.entry(roll, fx.owners[2])["votes"] == 12.704918);
        CHECK(roll["totals"]["reducedVotes"] == 36);
        CHECK(roll["totals"]["votingBase"] == 64);
    }
    SUBCASE("no developer named: no cap") {
        fx.call("update_declaration", {{"registeredOn", "2020-01-01"}});
        CHECK(fx.roll(m)["totals"]["reducedVotes"] == 0);
    }
}

TEST_CASE("get_voting_roll: no developer's cap under 5 fractions (art. 1092 is for 5 or more)") {
    // Four fractions, the developer holding 70 % three years after registration: art. 1092 does not
    // apply (art. 1091 does, reducing a holder of more than half to the others' votes).
    Owners fx({40, 30, 20, 10});
    fx.call("update_declaration", {{"registeredOn", "2023-11-21"},
                                   {"developer", {{"coOwnerIds", json::array({fx.owners[0]["id"], fx.owners[1]["id"]})}}}});
    const auto roll = fx.roll(fx.meeting());
    CHECK(fx.entry(roll, fx.owners[0])["status"] != "reduced-developer");
    CHECK(fx.entry(roll, fx.owners[1])["status"] != "reduced-developer");
    CHECK(fx.entry(roll, fx.owners[1])["votes"] == 30);
}

TEST_CASE("the roll's rules: a co-owner in arrears has no vote and leaves the voting base (art. 1094, 1099)") {
    // The accounting batch answers the standing (today every unit is entitled): the rules applied
    // to a standing that says suspended.
    using namespace syndic::meetings;
    VotingRoll roll;
    roll.fractions = 6;
    auto add = [&](const std::string& id, std::int64_t percent, const char* attendance) {
        RollEntry e;
        e.co_owner_id = id;
        e.fraction = e.votes = syndic::Fraction::percent(percent);
        e.attendance = attendance;
        roll.entries.push_back(e);
    };
    add("a", 40, "present");
    add("b", 30, "present");
    add("c", 30, "absent");
    syndic::accounting::Standing late;
    late.status = "suspended-arrears";
    late.overdue_since = "2026-07-01";
    late.overdue_cents = 123456;
    apply_vote_rules(roll, {syndic::accounting::Standing{}, late, syndic::accounting::Standing{}}, std::nullopt);
    CHECK(roll.entries[1].status == "suspended-arrears");
    CHECK(roll.entries[1].votes == syndic::Fraction());
    CHECK(roll.entries[1].overdue_since == "2026-07-01");
    CHECK(roll.entries[1].overdue_cents == 123456);
    CHECK(roll.suspended_votes == syndic::Fraction::percent(30));
    CHECK(roll.voting_base() == syndic::Fraction::percent(70));
    CHECK(roll.entitled_headcount() == 2);
    // The quorum counts entitled votes present (40) against 51 % of the base (35.7).
    Meeting m;
    m.id = "m";
    Building fx;  // for the syndicate's quorum setting
    const auto q = quorum_of(*fx.db, fx.syndicate, m, roll);
    CHECK(q.total() == syndic::Fraction::percent(40));
    CHECK(q.required == syndic::Fraction::from_percent(35.7));
    CHECK(q.reached());
    CHECK(q.suspended == syndic::Fraction::percent(30));
    CHECK(q.majority_of_all_votes());  // 40 of 70
}

}  // TEST_SUITE

}  // namespace meetings_roll_test
