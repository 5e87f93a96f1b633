// What a general meeting's record adds before it is held (catalogue §3.2): the art. 1087 package
// an annual meeting's notice carries, and the co-owners' requisition that called a meeting
// (art. 352). Every call goes through the registry.
#include "documents/documents_fixture.hpp"

#include <chrono>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_package_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;
using documents_fixture::b64;
using documents_fixture::pdf_bytes;

namespace {

struct PackageBuilding : Building {
    // A PDF of `kind` attached to meeting `m`, visible to co-owners unless said otherwise.
    json attach(const json& m, const std::string& kind, const std::string& title, const std::string& visibility = "co-owners") {
        return call("attach_document", {{"contentBase64", b64(pdf_bytes + title)},
                                        {"fileName", kind + ".pdf"},
                                        {"mimeType", "application/pdf"},
                                        {"kind", kind},
                                        {"title", title},
                                        {"recordType", "meeting"},
                                        {"recordId", m["id"]},
                                        {"visibility", visibility}});
    }
    // Each queued notice of `m`: its body and its attachments (a JSON array of document ids).
    std::vector<std::pair<std::string, json>> notices_of(const json& m) {
        std::vector<std::pair<std::string, json>> out;
        SQLite::Statement q(db->sql(), "SELECT body, attachments FROM outbox WHERE meeting_id = ? ORDER BY recipient");
        q.bind(1, m["id"].get<std::string>());
        while (q.executeStep()) out.emplace_back(q.getColumn(0).getString(), json::parse(q.getColumn(1).getString()));
        return out;
    }
};

json ids(std::initializer_list<json> documents) {
    json out = json::array();
    for (const auto& d : documents) out.push_back(d["id"]);
    return out;
}

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("an annual meeting's notice carries the art. 1087 package the meeting has, and says what it lacks") {
    PackageBuilding fx;
    const auto m = fx.meeting();  // aga

    SUBCASE("nothing attached: the notice goes, and packageMissing names the statements and the budget") {
        const auto sent = fx.notice(m);
        CHECK(sent["queued"] == 3);
        CHECK(sent["packageMissing"] == json({"financial-statements", "budget"}));
        CHECK(sent["packageWithheld"] == json::array());
        CHECK(sent["meeting"]["package"] == json::array());
        for (const auto& [body, attachments] : fx.notices_of(m)) {
            CHECK(attachments == json::array());
            CHECK_FALSE(contains(body, "art. 1087"));
        }
    }

    SUBCASE("every item attached: each co-owner's notice carries them all, in the law's order, and names them") {
        const auto works = fx.attach(m, "quote", "Soumission — réfection de la toiture");
        const auto budget = fx.attach(m, "budget", "Prévisions budgétaires 2027");
        const auto statements = fx.attach(m, "financial-statements", "États financiers 2025-2026");
        const auto amendment = fx.attach(m, "declaration", "Projet de modification de la déclaration");
        const auto sent = fx.notice(m);
        CHECK(sent["packageMissing"] == json::array());
        const json expected = ids({statements, budget, amendment, works});
        CHECK(sent["meeting"]["package"] == expected);
        CHECK(fx.get(m)["package"] == expected);
        const auto notices = fx.notices_of(m);
        REQUIRE(notices.size() == 3);
        for (const auto& [body, attachments] : notices) {
            CHECK(attachments == expected);
            CHECK(contains(body, "États financiers 2025-2026"));
            CHECK(contains(body, "Prévisions budgétaires 2027"));
        }
        // The English speaker's notice names them in English.
        bool english = false;
        for (const auto& [body, attachments] : notices) english = english || contains(body, "Attached documents (art. 1087");
        CHECK(english);
    }

    SUBCASE("a board-only document is kept back and said; other kinds, detached and archived ones never go") {
        const auto statements = fx.attach(m, "financial-statements", "États financiers détaillés par unité", "board");
        const auto budget = fx.attach(m, "budget", "Prévisions budgétaires 2027");
        fx.attach(m, "invoice", "Facture de déneigement");
        const auto old_budget = fx.attach(m, "budget", "Ancien budget");
        fx.call("archive_document", {{"id", old_budget["id"]}, {"reason", "remplacé"}});
        const auto detached = fx.attach(m, "quote", "Soumission retirée");  // a contract is kept (protected)
        fx.call("archive_document", {{"id", detached["id"]}, {"recordType", "meeting"}, {"recordId", m["id"]}, {"reason", "retiré"}});
        const auto sent = fx.notice(m);
        CHECK(sent["packageMissing"] == json({"financial-statements"}));
        REQUIRE(sent["packageWithheld"].size() == 1);
        CHECK(sent["packageWithheld"][0]["documentId"] == statements["id"]);
        CHECK(sent["packageWithheld"][0]["item"] == "financial-statements");
        CHECK(sent["meeting"]["package"] == ids({budget}));
        for (const auto& [body, attachments] : fx.notices_of(m)) CHECK(attachments == ids({budget}));
    }

    SUBCASE("a special meeting's and a board meeting's notices carry no package") {
        const auto special = fx.meeting({{"type", "aga-special"}});
        fx.attach(special, "budget", "Budget spécial");
        const auto sent = fx.notice(special);
        CHECK(sent["packageMissing"] == json::array());
        CHECK(sent["meeting"]["package"] == json::array());
        for (const auto& [body, attachments] : fx.notices_of(special)) CHECK(attachments == json::array());
    }

    SUBCASE("a reconvened meeting's notice carries the package of the meeting it continues, and its own") {
        const auto statements = fx.attach(m, "financial-statements", "États financiers 2025-2026");
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), absent(fx.john)}));  // 30 of 51: no quorum
        fx.on_meeting_day(m);
        const auto again = fx.call("adjourn_meeting", {{"meetingId", m["id"]}, {"reason", "no-quorum"},
                                                       {"reconveneAt", "2027-01-12T19:00:00-05:00"}, {"location", "Salle B"}})["reconvened"];
        fx.attach(again, "financial-statements", "États financiers 2025-2026");  // the same file: one document
        const auto budget = fx.attach(again, "budget", "Prévisions budgétaires 2027");
        const auto sent = fx.notice(again);
        CHECK(sent["packageMissing"] == json::array());
        CHECK(sent["meeting"]["package"] == ids({statements, budget}));
    }

    SUBCASE("the package is fixed when the notice goes: a document attached after does not join it") {
        const auto budget = fx.attach(m, "budget", "Prévisions budgétaires 2027");
        fx.notice(m);
        fx.attach(m, "financial-statements", "États financiers 2025-2026");
        CHECK(fx.get(m)["package"] == ids({budget}));
    }
}

TEST_CASE("a requisitioned meeting records who asked and when, and the board's 21 days to call it (art. 352)") {
    PackageBuilding fx;  // today is 2026-11-21
    const auto m = fx.meeting({{"type", "aga-special"}});
    const auto requisition = [&](json value) { return fx.call("update_meeting", {{"id", m["id"]}, {"requisition", value}}); };

    SUBCASE("shown with its co-owners' votes, the day to call it by, and whether the call is late") {
        const auto shown = requisition({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {fx.francois["id"]}}})["requisition"];
        CHECK(shown["receivedOn"] == "2026-11-01");
        CHECK(shown["coOwnerIds"] == json::array({fx.francois["id"]}));
        CHECK(shown["votesPercent"].get<double>() == doctest::Approx(21));
        CHECK(shown["holdsTenPercent"] == true);
        CHECK(shown["callBy"] == "2026-11-22");
        CHECK(shown["calledOn"].is_null());
        CHECK(shown["late"] == false);  // the 21st day is tomorrow

        fx.clock.set(at("2026-11-23T15:00:00Z"));  // a day past it, not yet called
        CHECK(fx.get(m)["requisition"]["late"] == true);
        const auto called = fx.notice(m)["meeting"]["requisition"];
        CHECK(called["calledOn"] == "2026-11-23");
        CHECK(called["late"] == true);
    }

    SUBCASE("called on the 21st day is in time; under 10 % of the votes is said") {
        const auto shown = requisition({{"receivedOn", "2026-10-31"}, {"coOwnerIds", {fx.marc["id"]}}})["requisition"];
        CHECK(shown["callBy"] == "2026-11-21");
        CHECK(fx.notice(m)["meeting"]["requisition"]["late"] == false);

        // Marc's 24 % moved away: his request alone now holds under 10 %.
        fx.call("update_co_owner", {{"id", fx.marc["id"]}, {"fractionPercent", 5}});
        const auto after = fx.get(m)["requisition"];
        CHECK(after["votesPercent"].get<double>() == doctest::Approx(5));
        CHECK(after["holdsTenPercent"] == false);
    }

    SUBCASE("null clears it; a board meeting, an unknown co-owner, one listed twice or a future day are refused") {
        requisition({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {fx.emilie["id"]}}});
        CHECK(requisition(nullptr)["requisition"].is_null());

        const auto board = fx.meeting({{"type", "board"}});
        CHECK_REFUSED(fx, "NOT_A_GENERAL_MEETING", "update_meeting",
                      json({{"id", board["id"]}, {"requisition", {{"receivedOn", "2026-11-01"}, {"coOwnerIds", {fx.emilie["id"]}}}}}));
        const json base = {{"id", m["id"]}};
        auto with = [&](json value) {
            json args = base;
            args["requisition"] = std::move(value);
            return args;
        };
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_meeting", with({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {unknown_id}}}));
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_meeting", with({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {fx.zoe["id"]}}}));
        // Another syndicate's co-owner is as unknown here.
        const auto their_unit = fx.call_as(fx.other_admin, "create_unit", {{"number", "A1"}, {"type", "apartment"}, {"fractionPercent", 100}});
        const auto theirs = fx.call_as(fx.other_admin, "create_co_owner", {{"unitId", their_unit["id"]}, {"firstName", "Autre"}, {"lastName", "Syndicat"}});
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_meeting", with({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {theirs["id"]}}}));
        CHECK(fx.error("update_meeting", with({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {fx.john["id"], fx.john["id"]}}}))
                  .field() == "/requisition/coOwnerIds/1");
        CHECK(fx.error("update_meeting", with({{"receivedOn", "2026-11-22"}, {"coOwnerIds", {fx.john["id"]}}})).field() ==
              "/requisition/receivedOn");
        CHECK(fx.error("update_meeting", with({{"receivedOn", "2026-11-01"}, {"coOwnerIds", json::array()}})).code() ==
              "VALIDATION_FAILED");
    }

    SUBCASE("a requisitioned meeting cannot become a board meeting, and the request is fixed once held") {
        requisition({{"receivedOn", "2026-11-01"}, {"coOwnerIds", {fx.emilie["id"]}}});
        CHECK_REFUSED(fx, "NOT_A_GENERAL_MEETING", "update_meeting", json({{"id", m["id"]}, {"type", "board"}}));
        // Another general type is fine, even once a requisitioner has left.
        fx.call("delete_co_owner", {{"id", fx.emilie["id"]}});
        CHECK(fx.call("update_meeting", {{"id", m["id"]}, {"type", "aga"}})["requisition"]["coOwnerIds"] ==
              json::array({fx.emilie["id"]}));
        fx.notice(m);
        fx.held(m);
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", json({{"id", m["id"]}, {"requisition", nullptr}}));
    }
}

}  // TEST_SUITE

}  // namespace meetings_package_test
