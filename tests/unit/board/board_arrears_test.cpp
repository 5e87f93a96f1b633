// Art. 1086 as a flag and art. 339's term (catalogue §4.3, shared decisions §10 after the legal
// review): a co-owner director in arrears is flagged (inArrears, arrearsSince, replaceable), never
// refused nor ended by itself, unless the declaration's arrearsMakeIneligible bars them; endReason
// disqualified only then; a term lasts the declaration's directorTermYears, 1 year when none, and
// a director past it stays in office (termExpired). The accounts answer "entitled" until the
// accounting batch, so the rules on a standing in arrears are tested on board/arrears.hpp directly.
#include "board/board_fixture.hpp"

#include "modules/board/arrears.hpp"
#include "storage/migration_catalogue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace board_arrears_test {

using namespace syndic::test;
using syndic::accounting::Standing;
using syndic::board::ArrearsFlags;
using syndic::declaration::BoardParameters;

namespace {

Standing in_arrears_since(const std::string& day) {
    Standing s;
    s.overdue_since = day;
    return s;
}

}  // namespace

TEST_SUITE("board") {

TEST_CASE("art. 1086: a standing in arrears, however recent, flags the co-owner; an entitled one does not") {
    const auto clean = syndic::board::arrears_flags(Standing{}, "2026-11-21");
    CHECK_FALSE(clean.in_arrears);
    CHECK_FALSE(clean.arrears_since);
    CHECK_FALSE(clean.replaceable());
    // No minimum delay: a charge unpaid since yesterday is arrears (art. 1094's 3 months is the vote's).
    const auto late = syndic::board::arrears_flags(in_arrears_since("2026-11-20"), "2026-11-21");
    CHECK(late.in_arrears);
    CHECK(late.arrears_since == "2026-11-20");
    CHECK(late.replaceable());
    // A suspended standing without a day is in arrears from the day asked.
    Standing suspended;
    suspended.status = "suspended-arrears";
    CHECK(syndic::board::arrears_flags(suspended, "2026-11-21").arrears_since == "2026-11-21");
}

TEST_CASE("DIRECTOR_DISQUALIFIED only under the declaration's arrearsMakeIneligible, with data.arrearsSince") {
    const ArrearsFlags late{true, "2026-08-01"};
    BoardParameters rules;
    CHECK_NOTHROW(syndic::board::check_eligible(rules, late, "Alice Roy", "/coOwnerId"));  // art. 1086 alone: a flag
    rules.arrears_make_ineligible = true;
    CHECK_NOTHROW(syndic::board::check_eligible(rules, ArrearsFlags{}, "Alice Roy", "/coOwnerId"));
    try {
        syndic::board::check_eligible(rules, late, "Alice Roy", "/coOwnerId");
        FAIL("expected DIRECTOR_DISQUALIFIED");
    } catch (const syndic::DomainError& e) {
        CHECK(e.code() == std::string("DIRECTOR_DISQUALIFIED"));
        CHECK(e.field() == "/coOwnerId");
        bool named = false;
        for (const auto& [key, value] : e.figures())
            if (key == "arrearsSince") named = std::get<std::string>(value) == "2026-08-01";
        CHECK(named);
    }
}

TEST_CASE("endReason disqualified: only a director in arrears under arrearsMakeIneligible") {
    const ArrearsFlags late{true, "2026-08-01"};
    BoardParameters rules;
    auto refused = [&](const ArrearsFlags& flags) {
        try {
            syndic::board::check_disqualified_reason(rules, flags, "Alice Roy", "/endReason");
        } catch (const syndic::DomainError& e) {
            return e.code() == std::string("VALIDATION_FAILED") && has_error_on(e, "/endReason");
        }
        return false;
    };
    CHECK(refused(late));          // in arrears, but no by-law clause: replace them, do not disqualify
    CHECK(refused(ArrearsFlags{}));
    rules.arrears_make_ineligible = true;
    CHECK(refused(ArrearsFlags{}));  // the clause, but no arrears
    CHECK_FALSE(refused(late));
}

TEST_CASE("through the tools: a co-owner in good standing is appointed under the clause; disqualified is refused") {
    BoardFixture fx;
    fx.declare({{"arrearsMakeIneligible", true}});
    const auto d = fx.appoint_co_owner(fx.alice);
    CHECK(d["inArrears"] == false);
    CHECK(d["warnings"].empty());
    const json end = {{"id", d["id"]}, {"endReason", "disqualified"}, {"endedOn", "2027-01-15"}};
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "end_director_mandate", end);
    CHECK(has_error_on(fx.error("end_director_mandate", end), "/endReason"));
    // Replacing a director is an ordinary end of mandate.
    CHECK(fx.call("end_director_mandate", {{"id", d["id"]}, {"endReason", "resignation"}, {"endedOn", "2027-01-15"}})["status"] == "ended");
    const auto board = fx.call("get_board");
    CHECK(board["directorsInArrears"].empty());
}

TEST_CASE("art. 339: the term lasts directorTermYears, 1 year when none; past it, the director stays in office") {
    BoardFixture fx;
    CHECK(fx.appoint({{"name", "Un"}, {"termStart", "2024-02-29"}})["termEnd"] == "2025-02-28");
    CHECK(fx.appoint({{"name", "Deux"}, {"termEnd", nullptr}})["termEnd"] == "2027-12-15");  // null asks for the default
    fx.declare({{"directorTermYears", 3}});
    const auto three = fx.appoint({{"name", "Trois"}, {"termStart", "2023-06-01"}});
    CHECK(three["termEnd"] == "2026-06-01");
    // Past its term: in office, flagged, until replaced or ended.
    CHECK(three["termExpired"] == true);
    const auto board = fx.call("get_board");
    bool shown = false;
    for (const auto& d : board["directors"])
        if (d["id"] == three["id"]) shown = d["termExpired"] == true;
    CHECK(shown);
    // On its last day the term has not expired.
    const auto last_day = fx.call("get_board", {{"asOf", "2026-06-01"}});
    bool within = false;
    for (const auto& d : last_day["directors"])
        if (d["id"] == three["id"]) within = d["termExpired"] == false;
    CHECK(within);
    // update_director with termEnd null gives the default back.
    fx.call("update_director", {{"id", three["id"]}, {"termEnd", "2027-01-01"}});
    CHECK(fx.call("update_director", {{"id", three["id"]}, {"termEnd", nullptr}})["termEnd"] == "2026-06-01");
}

TEST_CASE("board 002: a mandate recorded with an open term gets termStart plus the declaration's years, else 1") {
    BoardFixture fx;
    const auto open = fx.appoint({{"name", "Ouvert"}, {"termStart", "2024-02-29"}});
    const auto kept = fx.appoint({{"name", "Fixé"}, {"termStart", "2024-03-01"}, {"termEnd", "2024-12-31"}});
    fx.db->sql().exec("UPDATE directors SET term_end = NULL WHERE name = 'Ouvert'");  // as before this change
    for (const auto& m : syndic::embedded_migration_plan())
        if (m.key == syndic::MigrationKey{"board", 2}) fx.db->sql().exec(std::string(m.sql));
    CHECK(fx.call("update_director", {{"id", open["id"]}, {"phone", "1"}})["termEnd"] == "2025-02-28");
    CHECK(fx.call("update_director", {{"id", kept["id"]}, {"phone", "1"}})["termEnd"] == "2024-12-31");
    fx.declare({{"directorTermYears", 2}});
    fx.db->sql().exec("UPDATE directors SET term_end = NULL WHERE name = 'Ouvert'");
    for (const auto& m : syndic::embedded_migration_plan())
        if (m.key == syndic::MigrationKey{"board", 2}) fx.db->sql().exec(std::string(m.sql));
    CHECK(fx.call("update_director", {{"id", open["id"]}, {"phone", "2"}})["termEnd"] == "2026-02-28");
}

}

}  // namespace board_arrears_test
