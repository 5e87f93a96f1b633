// appoint_director, update_director and end_director_mandate (catalogue §4.3): elections by the
// co-owners (art. 1096) and board appointments to a vacancy when the declaration allows them, the
// declaration's board size and co-owners-only rule, one president, secretary and treasurer at a
// time, removal by the co-owners only, history kept when a mandate ends.
#include "board/board_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace board_directors_test {

using namespace syndic::test;

namespace {
const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
}

TEST_SUITE("board") {

TEST_CASE("a co-owner elected by the meeting: name and contact from the register, the term from the declaration") {
    BoardFixture fx;
    fx.declare({{"directorTermYears", 2}});
    const auto r = fx.resolution_id();
    const auto d = fx.call("appoint_director", {{"coOwnerId", fx.alice["id"]}, {"role", "president"}, {"appointedBy", "meeting"},
                                                {"resolutionId", r}, {"termStart", "2026-12-15"}});
    CHECK(d["name"] == "Alice Roy");
    CHECK(d["email"] == "alice@example.ca");
    CHECK(d["phone"] == "+15145550101");
    CHECK(d["coOwnerId"] == fx.alice["id"]);
    CHECK(d["role"] == "president");
    CHECK(d["resolutionId"] == r);
    CHECK(d["termEnd"] == "2028-12-15");
    CHECK(d["status"] == "active");
    CHECK(d["endedOn"].is_null());
    CHECK(d["inArrears"] == false);
    CHECK(d["arrearsSince"].is_null());
    CHECK(d["replaceable"] == false);
    CHECK(d["termExpired"] == false);
    CHECK(d["warnings"].empty());
    CHECK(fx.last_event("director.appointed")["recordId"] == d["id"]);
    CHECK(fx.last_event("director.appointed")["data"]["name"] == "Alice Roy");
    // An outside director, by name, with the term given; no declared length: 1 year (art. 339).
    BoardFixture open;
    const auto o = open.appoint({{"name", "  Me Julie Tremblay "}, {"email", "julie@example.ca"}});
    CHECK(o["name"] == "Me Julie Tremblay");
    CHECK(o["coOwnerId"].is_null());
    CHECK(o["termEnd"] == "2027-12-15");
    CHECK(open.appoint({{"name", "Paul"}, {"termEnd", "2027-06-30"}})["termEnd"] == "2027-06-30");
}

TEST_CASE("an election needs a passed resolution of the co-owners, a simple majority being enough (art. 1096)") {
    BoardFixture fx;
    const json base = {{"coOwnerId", fx.alice["id"]}, {"role", "director"}, {"appointedBy", "meeting"}, {"termStart", "2026-12-15"}};
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "appoint_director", base);
    json with = base;
    with["resolutionId"] = ghost;
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "appoint_director", with);
    with["resolutionId"] = fx.resolution_id("simple", "pending");
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "appoint_director", with);
    with["resolutionId"] = fx.resolution_id("simple", "rejected");
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "appoint_director", with);
    with["resolutionId"] = fx.board_resolution();
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "appoint_director", with);
    with["resolutionId"] = fx.resolution_id("simple");
    const auto before = fx.count_events("director.appointed");  // the board meeting's director, elected by the fixture
    CHECK(fx.call_as(fx.member, "appoint_director", with)["status"] == "active");
    CHECK(fx.count_events("director.appointed") == before + 1);
}

TEST_CASE("the board fills a vacancy only when the declaration lets it, for the rest of the vacated term") {
    BoardFixture fx;
    fx.declare({{"directorTermYears", 2}});
    const auto leaving = fx.appoint_co_owner(fx.alice);  // term 2026-12-15 to 2028-12-15
    fx.call("end_director_mandate", {{"id", leaving["id"]}, {"endReason", "resignation"}, {"endedOn", "2027-03-01"}});
    const json vacancy = {{"coOwnerId", fx.bruno["id"]}, {"role", "director"}, {"appointedBy", "board-vacancy"},
                          {"termStart", "2027-03-10"}, {"resolutionId", fx.board_resolution()}};
    // Not allowed by the declaration: the board is the wrong body, the co-owners elect.
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "appoint_director", vacancy);
    fx.declare({{"vacancyFilledByBoard", true}});
    json general = vacancy;
    general["resolutionId"] = fx.resolution_id();
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "appoint_director", general);
    json pending = vacancy;
    pending["resolutionId"] = fx.board_resolution("pending");
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "appoint_director", pending);
    json longer = vacancy;
    longer["termEnd"] = "2029-03-10";
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "appoint_director", longer);
    const auto d = fx.call("appoint_director", vacancy);
    CHECK(d["appointedBy"] == "board-vacancy");
    CHECK(d["termEnd"] == "2028-12-15");  // the rest of Alice's term, not two years from March
}

TEST_CASE("court and developer appointments need no resolution") {
    BoardFixture fx;
    const auto c = fx.call("appoint_director", {{"name", "Administrateur provisoire"}, {"role", "director"},
                                                {"appointedBy", "court"}, {"termStart", "2026-11-01"}});
    CHECK(c["appointedBy"] == "court");
    CHECK(c["resolutionId"].is_null());
    const auto d = fx.call("appoint_director", {{"coOwnerId", fx.chloe["id"]}, {"role", "president"},
                                                {"appointedBy", "developer"}, {"termStart", "2026-11-01"}});
    CHECK(d["appointedBy"] == "developer");
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "appoint_director",
                  json({{"name", "X"}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"},
                        {"resolutionId", ghost}}));
}

TEST_CASE("who may be appointed: a co-owner of the syndicate, or an outside person when the declaration allows") {
    BoardFixture fx;
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "appoint_director",
                  json({{"coOwnerId", ghost}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    fx.call("delete_co_owner", {{"id", fx.chloe["id"]}});
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "appoint_director",
                  json({{"coOwnerId", fx.chloe["id"]}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    // Neither a co-owner nor a name.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "appoint_director",
                  json({{"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    fx.declare({{"directorsMustBeCoOwners", true}});
    CHECK_REFUSED(fx, "CO_OWNER_REQUIRED", "appoint_director",
                  json({{"name", "Me Julie Tremblay"}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    fx.appoint_co_owner(fx.alice);
    // The same co-owner twice.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "appoint_director",
                  json({{"coOwnerId", fx.alice["id"]}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    // Schema rejections.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "appoint_director",
                  json({{"name", "X"}, {"role", "chair"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "appoint_director",
                  json({{"name", "X"}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-02-30"}}));
    CHECK_REFUSED(fx, "INVALID_EMAIL", "appoint_director",
                  json({{"name", "X"}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"},
                        {"email", "pas-un-courriel"}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "appoint_director",
                  json({{"name", "X"}, {"role", "director"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"},
                        {"termEnd", "2026-10-01"}}));
}

TEST_CASE("the board's size: no more directors than boardSize.max") {
    BoardFixture fx;
    fx.declare({{"boardSize", {{"min", 1}, {"max", 2}}}});
    fx.appoint_co_owner(fx.alice);
    const auto second = fx.appoint_co_owner(fx.bruno);
    const auto r = fx.resolution_id();
    CHECK_REFUSED(fx, "BOARD_FULL", "appoint_director",
                  json({{"coOwnerId", fx.chloe["id"]}, {"role", "director"}, {"appointedBy", "meeting"},
                        {"resolutionId", r}, {"termStart", "2026-12-15"}}));
    // A seat freed by an end takes the next director.
    fx.call("end_director_mandate", {{"id", second["id"]}, {"endReason", "resignation"}, {"endedOn", "2026-12-20"}});
    CHECK(fx.appoint_co_owner(fx.chloe)["status"] == "active");
}

TEST_CASE("one president, one secretary, one treasurer at a time; vice-presidents and directors are many") {
    BoardFixture fx;
    const auto president = fx.appoint_co_owner(fx.alice, "president");
    const auto r = fx.resolution_id();
    CHECK_REFUSED(fx, "DUPLICATE_OFFICER", "appoint_director",
                  json({{"coOwnerId", fx.bruno["id"]}, {"role", "president"}, {"appointedBy", "meeting"},
                        {"resolutionId", r}, {"termStart", "2026-12-15"}}));
    const auto err = fx.error("appoint_director", {{"coOwnerId", fx.bruno["id"]}, {"role", "president"}, {"appointedBy", "meeting"},
                                                   {"resolutionId", r}, {"termStart", "2026-12-15"}});
    CHECK(err.field() == "/role");
    fx.appoint_co_owner(fx.bruno, "secretary");
    const auto t = fx.appoint({{"name", "Trésorier externe"}, {"role", "treasurer"}});
    CHECK_REFUSED(fx, "DUPLICATE_OFFICER", "appoint_director", json({{"name", "Y"}, {"role", "secretary"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    CHECK_REFUSED(fx, "DUPLICATE_OFFICER", "appoint_director", json({{"name", "Y"}, {"role", "treasurer"}, {"appointedBy", "court"}, {"termStart", "2026-11-01"}}));
    fx.appoint({{"name", "VP 1"}, {"role", "vice-president"}});
    fx.appoint({{"name", "VP 2"}, {"role", "vice-president"}});
    // update_director keeps the rule; the office is free once its holder leaves it.
    CHECK_REFUSED(fx, "DUPLICATE_OFFICER", "update_director", json({{"id", t["id"]}, {"role", "president"}}));
    fx.call("update_director", {{"id", president["id"]}, {"role", "director"}});
    CHECK(fx.call("update_director", {{"id", t["id"]}, {"role", "president"}})["role"] == "president");
    // Or once the holder's mandate ends.
    const auto c = fx.appoint_co_owner(fx.chloe);
    CHECK_REFUSED(fx, "DUPLICATE_OFFICER", "update_director", json({{"id", c["id"]}, {"role", "president"}}));
    fx.call("end_director_mandate", {{"id", t["id"]}, {"endReason", "death"}, {"endedOn", "2026-12-20"}});
    CHECK(fx.call("update_director", {{"id", c["id"]}, {"role", "president"}})["role"] == "president");
}

TEST_CASE("update_director changes office, contact or term end of an active director") {
    BoardFixture fx;
    const auto d = fx.appoint_co_owner(fx.alice);
    const auto u = fx.call("update_director", {{"id", d["id"]}, {"phone", "+15145550199"}, {"email", nullptr}, {"termEnd", "2028-06-30"}});
    CHECK(u["phone"] == "+15145550199");
    CHECK(u["email"].is_null());
    CHECK(u["termEnd"] == "2028-06-30");
    CHECK(u["role"] == "director");
    const auto e = fx.last_event("director.updated");
    CHECK(e["recordId"] == d["id"]);
    CHECK(e["changes"].is_object());
    // Nothing different: no change, no event.
    const auto before = fx.count_events("director.updated");
    fx.call("update_director", {{"id", d["id"]}, {"phone", "+15145550199"}});
    CHECK(fx.count_events("director.updated") == before);
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "update_director", json({{"id", ghost}, {"phone", "1"}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "update_director", json({{"id", d["id"]}, {"termEnd", "2026-12-14"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_director", json({{"id", d["id"]}, {"role", "chair"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_director", json({{"id", d["id"]}, {"name", "Autre"}}));
    fx.call("end_director_mandate", {{"id", d["id"]}, {"endReason", "resignation"}, {"endedOn", "2027-01-10"}});
    CHECK_REFUSED(fx, "ALREADY_ENDED", "update_director", json({{"id", d["id"]}, {"phone", "+15145550100"}}));
}

TEST_CASE("ending a mandate keeps it as history; the board's minimum is watched") {
    BoardFixture fx;
    fx.declare({{"boardSize", {{"min", 2}, {"max", 5}}}});
    const auto a = fx.appoint_co_owner(fx.alice, "president");
    const auto b = fx.appoint_co_owner(fx.bruno);
    fx.add_document(fx.syndicate, "letter-1");
    const auto first = fx.call("end_director_mandate", {{"id", a["id"]}, {"endReason", "resignation"}, {"endedOn", "2027-02-01"},
                                                        {"documentId", "letter-1"}});
    CHECK(first["status"] == "ended");
    CHECK(first["endedOn"] == "2027-02-01");
    CHECK(first["endReason"] == "resignation");
    CHECK(first["endDocumentId"] == "letter-1");
    CHECK(first["role"] == "president");  // as it was
    CHECK(first["activeDirectors"] == 1);
    CHECK(first["quorumAtRisk"] == true);
    CHECK(fx.last_event("director.mandate_ended")["recordId"] == a["id"]);
    CHECK_REFUSED(fx, "ALREADY_ENDED", "end_director_mandate", json({{"id", a["id"]}, {"endReason", "term"}, {"endedOn", "2027-03-01"}}));
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "end_director_mandate", json({{"id", ghost}, {"endReason", "term"}, {"endedOn", "2027-03-01"}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "end_director_mandate",
                  json({{"id", b["id"]}, {"endReason", "resignation"}, {"endedOn", "2027-03-01"}, {"documentId", ghost}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "end_director_mandate", json({{"id", b["id"]}, {"endReason", "term"}, {"endedOn", "2026-12-01"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "end_director_mandate", json({{"id", b["id"]}, {"endReason", "boredom"}, {"endedOn", "2027-03-01"}}));
    // Enough directors left: no risk.
    BoardFixture big;
    const auto x = big.appoint_co_owner(big.alice);
    big.appoint_co_owner(big.bruno);
    CHECK(big.call("end_director_mandate", {{"id", x["id"]}, {"endReason", "term"}, {"endedOn", "2027-03-01"}})["quorumAtRisk"] == false);
}

TEST_CASE("a removal is the co-owners' decision (art. 1096): a passed general-meeting resolution") {
    BoardFixture fx;
    const auto d = fx.appoint_co_owner(fx.alice);
    const json removal = {{"id", d["id"]}, {"endReason", "removal"}, {"endedOn", "2027-01-15"}};
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "end_director_mandate", removal);
    json with = removal;
    with["resolutionId"] = ghost;
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "end_director_mandate", with);
    with["resolutionId"] = fx.board_resolution();
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "end_director_mandate", with);
    with["resolutionId"] = fx.resolution_id("simple", "rejected");
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "end_director_mandate", with);
    with["resolutionId"] = fx.resolution_id();
    const auto ended = fx.call("end_director_mandate", with);
    CHECK(ended["endReason"] == "removal");
    CHECK(ended["endResolutionId"] == with["resolutionId"]);
}

}

}  // namespace board_directors_test
