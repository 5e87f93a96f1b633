// Board meetings of directors (catalogue §3.2 "Board meetings"; arts. 1084, 324-326, 335 ff.;
// shared decisions §10): attendance, quorum, votes and ballots are the directors', one vote each;
// an interested director abstains; the notice is boardNoticeDays'. What the legal review found:
// a co-owner who is no director "voted", quorum was 51 % of the fractions, and the result
// authorised a management mandate.
#include "board/board_fixture.hpp"
#include "meetings/minutes_pdf.hpp"

namespace syndic::test {
namespace {

using json = nlohmann::json;

// A board of three (Alice, Bruno, Chloé) meeting on Sunday 10 January 2027 at 19:00, its notice
// sent; `on_the_day` moves the clock to that evening.
struct BoardMeeting : OfficersFixture {
    json m;
    BoardMeeting() {
        m = call("create_meeting", {{"title", "Réunion du conseil"}, {"type", "board"},
                                    {"scheduledAt", "2027-01-10T19:00:00"}, {"location", "Salle du conseil"},
                                    {"agenda", json::array({"Mandat de gestion"})}});
        call("send_meeting_notice", {{"meetingId", m["id"]}});
    }
    void on_the_day() { clock.set(at("2027-01-11T00:30:00Z")); }
    json attend(const json& rows) { return call("record_attendance", {{"meetingId", m["id"]}, {"attendees", rows}}); }
    static json row(const json& director, const std::string& attendance = "present") {
        return {{"directorId", director["id"]}, {"attendance", attendance}};
    }
    std::string resolution(const std::string& title = "Mandat de gestion à Gestion Laval inc.") {
        return call("add_resolution", {{"meetingId", m["id"]}, {"title", title}, {"majorityRequired", "simple"}})["id"];
    }
    json votes(const std::string& r, double yes, double no, double abstain = 0) {
        return call("record_votes", {{"resolutionId", r}, {"votesFor", yes}, {"votesAgainst", no}, {"votesAbstain", abstain}});
    }
    json mandate(const std::string& r) {
        return {{"managerName", "Gestion Laval inc."}, {"startOn", "2027-02-01"},
                {"delegatedPowers", json::array({"administration courante"})}, {"resolutionId", r}};
    }
    void hold() { call("update_meeting", {{"id", m["id"]}, {"status", "held"}}); }
};

}  // namespace

TEST_SUITE("board") {

TEST_CASE("a board meeting's attendance is its directors in office, present or absent") {
    BoardMeeting fx;
    const auto r = fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary, "absent")});
    REQUIRE(r["attendees"].size() == 2);
    CHECK(r["attendees"][0]["directorId"] == fx.president["id"]);
    CHECK(r["attendees"][0]["attendance"] == "present");
    CHECK_FALSE(r["attendees"][0].contains("coOwnerId"));
    CHECK(r["quorum"]["basis"] == "directors");
    CHECK(r["quorum"]["present"] == 1);
    CHECK(r["quorum"]["required"] == 2);  // a majority of the 3 in office
    CHECK(r["quorum"]["votingBase"] == 3);
    CHECK(r["quorum"]["quorumReached"] == false);

    const auto mid = fx.m["id"];
    // A co-owner is no director: a board meeting takes no coOwnerId.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                  (json{{"meetingId", mid}, {"attendees", {{{"coOwnerId", fx.alice["id"]}, {"attendance", "present"}}}}}));
    // No proxy at a board meeting.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                  (json{{"meetingId", mid}, {"attendees", {{{"directorId", fx.treasurer["id"]}, {"attendance", "proxy"},
                                                             {"proxyHolder", "Alice Roy"}}}}}));
    // A director who is not in office on the meeting's day: not yet appointed, or ended before.
    const auto later = fx.appoint({{"name", "Denise Morin"}, {"termStart", "2027-02-01"}, {"resolutionId", fx.president["resolutionId"]}});
    auto e = fx.error("record_attendance", {{"meetingId", mid}, {"attendees", {BoardMeeting::row(later)}}});
    CHECK(e.code() == "DIRECTOR_NOT_FOUND");
    CHECK(e.field() == "/attendees/0/directorId");
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "record_attendance",
                  (json{{"meetingId", mid}, {"attendees", {{{"directorId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"attendance", "present"}}}}}));
    // A meeting of co-owners takes no directorId.
    const auto aga = fx.call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2027-03-15T19:00:00"},
                                                {"location", "Salle"}, {"agenda", json::array({"Budget"})}});
    fx.call("send_meeting_notice", {{"meetingId", aga["id"]}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                  (json{{"meetingId", aga["id"]}, {"attendees", {BoardMeeting::row(fx.president)}}}));

    const auto roll = fx.call("get_voting_roll", {{"meetingId", mid}});
    CHECK(roll["basis"] == "directors");
    REQUIRE(roll["entries"].size() == 3);  // the three in office on 2027-01-10, not the one from February
    CHECK(roll["entries"][0]["votes"] == 1);
    CHECK(roll["totals"]["required"] == 2);
}

TEST_CASE("quorum: a majority of the directors in office, or the declaration's boardQuorum") {
    BoardMeeting fx;
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary)});
    auto q = fx.call("calculate_quorum", {{"meetingId", fx.m["id"]}});
    CHECK(q["present"] == 2);
    CHECK(q["total"] == 2);
    CHECK(q["quorumReached"] == true);
    fx.call("update_declaration", {{"boardQuorum", 3}});
    q = fx.call("calculate_quorum", {{"meetingId", fx.m["id"]}});
    CHECK(q["required"] == 3);
    CHECK(q["quorumReached"] == false);
}

TEST_CASE("votes are numbers of directors, within those present; the snapshot counts directors") {
    BoardMeeting fx;
    const auto r = fx.resolution();
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary), BoardMeeting::row(fx.treasurer, "absent")});
    fx.on_the_day();
    auto e = fx.error("record_votes", {{"resolutionId", r}, {"votesFor", 1.5}, {"votesAgainst", 0}, {"votesAbstain", 0}});
    CHECK(e.code() == "VALIDATION_FAILED");
    CHECK(e.field() == "/votesFor");
    e = fx.error("record_votes", {{"resolutionId", r}, {"votesFor", 3}, {"votesAgainst", 0}, {"votesAbstain", 0}});
    CHECK(e.code() == "VALIDATION_FAILED");  // 2 directors present
    const auto voted = fx.votes(r, 2, 0);
    CHECK(voted["outcome"] == "passed");
    CHECK(voted["votesFor"] == 2);
    CHECK(voted["quorum"]["basis"] == "directors");
    CHECK(voted["quorum"]["votesPresent"] == 2);
    CHECK(voted["quorum"]["votingBase"] == 3);
    CHECK(voted["quorum"]["required"] == 2);
    CHECK(voted["quorum"]["reached"] == true);
    // One for, one against of two present: no majority of the directors present.
    CHECK(fx.votes(r, 1, 1)["outcome"] == "rejected");
    CHECK(fx.votes(r, 1, 0, 1)["outcome"] == "rejected");  // an abstention stays in the base
    fx.votes(r, 2, 0);
    fx.hold();
    CHECK(fx.call("set_management_mandate", fx.mandate(r))["managerName"] == "Gestion Laval inc.");
}

TEST_CASE("a board resolution voted without the directors' quorum authorises no mandate") {
    BoardMeeting fx;
    const auto r = fx.resolution();
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary, "absent"),
               BoardMeeting::row(fx.treasurer, "absent")});
    fx.on_the_day();
    const auto voted = fx.votes(r, 1, 0);
    CHECK(voted["outcome"] == "passed");  // as voted by the one director present...
    CHECK(voted["quorum"]["reached"] == false);
    fx.hold();
    const auto e = fx.error("set_management_mandate", fx.mandate(r));  // ...but no decision of the board
    CHECK(e.code() == "QUORUM_NOT_REACHED");
    CHECK(figure(e, "votesPresent") == 1);
    CHECK(figure(e, "required") == 2);
}

TEST_CASE("an interested director abstains: no ballot, and out of the resolution's base") {
    BoardMeeting fx;
    const auto r = fx.resolution();
    const auto other = fx.resolution("Entretien de la toiture");
    fx.call("record_interest_disclosure", {{"directorId", fx.treasurer["id"]}, {"subjectType", "resolution"}, {"subjectId", r},
                                           {"nature", "Associée de Gestion Laval inc."}, {"disclosedOn", "2026-12-20"}});
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_interest_disclosure",
                  (json{{"directorId", fx.treasurer["id"]}, {"subjectType", "resolution"}, {"subjectId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"},
                        {"nature", "x"}, {"disclosedOn", "2026-12-20"}}));
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary), BoardMeeting::row(fx.treasurer)});
    fx.on_the_day();
    const auto e = fx.error("record_ballots", {{"resolutionId", r}, {"ballots", {{{"directorId", fx.treasurer["id"]}, {"choice", "for"}}}}});
    CHECK(e.code() == "CONFLICT_OF_INTEREST");
    CHECK(e.field() == "/ballots/0/directorId");
    // Totals: the base is the two directors present who may vote.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes",
                  (json{{"resolutionId", r}, {"votesFor", 3}, {"votesAgainst", 0}, {"votesAbstain", 0}}));
    const auto b = fx.call("record_ballots", {{"resolutionId", r},
                                              {"ballots", {{{"directorId", fx.president["id"]}, {"choice", "for"}},
                                                           {{"directorId", fx.secretary["id"]}, {"choice", "for"}}}}});
    CHECK(b["outcome"] == "passed");
    CHECK(b["votesFor"] == 2);
    CHECK(b["quorum"]["votesPresent"] == 2);  // the interested director counts for quorum, not in the base
    CHECK(b["quorum"]["reached"] == true);
    REQUIRE(b["ballots"].size() == 2);
    CHECK(b["ballots"][0]["votes"] == 1);
    CHECK(b["ballots"][0].contains("directorId"));
    // On another resolution the treasurer votes.
    CHECK(fx.call("record_ballots", {{"resolutionId", other}, {"ballots", {{{"directorId", fx.treasurer["id"]}, {"choice", "against"}}}}})
              ["votesAgainst"] == 1);
}

TEST_CASE("ballots at a board meeting: a present director's, by directorId") {
    BoardMeeting fx;
    const auto r = fx.resolution();
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary, "absent")});
    fx.on_the_day();
    auto e = fx.error("record_ballots", {{"resolutionId", r}, {"ballots", {{{"directorId", fx.secretary["id"]}, {"choice", "for"}}}}});
    CHECK(e.code() == "CO_OWNER_NOT_PRESENT");  // recorded absent
    CHECK(e.field() == "/ballots/0/directorId");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_ballots",
                  (json{{"resolutionId", r}, {"ballots", {{{"coOwnerId", fx.alice["id"]}, {"choice", "for"}}}}}));
    const auto b = fx.call("record_ballots", {{"resolutionId", r}, {"ballots", {{{"directorId", fx.president["id"]}, {"choice", "for"}}}}});
    CHECK(b["outcome"] == "passed");
    CHECK(b["quorum"]["reached"] == false);  // 1 of 3 present, 2 required
}

TEST_CASE("adjourning a board meeting counts directors; the reconvened one keeps the board's quorum") {
    BoardMeeting fx;
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.secretary)});
    fx.on_the_day();
    const json args = {{"meetingId", fx.m["id"]}, {"reason", "no-quorum"}, {"reconveneAt", "2027-01-17T19:00:00"}, {"location", "Salle du conseil"}};
    const auto e = fx.error("adjourn_meeting", args);
    CHECK(e.code() == "QUORUM_REACHED");
    CHECK(e.detail().find("2 directors present, 2 required") != std::string::npos);
    fx.attend(json::array({BoardMeeting::row(fx.secretary, "absent")}));
    const auto out = fx.call("adjourn_meeting", args);
    CHECK(out["reconvened"]["quorumRule"] == "standard");
    CHECK(fx.call("calculate_quorum", {{"meetingId", out["reconvened"]["id"]}})["required"] == 2);
}

TEST_CASE("a board meeting's minutes: its directors with their offices, their quorum and votes in numbers, the interested abstaining") {
    BoardMeeting fx;
    const auto r = fx.resolution();
    fx.call("record_interest_disclosure", {{"directorId", fx.treasurer["id"]}, {"subjectType", "resolution"}, {"subjectId", r},
                                           {"nature", "Associée de Gestion Laval inc."}, {"disclosedOn", "2026-12-20"}});
    fx.attend({BoardMeeting::row(fx.president), BoardMeeting::row(fx.treasurer), BoardMeeting::row(fx.secretary, "absent")});
    fx.on_the_day();
    fx.call("record_ballots", {{"resolutionId", r}, {"ballots", {{{"directorId", fx.president["id"]}, {"choice", "for"}}}}});
    fx.hold();
    const auto doc = fx.call("generate_minutes", {{"meetingId", fx.m["id"]}});
    const auto text = minutes_pdf::squash(minutes_pdf::pdf_text(doc["path"].get<std::string>()));
    CAPTURE(text);
    CHECK(text.find("Alice Roy (présidence) — Présence") != std::string::npos);
    CHECK(text.find("Bruno Côté (secrétariat) — Absence") != std::string::npos);
    CHECK(text.find("Présence : 2 · absence : 1 — administrateurs en fonction : 3.") != std::string::npos);
    CHECK(text.find("Administrateurs présents : 2 sur 3 en fonction · requis : 2 (la majorité des administrateurs en fonction).") !=
          std::string::npos);
    CHECK(text.find("Pour : 1 · contre : 0 · abstentions : 0 — sur 1 administrateur présent pouvant voter") != std::string::npos);
    CHECK(text.find("majorité simple (plus de la moitié des administrateurs présents pouvant voter") != std::string::npos);
    CHECK(text.find("Chloé Lavoie a déclaré un intérêt dans cette résolution : abstention") != std::string::npos);
    CHECK(text.find("%") == std::string::npos);  // directors are counted, not weighed
    CHECK(text.find("Résultat : ADOPTÉE") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace syndic::test
