// get_board, record_interest_disclosure, list_interest_disclosures and set_management_mandate
// (catalogue §4.3): the board on a day against the declaration's size (art. 1084), terms ending
// within 90 days, the directors' insurance, declarations of interest (art. 324) and the manager's
// mandate granted by the board (art. 1085), one active at a time.
#include "board/board_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace board_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

std::vector<std::string> names(const json& board) {
    std::vector<std::string> out;
    for (const auto& d : board["directors"]) out.push_back(d["name"]);
    return out;
}

// The arguments of a mandate granted by the board resolution `r` (made before a CHECK_REFUSED, whose
// snapshot would see it).
json mandate_args(const std::string& r, const std::string& start, json extra = json::object()) {
    json args = {{"managerName", "Gestion Laval inc."}, {"startOn", start},
                 {"delegatedPowers", json::array({"administration courante", "perception des charges"})},
                 {"resolutionId", r}};
    args.update(extra);
    return args;
}

}  // namespace

TEST_SUITE("board") {

TEST_CASE("get_board: directors in office, officers, vacancies against the declaration's board size") {
    BoardFixture fx;
    auto empty = fx.call_as(fx.member, "get_board");
    CHECK(empty["asOf"] == "2026-11-21");  // today in Montreal
    CHECK(empty["boardSize"] == json({{"min", 1}, {"max", nullptr}}));  // the declaration's defaults
    CHECK(empty["seatsFilled"] == 0);
    CHECK(empty["vacancies"] == 1);
    CHECK(empty["belowMinimum"] == true);
    CHECK(empty["manager"].is_null());
    fx.declare({{"boardSize", {{"min", 3}, {"max", 5}}}});
    fx.appoint_co_owner(fx.bruno, "treasurer", {{"termStart", "2026-11-01"}});
    fx.appoint_co_owner(fx.alice, "president", {{"termStart", "2026-11-01"}});
    const auto later = fx.appoint_co_owner(fx.chloe, "director", {{"termStart", "2027-01-01"}});
    auto board = fx.call("get_board");
    CHECK(names(board) == std::vector<std::string>{"Alice Roy", "Bruno Côté"});  // president first; Chloé not yet
    CHECK(board["officers"]["president"] == board["directors"][0]["id"]);
    CHECK(board["officers"]["treasurer"] == board["directors"][1]["id"]);
    CHECK(board["officers"]["secretary"].is_null());
    CHECK(board["seatsFilled"] == 2);
    CHECK(board["vacancies"] == 3);
    CHECK(board["belowMinimum"] == true);
    board = fx.call("get_board", {{"asOf", "2027-01-01"}});
    CHECK(board["seatsFilled"] == 3);
    CHECK(board["vacancies"] == 2);
    CHECK(board["belowMinimum"] == false);
    // An ended mandate leaves the board from its end day; the board of a day before still shows it.
    fx.call("end_director_mandate", {{"id", later["id"]}, {"endReason", "resignation"}, {"endedOn", "2027-02-01"}});
    CHECK(fx.call("get_board", {{"asOf", "2027-02-01"}})["seatsFilled"] == 2);
    CHECK(fx.call("get_board", {{"asOf", "2027-01-31"}})["seatsFilled"] == 3);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_board", json({{"asOf", "2027-02-30"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_board", json({{"status", "active"}}));
}

TEST_CASE("get_board flags terms ending within 90 days of the day, and those already past") {
    BoardFixture fx;
    fx.appoint({{"name", "Quatre-vingt-neuf"}, {"termStart", "2026-01-01"}, {"termEnd", "2027-02-18"}});   // +89 days
    fx.appoint({{"name", "Quatre-vingt-dix"}, {"termStart", "2026-01-01"}, {"termEnd", "2027-02-19"}});    // +90
    fx.appoint({{"name", "Quatre-vingt-onze"}, {"termStart", "2026-01-01"}, {"termEnd", "2027-02-20"}});   // +91
    fx.appoint({{"name", "Échu"}, {"termStart", "2025-01-01"}, {"termEnd", "2026-11-01"}});                // past
    fx.appoint({{"name", "Un an"}, {"termStart", "2026-01-01"}});  // the default year: 2027-01-01, +41
    const auto board = fx.call("get_board");
    std::vector<std::string> flagged;
    for (const auto& t : board["termsEnding"]) flagged.push_back(t["name"].get<std::string>() + " " + std::to_string(t["daysLeft"].get<int>()));
    std::sort(flagged.begin(), flagged.end());
    CHECK(flagged == std::vector<std::string>{"Quatre-vingt-dix 90", "Quatre-vingt-neuf 89", "Un an 41", "Échu -20"});
}

TEST_CASE("get_board: the directors' insurance is an active directors-and-officers policy, or missing") {
    BoardFixture fx;
    CHECK(fx.call("get_board")["directorsInsurance"]["status"] == "missing");
    fx.call("create_insurance_policy", {{"kind", "civil-liability"}, {"insurer", "Intact"}, {"policyNumber", "RC-1"},
                                        {"startDate", "2026-01-01"}, {"endDate", "2027-01-01"}});
    CHECK(fx.call("get_board")["directorsInsurance"]["status"] == "missing");  // another kind
    const auto p = fx.call("create_insurance_policy", {{"kind", "directors-and-officers"}, {"insurer", "Chubb"},
                                                       {"policyNumber", "DO-7"}, {"startDate", "2026-01-01"},
                                                       {"endDate", "2027-01-01"}});
    const auto cover = fx.call("get_board")["directorsInsurance"];
    CHECK(cover == json({{"status", "active"}, {"policyId", p["id"]}, {"insurer", "Chubb"}, {"policyNumber", "DO-7"},
                         {"endDate", "2027-01-01"}}));
    CHECK(fx.call("get_board", {{"asOf", "2027-01-01"}})["directorsInsurance"]["status"] == "missing");  // ended
    CHECK(fx.call("get_board", {{"asOf", "2025-12-31"}})["directorsInsurance"]["status"] == "missing");  // not begun
    fx.call("delete_insurance_policy", {{"id", p["id"]}});
    CHECK(fx.call("get_board")["directorsInsurance"]["status"] == "missing");  // archived
}

TEST_CASE("a director declares an interest (art. 324): in a contractor, recorded in a meeting's minutes") {
    BoardFixture fx;
    const auto d = fx.appoint_co_owner(fx.alice);
    const auto c = fx.call("create_contractor", {{"name", "Toitures Roy"}, {"trade", "toiture"}});
    const auto m = fx.meeting("board");
    fx.add_document(fx.syndicate, "disclosure-1");
    const auto rec = fx.call_as(fx.member, "record_interest_disclosure",
                                {{"directorId", d["id"]}, {"subjectType", "contractor"}, {"subjectId", c["id"]},
                                 {"nature", "Son frère est l'actionnaire principal."}, {"valueCents", 0},
                                 {"disclosedOn", "2026-11-20"}, {"meetingId", m["id"]}, {"documentId", "disclosure-1"}});
    CHECK(rec["directorId"] == d["id"]);
    CHECK(rec["subjectId"] == c["id"]);
    CHECK(rec["meetingId"] == m["id"]);
    CHECK(rec["active"] == true);
    const auto e = fx.last_event("director.interest_disclosed");
    CHECK(e["recordId"] == rec["id"]);
    CHECK(e["recordType"] == "interest-disclosure");
    CHECK(e["data"]["nature"] == "Son frère est l'actionnaire principal.");
    CHECK(fx.count_events("director.interest_disclosed") == 1);
    // Other subjects are described, not named.
    const auto other = fx.call("record_interest_disclosure", {{"directorId", d["id"]}, {"subjectType", "other"},
                                                              {"nature", "Locataire d'un espace commercial"},
                                                              {"disclosedOn", "2026-11-01"}, {"active", false}});
    CHECK(other["subjectId"].is_null());
    CHECK(other["active"] == false);

    const json base = {{"directorId", d["id"]}, {"subjectType", "contractor"}, {"subjectId", c["id"]}, {"nature", "X"},
                       {"disclosedOn", "2026-11-20"}};
    auto with = [&](const char* key, const json& value) {
        json args = base;
        args[key] = value;
        return args;
    };
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "record_interest_disclosure", with("directorId", ghost));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "record_interest_disclosure", with("subjectId", ghost));
    CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "record_interest_disclosure", with("meetingId", ghost));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "record_interest_disclosure", with("documentId", ghost));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_interest_disclosure", with("subjectId", nullptr));  // which contractor?
    // Projects are not recorded yet: a project is described, never named.
    json project = with("subjectType", "project");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_interest_disclosure", project);
    project.erase("subjectId");
    CHECK(fx.call("record_interest_disclosure", project)["subjectType"] == "project");
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "record_interest_disclosure", with("disclosedOn", "2026-11-22"));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_interest_disclosure", with("subjectType", "family"));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_interest_disclosure", with("nature", "   "));
    // An archived contractor is not found.
    fx.call("delete_contractor", {{"id", c["id"]}});
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "record_interest_disclosure", base);
}

TEST_CASE("list_interest_disclosures: latest first, by director, subject and active") {
    BoardFixture fx;
    const auto a = fx.appoint_co_owner(fx.alice);
    const auto b = fx.appoint_co_owner(fx.bruno);
    const auto c = fx.call("create_contractor", {{"name", "Toitures Roy"}, {"trade", "toiture"}});
    fx.call("record_interest_disclosure", {{"directorId", a["id"]}, {"subjectType", "contractor"}, {"subjectId", c["id"]},
                                           {"nature", "Actionnaire"}, {"disclosedOn", "2026-10-01"}});
    fx.call("record_interest_disclosure", {{"directorId", b["id"]}, {"subjectType", "contract"}, {"nature", "Parent"},
                                           {"disclosedOn", "2026-11-01"}, {"active", false}});
    const auto all = fx.call_as(fx.member, "list_interest_disclosures");
    REQUIRE(all["pagination"]["total"] == 2);
    CHECK(all["data"][0]["disclosedOn"] == "2026-11-01");
    CHECK(fx.call("list_interest_disclosures", {{"directorId", a["id"]}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_interest_disclosures", {{"subjectType", "contractor"}, {"subjectId", c["id"]}})["data"][0]["directorId"] == a["id"]);
    CHECK(fx.call("list_interest_disclosures", {{"active", true}})["data"][0]["directorId"] == a["id"]);
    CHECK(fx.call("list_interest_disclosures", {{"active", false}})["data"][0]["directorId"] == b["id"]);
    CHECK(fx.call("list_interest_disclosures", {{"directorId", ghost}})["pagination"]["total"] == 0);
    CHECK(fx.call("list_interest_disclosures", {{"pageSize", 1}, {"page", 2}})["data"].size() == 1);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_interest_disclosures", json({{"pageSize", 0}}));
}

TEST_CASE("the manager's mandate: granted by a passed board resolution (art. 1085), admins only") {
    BoardFixture fx;
    const auto c = fx.call("create_contractor", {{"name", "Gestion Laval inc."}, {"trade", "gestion"}});
    fx.add_document(fx.syndicate, "mandate-1");
    const auto r = fx.board_resolution();
    const auto m = fx.call("set_management_mandate",
                           mandate_args(r, "2026-11-01", {{"firm", "Gestion Laval inc."}, {"contractorId", c["id"]},
                                                           {"feeCentsPerMonth", 125000}, {"documentId", "mandate-1"},
                                                           {"email", "info@gestionlaval.ca"}}));
    CHECK(m["status"] == "active");
    CHECK(m["contractorId"] == c["id"]);
    CHECK(m["feeCentsPerMonth"] == 125000);
    CHECK(m["delegatedPowers"] == json::array({"administration courante", "perception des charges"}));
    CHECK(m["endOn"].is_null());
    CHECK(fx.last_event("management_mandate.changed")["recordId"] == m["id"]);
    CHECK(fx.call("get_board")["manager"]["id"] == m["id"]);

    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "set_management_mandate", mandate_args(r, "2027-01-01"));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "set_management_mandate", mandate_args(r, "2027-01-01", {{"resolutionId", ghost}}));
    const auto rejected = fx.board_resolution("rejected");
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "set_management_mandate", mandate_args(rejected, "2027-01-01"));
    const auto general = fx.resolution_id();
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "set_management_mandate", mandate_args(general, "2027-01-01"));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "set_management_mandate", mandate_args(r, "2027-01-01", {{"contractorId", ghost}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "set_management_mandate", mandate_args(r, "2027-01-01", {{"documentId", ghost}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "set_management_mandate", mandate_args(r, "2027-01-01", {{"endOn", "2026-12-31"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_management_mandate", mandate_args(r, "2027-01-01", {{"delegatedPowers", "tout"}}));
}

TEST_CASE("one active mandate at a time: a later one ends the previous the day before it starts") {
    BoardFixture fx;
    const auto r = fx.board_resolution();
    const auto first = fx.call("set_management_mandate", mandate_args(r, "2026-01-01"));
    // The same start changes the active mandate.
    const auto changed = fx.call("set_management_mandate", mandate_args(r, "2026-01-01", {{"feeCentsPerMonth", 90000}}));
    CHECK(changed["id"] == first["id"]);
    CHECK(changed["feeCentsPerMonth"] == 90000);
    // A start before the active one's is refused.
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "set_management_mandate", mandate_args(r, "2025-12-31"));
    const auto next = fx.call("set_management_mandate", mandate_args(r, "2026-12-01", {{"managerName", "Condo Gestion"}}));
    CHECK(next["id"] != first["id"]);
    const auto board = fx.call("get_board", {{"asOf", "2026-11-30"}});
    CHECK(board["manager"]["id"] == first["id"]);
    CHECK(board["manager"]["endOn"] == "2026-11-30");
    CHECK(board["manager"]["status"] == "ended");
    CHECK(fx.call("get_board", {{"asOf", "2026-12-01"}})["manager"]["managerName"] == "Condo Gestion");
    CHECK(fx.call("get_board", {{"asOf", "2025-12-31"}})["manager"].is_null());
    // Both mandates changed: each has its event.
    CHECK(fx.count_events("management_mandate.changed") == 4);
    // endOn ends the active mandate; a past end shows it ended at once.
    const auto ended = fx.call("set_management_mandate",
                               mandate_args(r, "2026-12-01", {{"managerName", "Condo Gestion"}, {"endOn", "2026-12-31"}}));
    CHECK(ended["id"] == next["id"]);
    CHECK(ended["endOn"] == "2026-12-31");
    CHECK(fx.call("get_board", {{"asOf", "2027-01-01"}})["manager"].is_null());
}

TEST_CASE("documents attach to a director and to the manager's mandate (their record types are targets)") {
    BoardFixture fx;
    fx.add_document(fx.syndicate, "court-order");
    const auto d = fx.call("appoint_director", {{"name", "Administrateur provisoire"}, {"role", "director"},
                                                {"appointedBy", "court"}, {"termStart", "2026-11-01"}});
    fx.call("attach_document", {{"documentId", "court-order"}, {"recordType", "director"}, {"recordId", d["id"]}});
    const auto r = fx.board_resolution();
    const auto m = fx.call("set_management_mandate", mandate_args(r, "2026-11-01"));
    fx.call("attach_document", {{"documentId", "court-order"}, {"recordType", "management-mandate"}, {"recordId", m["id"]}});
    const auto listed = fx.call("list_documents", {{"recordType", "director"}, {"recordId", d["id"]}});
    CHECK(listed["pagination"]["total"] == 1);
    CHECK_REFUSED(fx, "TARGET_NOT_FOUND", "attach_document",
                  json({{"documentId", "court-order"}, {"recordType", "director"}, {"recordId", ghost}}));
}

}

}  // namespace board_test
