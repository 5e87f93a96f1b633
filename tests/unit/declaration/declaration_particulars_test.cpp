// get_declaration and update_declaration (catalogue §3.1): defaults until recorded, the quorum as
// the one setting the CLI also sets, the warning below 50 %, the fiscal year start, the developer.
#include "declaration/declaration_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include "modules/declaration/fiscal_year.hpp"
#include "modules/declaration/parameters.hpp"
#include "storage/settings.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace declaration_particulars_test {

using namespace syndic::test;

TEST_SUITE("declaration") {

TEST_CASE("get_declaration: defaults until the particulars are recorded") {
    DeclarationFixture fx;
    const auto d = fx.call("get_declaration");
    CHECK(d["source"] == "default");
    CHECK(d["fiscalYearStart"] == "01-01");
    CHECK(d["quorumPercent"] == 51);
    CHECK(d["penaltiesAllowed"] == false);
    CHECK(d["destination"] == "residential");
    CHECK(d["immovableName"] == "Syndicat A");
    CHECK(d["boardSize"] == json{{"min", 1}, {"max", nullptr}});
    CHECK(d["developer"].is_null());
    CHECK(d["amendments"].empty());
    CHECK(d["updatedAt"].is_null());
    const auto defaults = d["defaults"];
    CHECK(std::find(defaults.begin(), defaults.end(), "quorumPercent") != defaults.end());
    CHECK(std::find(defaults.begin(), defaults.end(), "fiscalYearStart") != defaults.end());
    CHECK(d["counts"] == json{{"units", 0}, {"bylaws", 0}, {"restrictedPortions", 0}});
    CHECK(d["fractionSum"]["balanced"] == false);
}

TEST_CASE("update_declaration records the particulars; get_declaration reads them back") {
    DeclarationFixture fx;
    fx.unit("101", 60);
    fx.unit("102", 40);
    const auto d = fx.call("update_declaration", {{"registrationNumber", "12 345 678"},
                                                  {"registeredOn", "2005-06-01"},
                                                  {"notary", "Me Gagnon"},
                                                  {"immovableName", "Les Érables"},
                                                  {"commonCadastralLots", json::array({"1 234 567"})},
                                                  {"fiscalYearStart", "04-01"},
                                                  {"arrearsInterestRatePercent", 12.5},
                                                  {"penaltiesAllowed", true},
                                                  {"boardSize", {{"min", 3}, {"max", 5}}},
                                                  {"storeysAboveGround", 4}});
    CHECK(d["source"] == "recorded");
    CHECK(d["warnings"].empty());
    CHECK(d["fiscalYearStart"] == "04-01");
    CHECK(d["arrearsInterestRatePercent"] == 12.5);
    const auto got = fx.call("get_declaration");
    CHECK(got["registrationNumber"] == "12 345 678");
    CHECK(got["immovableName"] == "Les Érables");
    CHECK(got["commonCadastralLots"] == json::array({"1 234 567"}));
    CHECK(got["boardSize"] == json{{"min", 3}, {"max", 5}});
    CHECK(got["penaltiesAllowed"] == true);
    CHECK(got["storeysAboveGround"] == 4);
    CHECK(got["counts"]["units"] == 2);
    CHECK(got["fractionSum"]["balanced"] == true);
    CHECK(got["defaults"] == json::array({"quorumPercent"}));
    // Only the fields given change; null clears an optional one.
    fx.call("update_declaration", {{"notary", nullptr}});
    const auto after = fx.call("get_declaration");
    CHECK(after["notary"].is_null());
    CHECK(after["fiscalYearStart"] == "04-01");
    // Each change is declaration.updated for subscribers (catalogue §6).
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM events WHERE syndicate_id = ? AND type = 'declaration.updated'");
    q.bind(1, fx.syndicate);
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getInt() == 2);
    // Another syndicate's declaration is its own.
    CHECK(fx.call_as(fx.other_admin, "get_declaration")["source"] == "default");
}

TEST_CASE("board meetings: boardQuorum (default null, a majority in office) and boardNoticeDays (default 2)") {
    DeclarationFixture fx;
    auto d = fx.call("get_declaration");
    CHECK(d["boardQuorum"].is_null());
    CHECK(d["boardNoticeDays"] == 2);
    d = fx.call("update_declaration", {{"boardQuorum", 3}, {"boardNoticeDays", 5}});
    CHECK(d["boardQuorum"] == 3);
    CHECK(d["boardNoticeDays"] == 5);
    CHECK(fx.call("update_declaration", {{"boardQuorum", nullptr}})["boardQuorum"].is_null());
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"boardQuorum", 0}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"boardNoticeDays", nullptr}}));
}

TEST_CASE("arrearsMakeIneligible (default false) and defaultByLapseOfTime (default true), read by the board") {
    DeclarationFixture fx;
    const auto d = fx.call("get_declaration");
    CHECK(d["arrearsMakeIneligible"] == false);
    CHECK(d["defaultByLapseOfTime"] == true);
    CHECK_FALSE(syndic::declaration::board_parameters(*fx.db, fx.syndicate).arrears_make_ineligible);
    // A row made by another field keeps both defaults, as a syndicate's row from before does.
    const auto made = fx.call("update_declaration", {{"notary", "Me Gagnon"}});
    CHECK(made["arrearsMakeIneligible"] == false);
    CHECK(made["defaultByLapseOfTime"] == true);
    const auto set = fx.call("update_declaration", {{"arrearsMakeIneligible", true}, {"defaultByLapseOfTime", false}});
    CHECK(set["arrearsMakeIneligible"] == true);
    CHECK(set["defaultByLapseOfTime"] == false);
    CHECK(fx.call("get_declaration")["defaultByLapseOfTime"] == false);
    CHECK(syndic::declaration::board_parameters(*fx.db, fx.syndicate).arrears_make_ineligible);
    CHECK_FALSE(syndic::declaration::board_parameters(*fx.db, fx.other_syndicate).arrears_make_ineligible);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"arrearsMakeIneligible", nullptr}}));
}

TEST_CASE("quorumPercent is the setting syndic-mcp quorum sets: one copy") {
    DeclarationFixture fx;
    fx.call("update_declaration", {{"quorumPercent", 60}});
    CHECK(syndic::setting_number(*fx.db, fx.syndicate, "requiredQuorumPercent") == 60);
    syndic::set_setting(*fx.db, fx.syndicate, "requiredQuorumPercent", 66.666667, "2026-11-21T15:00:00.000Z");
    CHECK(fx.call("get_declaration")["quorumPercent"] == 66.666667);
    // Meetings read the same value.
    const auto m = fx.meeting();
    CHECK(fx.call("calculate_quorum", {{"meetingId", m["id"]}})["required"] == 66.666667);
}

TEST_CASE("a quorum below 50 is kept with a warning; 0 and above 100 are refused") {
    DeclarationFixture fx;
    const auto d = fx.call("update_declaration", {{"quorumPercent", 40}});
    CHECK(d["quorumPercent"] == 40);
    REQUIRE(d["warnings"].size() == 1);
    CHECK(d["warnings"][0].get<std::string>().find("1089") != std::string::npos);
    CHECK(fx.call("update_declaration", {{"quorumPercent", 50}})["warnings"].empty());
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"quorumPercent", 0}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"quorumPercent", 100.5}}));
}

TEST_CASE("fiscalYearStart: a day of every year; locked once the ledger has entries") {
    DeclarationFixture fx;
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"fiscalYearStart", "02-29"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"fiscalYearStart", "13-01"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"fiscalYearStart", "4-1"}}));
    CHECK(syndic::is_month_day("12-31"));
    CHECK_FALSE(syndic::is_month_day("04-31"));
    // No ledger yet: the lock is the accounting module's to fill (fiscal_year.hpp).
    CHECK_FALSE(syndic::ledger_has_entries(*fx.db, fx.syndicate));
    CHECK(fx.call("update_declaration", {{"fiscalYearStart", "10-01"}})["fiscalYearStart"] == "10-01");
}

TEST_CASE("the developer's co-owners and residence are checked") {
    DeclarationFixture fx;
    const auto u = fx.unit("101", 100);
    const auto co = fx.co_owner(u["id"], "Promo", "Tion");
    const auto d = fx.call("update_declaration", {{"developer", {{"coOwnerIds", json::array({co["id"]})}, {"residenceUnitId", u["id"]}}}});
    CHECK(d["developer"] == json{{"coOwnerIds", json::array({co["id"]})}, {"residenceUnitId", u["id"]}});
    CHECK(fx.call("update_declaration", {{"developer", {{"coOwnerIds", json::array()}}}})["developer"]["residenceUnitId"].is_null());
    const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_declaration",
                  json({{"developer", {{"coOwnerIds", json::array({co["id"], ghost})}}}}));
    CHECK(fx.error("update_declaration", {{"developer", {{"coOwnerIds", json::array({ghost})}}}}).field() ==
          "/developer/coOwnerIds/0");
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_declaration",
                  json({{"developer", {{"coOwnerIds", json::array()}, {"residenceUnitId", ghost}}}}));
    CHECK(fx.call("update_declaration", {{"developer", nullptr}})["developer"].is_null());
}

TEST_CASE("update_declaration is for admins; get_declaration needs read:declaration") {
    DeclarationFixture fx;
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "update_declaration", json({{"notary", "Me X"}}));
    const syndic::CallerContext reader{fx.syndicate, "key-r", {"read:co-owners"}, syndic::Role::admin};
    CHECK(fx.error_as(reader, "get_declaration").code() == "INSUFFICIENT_SCOPE");
    const syndic::CallerContext declaration_reader{fx.syndicate, "key-d", {"read:declaration"}, syndic::Role::member};
    CHECK(fx.call_as(declaration_reader, "get_declaration")["source"] == "default");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"destination", "industrial"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"boardSize", {{"min", 5}, {"max", 3}}}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_declaration", json({{"registeredOn", "2005-02-30"}}));
}

}

}  // namespace declaration_particulars_test
