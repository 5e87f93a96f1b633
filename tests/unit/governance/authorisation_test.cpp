// The shared check "a passed resolution authorises the act" (catalogue §0, §5 L10): every refusal
// (not found, wrong body, weaker majority, not passed), what it returns (body, day of decision,
// the 90-day contestation window of art. 1103) and the majority ladder.
#include "declaration/declaration_fixture.hpp"

#include "modules/governance/authorisation.hpp"

#include <algorithm>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace authorisation_test {

using namespace syndic::test;
using syndic::governance::DecisionBody;

namespace {

syndic::governance::Authorisation check(DeclarationFixture& fx, const std::string& id, DecisionBody body,
                                      const std::string& majority, const syndic::CallerContext* who = nullptr) {
    const json args = json::object();
    const syndic::CallControl control;
    const syndic::ToolCall call{args, who ? *who : fx.admin, *fx.db, fx.clock, fx.registry, control};
    return syndic::governance::require_passed_resolution(call, id, body, majority, "/resolutionId");
}

syndic::DomainError refusal(DeclarationFixture& fx, const std::string& id, DecisionBody body, const std::string& majority,
                            const syndic::CallerContext* who = nullptr) {
    try {
        check(fx, id, body, majority, who);
    } catch (const syndic::DomainError& e) {
        return e;
    }
    FAIL("expected a refusal");
    return syndic::DomainError("", "");
}


}  // namespace

TEST_SUITE("authorisation") {

TEST_CASE("the majority ladder: simple < absolute < double < special") {
    using syndic::governance::majority_rank;
    CHECK(majority_rank("simple") < majority_rank("absolute"));
    CHECK(majority_rank("absolute") < majority_rank("double"));
    CHECK(majority_rank("double") < majority_rank("special"));
    CHECK(majority_rank("unanimous") == -1);
}

TEST_CASE("a passed general resolution authorises, with its day and its contestation window") {
    DeclarationFixture fx;
    const auto id = fx.resolution_id("absolute");
    const auto a = check(fx, id, DecisionBody::general, "simple");
    CHECK(a.body == "general");
    CHECK(a.source == "meeting");
    CHECK(a.majority == "absolute");
    CHECK(a.meeting_id.has_value());
    CHECK(a.decided_on == "2026-12-15");            // the meeting's day in Montreal
    CHECK(a.contestable_until == "2027-03-15");     // + 90 days (art. 1103)
    CHECK(a.contestable_on("2027-03-15"));          // "within 90 days" includes the 90th
    CHECK_FALSE(a.contestable_on("2027-03-16"));
    // As strong as needed, and stronger than needed.
    CHECK(check(fx, id, DecisionBody::general, "absolute").resolution_id == id);
    CHECK(check(fx, id, DecisionBody::either, "simple").body == "general");
    // aga-special meetings are general meetings too.
    CHECK(check(fx, fx.resolution_id("simple", "passed", "aga-special"), DecisionBody::general, "simple").body == "general");
}

TEST_CASE("RESOLUTION_NOT_FOUND: unknown, or another syndicate's") {
    DeclarationFixture fx;
    const auto id = fx.resolution_id();
    auto e = refusal(fx, "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99", DecisionBody::general, "simple");
    CHECK(e.code() == "RESOLUTION_NOT_FOUND");
    CHECK(e.field() == "/resolutionId");
    e = refusal(fx, id, DecisionBody::general, "simple", &fx.other_admin);
    CHECK(e.code() == "RESOLUTION_NOT_FOUND");
}

TEST_CASE("WRONG_DECISION_BODY: a board decision where the co-owners decide, and the reverse") {
    DeclarationFixture fx;
    const auto board = fx.resolution_id("simple", "passed", "board");
    auto e = refusal(fx, board, DecisionBody::general, "simple");
    CHECK(e.code() == "WRONG_DECISION_BODY");
    CHECK(text_of(e, "body") == "board");
    CHECK(text_of(e, "requiredBody") == "general");
    CHECK(check(fx, board, DecisionBody::board, "simple").body == "board");
    const auto general = fx.resolution_id();
    e = refusal(fx, general, DecisionBody::board, "simple");
    CHECK(e.code() == "WRONG_DECISION_BODY");
    CHECK(text_of(e, "body") == "general");
    CHECK(check(fx, board, DecisionBody::either, "simple").body == "board");
}

TEST_CASE("MAJORITY_INSUFFICIENT: put to a weaker majority than the act needs") {
    DeclarationFixture fx;
    const auto simple = fx.resolution_id("simple");
    auto e = refusal(fx, simple, DecisionBody::general, "absolute");
    CHECK(e.code() == "MAJORITY_INSUFFICIENT");
    CHECK(text_of(e, "majorityRequired") == "simple");
    CHECK(text_of(e, "majorityNeeded") == "absolute");
    const auto absolute = fx.resolution_id("absolute");
    e = refusal(fx, absolute, DecisionBody::general, "double");
    CHECK(e.code() == "MAJORITY_INSUFFICIENT");
    CHECK(text_of(e, "majorityNeeded") == "double");
    // special is above double on the ladder.
    CHECK(check(fx, fx.resolution_id("special"), DecisionBody::general, "double").majority == "special");
    // A resolution of a meeting still to come is no decision yet, whatever its majority (check 2 first).
    e = refusal(fx, fx.resolution_id("simple", "pending"), DecisionBody::general, "absolute");
    CHECK(e.code() == "MEETING_NOT_HELD");
}

TEST_CASE("MEETING_NOT_HELD: a resolution of a meeting not held yet decides nothing") {
    DeclarationFixture fx;
    auto e = refusal(fx, fx.resolution_id("simple", "pending"), DecisionBody::general, "simple");
    CHECK(e.code() == "MEETING_NOT_HELD");
    CHECK(text_of(e, "status") == "notice-sent");
    CHECK(e.field() == "/resolutionId");
}

TEST_CASE("RESOLUTION_NOT_PASSED: rejected, by the meetings' outcome rule") {
    DeclarationFixture fx;
    auto e = refusal(fx, fx.resolution_id("absolute", "rejected"), DecisionBody::general, "absolute");
    CHECK(e.code() == "RESOLUTION_NOT_PASSED");
    CHECK(text_of(e, "outcome") == "rejected");
}

// A building of three co-owners (40, 30, 30) and a resolution of a held meeting whose votes were
// recorded with `present` attending (the others absent).
struct Decided {
    DeclarationFixture fx;
    json alice, bruno, chloe;
    Decided() {
        alice = fx.co_owner(fx.unit("101", 40)["id"], "Alice", "Roy");
        bruno = fx.co_owner(fx.unit("102", 30)["id"], "Bruno", "Côté");
        chloe = fx.co_owner(fx.unit("201", 30)["id"], "Chloé", "Lavoie");
    }
    std::string decide(const std::string& majority, const std::vector<json>& present, double yes, double no, double abstain) {
        const auto m = fx.meeting();
        const auto r = fx.call("add_resolution", {{"meetingId", m["id"]}, {"title", "Décision"}, {"majorityRequired", majority}});
        json rows = json::array();
        for (const auto& o : {alice, bruno, chloe}) {
            const bool here = std::any_of(present.begin(), present.end(), [&](const json& p) { return p["id"] == o["id"]; });
            rows.push_back({{"coOwnerId", o["id"]}, {"attendance", here ? "present" : "absent"}});
        }
        fx.call("record_attendance", {{"meetingId", m["id"]}, {"attendees", rows}});
        const auto before = fx.clock.now();
        fx.clock.set(*syndic::parse_iso_instant("2026-12-15T20:00:00-05:00"));
        fx.call("record_votes", {{"resolutionId", r["id"]}, {"votesFor", yes}, {"votesAgainst", no}, {"votesAbstain", abstain}});
        fx.call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
        fx.clock.set(before);
        return r["id"];
    }
};

TEST_CASE("majorities are measured on the votes present or represented, abstentions included (arts. 1096-1097)") {
    Decided b;
    // 70 present (Alice 40, Bruno 30): 36 for is more than half of them; 35 is not.
    CHECK(check(b.fx, b.decide("simple", {b.alice, b.bruno}, 36, 0, 34), DecisionBody::general, "simple").majority == "simple");
    CHECK(refusal(b.fx, b.decide("simple", {b.alice, b.bruno}, 35, 0, 0), DecisionBody::general, "simple").code() ==
          "RESOLUTION_NOT_PASSED");
    // absolute: more than 75 % of the 70 present; 33.5 for and nobody against passed before, on the votes cast.
    CHECK(refusal(b.fx, b.decide("absolute", {b.alice, b.bruno}, 33.5, 0, 0), DecisionBody::general, "absolute").code() ==
          "RESOLUTION_NOT_PASSED");
    CHECK(refusal(b.fx, b.decide("absolute", {b.alice, b.bruno}, 52.5, 17.5, 0), DecisionBody::general, "absolute").code() ==
          "RESOLUTION_NOT_PASSED");  // exactly 75 % fails (§9)
    CHECK(check(b.fx, b.decide("absolute", {b.alice, b.bruno}, 52.6, 17.4, 0), DecisionBody::general, "absolute").majority ==
          "absolute");
}

TEST_CASE("special is every vote of the syndicate, absent co-owners included, not every vote present") {
    Decided b;
    // Everyone present votes for (70 %), Chloé (30 %) absent: not special.
    auto e = refusal(b.fx, b.decide("special", {b.alice, b.bruno}, 70, 0, 0), DecisionBody::general, "special");
    CHECK(e.code() == "RESOLUTION_NOT_PASSED");
    CHECK(check(b.fx, b.decide("special", {b.alice, b.bruno, b.chloe}, 100, 0, 0), DecisionBody::general, "double").majority ==
          "special");
}

TEST_CASE("QUORUM_NOT_REACHED: votes recorded at a meeting without quorum authorise nothing") {
    Decided b;
    // Bruno alone (30 % of 51 % needed) votes for: the outcome on the votes present is passed, yet
    // a meeting without quorum decides nothing (the by-law put in force with 17.5 % present).
    const auto id = b.decide("simple", {b.bruno}, 30, 0, 0);
    auto e = refusal(b.fx, id, DecisionBody::general, "simple");
    CHECK(e.code() == "QUORUM_NOT_REACHED");
    const auto figures = e.figures();
    CHECK(std::any_of(figures.begin(), figures.end(), [](const auto& f) {
        return f.first == "votesPresent" && std::holds_alternative<double>(f.second) && std::get<double>(f.second) == 30;
    }));
}

TEST_CASE("a written resolution (no meeting) carries its body and day, and passes once decided") {
    DeclarationFixture fx;
    const auto r = fx.resolution("absolute", "pending");
    // Written resolutions come with the meetings work; the columns they need are here.
    SQLite::Statement q(fx.db->sql(), "UPDATE resolutions SET source = 'written', body = 'board' WHERE id = ?");
    q.bind(1, r["id"].get<std::string>());
    q.exec();
    CHECK(refusal(fx, r["id"], DecisionBody::board, "simple").code() == "MEETING_NOT_HELD");  // not adopted yet
    SQLite::Statement d(fx.db->sql(), "UPDATE resolutions SET decided_on = '2027-01-10' WHERE id = ?");
    d.bind(1, r["id"].get<std::string>());
    d.exec();
    const auto a = check(fx, r["id"], DecisionBody::board, "absolute");
    CHECK(a.source == "written");
    CHECK(a.decided_on == "2027-01-10");
    CHECK(a.contestable_until == "2027-04-10");
    CHECK(refusal(fx, r["id"], DecisionBody::general, "simple").code() == "WRONG_DECISION_BODY");
}

}

}  // namespace authorisation_test
