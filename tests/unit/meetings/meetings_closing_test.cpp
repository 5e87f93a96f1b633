// Written resolutions (art. 354) and sending the minutes (art. 1102.1), and board meetings'
// notices to the directors: a written resolution is adopted only when every person entitled has
// signed, on the day of the last signature, then authorises acts like a meeting's; its text goes
// to every co-owner. The minutes go with their PDF attached, the meeting closes, late is said.
#include "board/board_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

#include "modules/governance/authorisation.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_closing_test {

using namespace syndic::test;

namespace {

// The board of three of board_fixture.hpp, and the messages about a kind of record.
struct Board : OfficersFixture {
    int outbox_about(const std::string& related_type) {
        SQLite::Statement q(db->sql(), "SELECT count(*) FROM outbox WHERE syndicate_id = ? AND related_type = ?");
        q.bind(1, syndicate);
        q.bind(2, related_type);
        q.executeStep();
        return q.getColumn(0).getInt();
    }
};

const json new_board_resolution = {{"body", "board"}, {"title", "Mandat de gestion"}, {"majorityRequired", "simple"},
                                   {"text", "Le conseil confie la gestion courante à Gestion Riverin inc."}};

}  // namespace

TEST_SUITE("meetings-closing") {

TEST_CASE("a written board resolution is adopted on its last signature, never before, and then authorises") {
    Board fx;
    fx.clock.set(at("2026-12-16T15:00:00Z"));  // put forward on the 16th: its signatures are dated from then
    auto r = fx.sign(new_board_resolution, fx.president, "2026-12-16");
    CHECK(r["status"] == "collecting");
    CHECK(r["outcome"] == "pending");
    CHECK(r["missingSigners"].size() == 2);
    CHECK(r["adoptedOn"].is_null());
    // Not yet adopted: it authorises nothing.
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "set_management_mandate",
                  (json{{"managerName", "Julie Riverin"}, {"startOn", "2026-12-20"}, {"delegatedPowers", {"gestion"}},
                        {"resolutionId", r["id"]}}));
    fx.clock.set(at("2026-12-18T15:00:00Z"));
    r = fx.sign({{"id", r["id"]}}, fx.treasurer, "2026-12-18");
    CHECK(r["status"] == "collecting");
    CHECK(r["missingSigners"] == json::array({{{"signerId", fx.secretary["id"]}, {"name", "Bruno Côté"}}}));
    CHECK(fx.outbox_about("resolution") == 0);
    r = fx.sign({{"id", r["id"]}}, fx.secretary, "2026-12-17");
    CHECK(r["status"] == "adopted");
    CHECK(r["outcome"] == "passed");
    CHECK(r["adoptedOn"] == "2026-12-18");  // the last signature's day, not the last one entered
    CHECK(r["contestableUntil"] == "2027-03-18");  // 90 days from the co-owners' notice, queued today
    CHECK(r["missingSigners"].empty());
    CHECK(fx.outbox_about("resolution") == 1);  // Alice is the only co-owner with an e-mail
    CHECK(fx.count_events("written_resolution.adopted") == 1);
    CHECK(fx.count_events("message.queued") >= 1);
    // It now authorises a board act, and is a board decision.
    const auto mandate = fx.call("set_management_mandate", {{"managerName", "Julie Riverin"}, {"startOn", "2026-12-20"},
                                                            {"delegatedPowers", {"gestion"}}, {"resolutionId", r["id"]}});
    CHECK(mandate.dump().find("Julie Riverin") != std::string::npos);
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "set_bylaw",
                  (json{{"article", "9.9"}, {"title", "T"}, {"text", "x"}, {"category", "other"}, {"resolutionId", r["id"]}}));
    // Complete: nothing more to sign.
    CHECK_REFUSED(fx, "ALREADY_ADOPTED", "record_written_resolution",
                  (json{{"id", r["id"]}, {"signatures", {{{"signerId", fx.president["id"]}, {"signedOn", "2026-12-19"}}}}}));
}

TEST_CASE("only those entitled sign: directors in office for the board, co-owners for the general body") {
    Board fx;
    // A co-owner who is not a director cannot sign the board's resolution... and an ended director neither.
    const auto dora_unit = fx.unit("301", 0);
    const auto dora = fx.co_owner(dora_unit["id"], "Dora", "Nadeau");
    CHECK_REFUSED(fx, "SIGNER_NOT_ENTITLED", "record_written_resolution",
                  (json{{"body", "board"}, {"title", "T"}, {"text", "x"}, {"majorityRequired", "simple"},
                        {"signatures", {{{"signerId", dora["id"]}, {"signedOn", "2026-12-20"}}}}}));
    fx.call("end_director_mandate", {{"id", fx.treasurer["id"]}, {"endReason", "resignation"}, {"endedOn", "2026-12-20"}});
    CHECK_REFUSED(fx, "SIGNER_NOT_ENTITLED", "record_written_resolution",
                  (json{{"body", "board"}, {"title", "T"}, {"text", "x"}, {"majorityRequired", "simple"},
                        {"signatures", {{{"signerId", fx.treasurer["id"]}, {"signedOn", "2026-12-20"}}}}}));
    // With two directors left in office, two signatures adopt it.
    auto r = fx.sign(new_board_resolution, fx.president, "2026-12-20");
    CHECK(r["missingSigners"].size() == 1);
    r = fx.sign({{"id", r["id"]}}, fx.secretary, "2026-12-20");
    CHECK(r["status"] == "adopted");
    // General: every co-owner (four here) must sign; a director's id is no co-owner's.
    auto g = fx.call("record_written_resolution",
                     {{"body", "general"}, {"title", "Règlement"}, {"text", "x"}, {"majorityRequired", "simple"},
                      {"signatures", {{{"signerId", fx.alice["id"]}, {"signedOn", "2026-12-20"}},
                                      {{"signerId", fx.bruno["id"]}, {"signedOn", "2026-12-20"}},
                                      {{"signerId", fx.chloe["id"]}, {"signedOn", "2026-12-20"}}}}});
    CHECK(g["status"] == "collecting");
    CHECK(g["missingSigners"] == json::array({{{"signerId", dora["id"]}, {"name", "Dora Nadeau"}}}));
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_written_resolution",
                  (json{{"id", g["id"]}, {"signatures", {{{"signerId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"signedOn", "2026-12-20"}}}}}));
    g = fx.sign({{"id", g["id"]}}, dora, "2026-12-20");
    CHECK(g["status"] == "adopted");
    CHECK(fx.call("set_bylaw", {{"article", "9.9"}, {"title", "Vélos"}, {"text", "Les vélos au sous-sol."}, {"category", "other"},
                                {"resolutionId", g["id"]}})["article"] == "9.9");
}

TEST_CASE("record_written_resolution refusals change nothing") {
    Board fx;
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_written_resolution", (json{{"body", "board"}, {"title", "T"}}));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_written_resolution", (json{{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "record_written_resolution",
                  (json{{"body", "board"}, {"title", "T"}, {"text", "x"}, {"majorityRequired", "simple"},
                        {"signatures", {{{"signerId", fx.president["id"]}, {"signedOn", "2026-12-20"},
                                         {"documentId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}}}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_written_resolution",
                  (json{{"body", "board"}, {"title", "T"}, {"text", "x"}, {"majorityRequired", "simple"},
                        {"signatures", {{{"signerId", fx.president["id"]}, {"signedOn", "2027-01-01"}}}}}));  // after today
    // Before the day it is put forward (recorded): a signature dated back is refused.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_written_resolution",
                  (json{{"body", "board"}, {"title", "T"}, {"text", "x"}, {"majorityRequired", "simple"},
                        {"signatures", {{{"signerId", fx.president["id"]}, {"signedOn", "2026-12-19"}}}}}));
    const auto r = fx.sign(new_board_resolution, fx.president, "2026-12-20");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_written_resolution", (json{{"id", r["id"]}, {"title", "Autre"}}));
}

TEST_CASE("a written resolution's signers are fixed when it is put forward; one who leaves makes it lapse") {
    Board fx;
    const auto r = fx.sign(new_board_resolution, fx.president, "2026-12-20");
    fx.sign({{"id", r["id"]}}, fx.secretary, "2026-12-20");
    // The treasurer resigns before signing: the two others' signatures do not adopt it.
    fx.clock.set(at("2026-12-22T15:00:00Z"));
    fx.call("end_director_mandate", {{"id", fx.treasurer["id"]}, {"endReason", "resignation"}, {"endedOn", "2026-12-21"}});
    const auto e = fx.error("record_written_resolution", {{"id", r["id"]}, {"signatures", json::array()}});
    CHECK(e.code() == "INVALID_STATUS_TRANSITION");
    CHECK(text_of(e, "status") == "lapsed");
    CHECK(text_of(e, "signerId") == fx.treasurer["id"].get<std::string>());
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "set_management_mandate",
                  (json{{"managerName", "Julie Riverin"}, {"startOn", "2026-12-22"}, {"delegatedPowers", {"gestion"}},
                        {"resolutionId", r["id"]}}));
    // A director appointed after it was put forward is no signer of it.
    const auto later = fx.appoint({{"name", "Denise Morin"}, {"termStart", "2026-12-22"}, {"resolutionId", fx.president["resolutionId"]}});
    const auto fresh = fx.sign(new_board_resolution, fx.president, "2026-12-22");
    CHECK(fresh["missingSigners"].size() == 2);  // Bruno and Denise: the two others in office now
    const auto old = fx.error("record_written_resolution", {{"id", r["id"]}, {"signatures", {{{"signerId", later["id"]}, {"signedOn", "2026-12-22"}}}}});
    CHECK(old.code() == "INVALID_STATUS_TRANSITION");  // lapsed first
}

TEST_CASE("the 90 days to contest a written resolution run from the co-owners' notice, not from a signature's date") {
    Board fx;
    fx.clock.set(at("2026-12-16T15:00:00Z"));
    const auto r = fx.sign(new_board_resolution, fx.president, "2026-12-16");
    fx.sign({{"id", r["id"]}}, fx.secretary, "2026-12-16");
    fx.clock.set(at("2027-04-01T15:00:00Z"));  // the last signature entered months later, dated back
    const auto adopted = fx.sign({{"id", r["id"]}}, fx.treasurer, "2026-12-17");
    CHECK(adopted["status"] == "adopted");
    CHECK(adopted["adoptedOn"] == "2026-12-17");
    CHECK(adopted["contestableUntil"] == "2027-06-30");  // 2027-04-01 + 90 days
}

TEST_CASE("a board meeting's notice goes to the directors in office, not the co-owners") {
    Board fx;
    fx.call("update_director", {{"id", fx.secretary["id"]}, {"email", "bruno@example.ca"}});
    const auto m = fx.call("create_meeting", {{"title", "Réunion du conseil"}, {"type", "board"},
                                              {"scheduledAt", "2027-01-20T23:00:00Z"}, {"location", "Chez Alice"}});
    const auto sent = fx.call("send_meeting_notice", {{"meetingId", m["id"]}, {"sendBy", "email"}});
    CHECK(sent["queued"] == 2);  // Alice (her co-owner e-mail) and Bruno (his director e-mail)
    CHECK(sent["withoutEmail"].size() == 1);  // Chloé
    SQLite::Statement q(fx.db->sql(), "SELECT group_concat(recipient, ' ') FROM (SELECT recipient FROM outbox "
                                      "WHERE related_id = ? ORDER BY recipient)");
    q.bind(1, m["id"].get<std::string>());
    q.executeStep();
    CHECK(q.getColumn(0).getString() == "alice@example.ca bruno@example.ca");
}

TEST_CASE("a director whose term ran out stays in office until replaced (art. 339): notified and a signer") {
    Board fx;
    fx.call("update_director", {{"id", fx.treasurer["id"]}, {"termEnd", "2026-12-18"}});  // before today, 2026-12-20
    CHECK(fx.call("get_board", json::object())["directors"].size() == 3);
    const auto m = fx.call("create_meeting", {{"title", "Réunion du conseil"}, {"type", "board"},
                                              {"scheduledAt", "2027-01-20T23:00:00Z"}, {"location", "Chez Alice"}});
    const auto sent = fx.call("send_meeting_notice", {{"meetingId", m["id"]}, {"sendBy", "email"}});
    CHECK(sent["queued"].get<int>() + sent["withoutEmail"].size() == 3);  // Chloé is still told
    auto r = fx.sign(new_board_resolution, fx.president, "2026-12-20");
    r = fx.sign({{"id", r["id"]}}, fx.secretary, "2026-12-20");
    CHECK(r["status"] == "collecting");  // her signature is still needed
    CHECK(r["missingSigners"] == json::array({{{"signerId", fx.treasurer["id"]}, {"name", fx.treasurer["name"]}}}));
    r = fx.sign({{"id", r["id"]}}, fx.treasurer, "2026-12-20");
    CHECK(r["status"] == "adopted");
}

TEST_CASE("send_minutes: final minutes attached to every co-owner, the meeting closed, lateness said") {
    Board fx;
    fx.clock.set(fixed_now());
    const auto m = fx.meeting("aga");  // 2026-12-15, notice sent on 2026-11-21
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "send_minutes", (json{{"meetingId", m["id"]}}));
    fx.clock.set(at("2026-12-16T01:00:00Z"));  // the meeting's day, 20:00 in Montreal
    fx.call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
    CHECK_REFUSED(fx, "MINUTES_NOT_FINAL", "send_minutes", (json{{"meetingId", m["id"]}}));
    fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    CHECK_REFUSED(fx, "MINUTES_NOT_FINAL", "send_minutes", (json{{"meetingId", m["id"]}}));
    const auto minutes = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", false}});
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "send_minutes",
                  (json{{"meetingId", m["id"]}, {"documentId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}));
    fx.clock.set(at("2027-01-20T15:00:00Z"));  // 36 days after the meeting
    const auto sent = fx.call("send_minutes", {{"meetingId", m["id"]}});
    CHECK(sent["meeting"]["status"] == "minutes-sent");
    CHECK(sent["documentId"] == minutes["documentId"]);
    CHECK(sent["queued"] == 1);
    CHECK(sent["withoutEmail"].size() == 2);
    CHECK(sent["daysAfterMeeting"] == 36);
    CHECK(sent["late"] == true);
    SQLite::Statement q(fx.db->sql(), "SELECT attachments, recipient FROM outbox WHERE related_id = ? AND subject LIKE 'Proc%'");
    q.bind(1, m["id"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(json::parse(q.getColumn(0).getString()) == json::array({minutes["documentId"]}));
    CHECK(q.getColumn(1).getString() == "alice@example.ca");
    CHECK(fx.count_events("meeting.minutes_sent") == 1);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "send_minutes", (json{{"meetingId", m["id"]}}));
}

TEST_CASE("send_minutes within 30 days is not late") {
    Board fx;
    fx.clock.set(fixed_now());
    const auto m = fx.meeting("board");
    fx.clock.set(at("2026-12-16T01:00:00Z"));  // the meeting's day, 20:00 in Montreal
    fx.call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
    fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", false}});
    fx.clock.set(at("2027-01-14T15:00:00Z"));  // 30 days after
    const auto sent = fx.call("send_minutes", {{"meetingId", m["id"]}});
    CHECK(sent["daysAfterMeeting"] == 30);
    CHECK(sent["late"] == false);
}

TEST_CASE("a supplementary notice (add_agenda_item) writes message.queued for each message it queues") {
    Board fx;
    fx.clock.set(fixed_now());
    const auto m = fx.meeting("aga");  // notice sent today, 2026-11-21
    const auto before = fx.count_events("message.queued");
    fx.call("add_agenda_item", {{"meetingId", m["id"]}, {"text", "Installation de bornes de recharge"}});
    CHECK(fx.count_events("message.queued") == before + 1);  // Alice, the one co-owner with an e-mail
}

}  // TEST_SUITE

}  // namespace meetings_closing_test
