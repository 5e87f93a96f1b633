// The water heaters module (issue 8): list, create, update and delete water heaters; replaceBy
// from the manufacture date (else the installation date) and the syndicate's replacement age;
// the status against today (overdue, due-soon within 180 days, ok, unknown); the date rules.
// Every call goes through the registry; today is 2026-11-21 in Montreal (fixture.hpp).
#include "fixture.hpp"
#include "storage/settings.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "modules/water_heaters/water_heaters.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace water_heaters_test {

using namespace syndic::test;

namespace {

const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

json heater(Fixture& fx, json args) {
    if (!args.contains("unitId")) args["unitId"] = nullptr;
    return fx.call("create_water_heater", args);
}

std::vector<std::string> ids_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& r : list["data"]) out.push_back(r["id"].get<std::string>());
    return out;
}

// A document of the syndicate, for a proof of replacement.
std::string document(Fixture& fx, const std::string& syndicate) {
    const std::string id = "doc-" + syndicate.substr(0, 8);
    fx.add_document(syndicate, id);
    return id;
}

}  // namespace

TEST_SUITE("water-heaters") {

TEST_CASE("create_water_heater") {
    Fixture fx;
    const auto apt = fx.unit("101");

    SUBCASE("every field, replaceBy ten years after manufacture, shown as recorded") {
        const auto w = heater(fx, {{"unitId", apt["id"]},
                                   {"brand", "  Giant "},
                                   {"model", "\u00A0 "},
                                   {"serialNumber", "GT1705-0042"},
                                   {"capacityLitres", 151},
                                   {"manufactureDate", "2017-05-01"},
                                   {"installDate", "2017-08-15"},
                                   {"hasDrainPan", true},
                                   {"hasLeakDetector", true},
                                   {"notes", "Sous l'escalier"}});
        CHECK(w["unitId"] == apt["id"]);
        CHECK(w["unitNumber"] == "101");
        CHECK(w["brand"] == "Giant");  // trimmed
        CHECK(w["model"].is_null());   // spaces only (Unicode ones too) are no text
        CHECK(w["capacityLitres"] == 151);
        CHECK(w["hasDrainPan"] == true);
        CHECK(w["hasLeakDetector"] == true);
        CHECK(w["hasAutoShutoff"] == false);
        CHECK(w["replacementAgeYears"] == 10);
        CHECK(w["replaceBy"] == "2027-05-01");
        CHECK(w["status"] == "due-soon");  // 2027-05-01 is 161 days away
        CHECK(w["createdAt"] == "2026-11-21T10:00:00-05:00");
        CHECK_FALSE(w.contains("deletedAt"));
    }
    SUBCASE("status against today: overdue, due-soon within 180 days, ok, unknown") {
        CHECK(heater(fx, {{"manufactureDate", "2016-11-20"}})["status"] == "overdue");  // replaceBy yesterday
        CHECK(heater(fx, {{"manufactureDate", "2016-11-21"}})["status"] == "due-soon");  // replaceBy today
        CHECK(heater(fx, {{"manufactureDate", "2017-05-20"}})["status"] == "due-soon");  // today + 180 days
        CHECK(heater(fx, {{"manufactureDate", "2017-05-21"}})["status"] == "ok");        // today + 181 days
        const auto none = heater(fx, json::object());
        CHECK(none["status"] == "unknown");
        CHECK(none["replaceBy"].is_null());
    }
    SUBCASE("without a manufacture date, replaceBy counts from the installation date") {
        const auto w = heater(fx, {{"installDate", "2018-03-01"}});
        CHECK(w["replaceBy"] == "2028-03-01");
        CHECK(w["status"] == "ok");
    }
    SUBCASE("the syndicate's replacement age moves replaceBy") {
        set_setting(*fx.db, fx.syndicate, "waterHeaterReplacementYears", 12, "2026-11-21T15:00:00.000Z");
        const auto w = heater(fx, {{"manufactureDate", "2016-01-10"}});
        CHECK(w["replacementAgeYears"] == 12);
        CHECK(w["replaceBy"] == "2028-01-10");
        CHECK(w["status"] == "ok");
        // The other syndicate keeps 10.
        const auto b = fx.call_as(fx.other_admin, "create_water_heater",
                                  {{"unitId", nullptr}, {"manufactureDate", "2016-01-10"}});
        CHECK(b["replaceBy"] == "2026-01-10");
        CHECK(b["status"] == "overdue");
        CHECK_THROWS_AS(set_setting(*fx.db, fx.syndicate, "waterHeaterReplacementYears", 0, "2026-11-21T15:00:00.000Z"),
                        syndic::DomainError);
    }
    SUBCASE("a proof of replacement names a document of the syndicate") {
        const auto doc = document(fx, fx.syndicate);
        CHECK(heater(fx, {{"replacementProofDocumentId", doc}})["replacementProofDocumentId"] == doc);
        const auto theirs = document(fx, fx.other_syndicate);
        CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "create_water_heater",
                      (json{{"unitId", nullptr}, {"replacementProofDocumentId", theirs}}));
        CHECK(fx.error("create_water_heater", {{"unitId", nullptr}, {"replacementProofDocumentId", unknown_id}})
                  .field() == "/replacementProofDocumentId");
        CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "create_water_heater",
                      (json{{"unitId", nullptr}, {"replacementProofDocumentId", " "}}));
    }
    SUBCASE("UNIT_NOT_FOUND: unknown, blank, or another syndicate's unit") {
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "create_water_heater", (json{{"unitId", unknown_id}}));
        // An id of spaces names no unit: it is not the common portions (null).
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "create_water_heater", (json{{"unitId", " "}}));
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "create_water_heater", (json{{"unitId", "\u00A0"}}));
        const auto theirs = fx.call_as(fx.other_admin, "create_unit", {{"number", "9"}, {"type", "apartment"}});
        const auto e = fx.error("create_water_heater", {{"unitId", theirs["id"]}});
        CHECK(e.code() == "UNIT_NOT_FOUND");
        CHECK(e.field() == "/unitId");
    }
    SUBCASE("INVALID_DATE_RANGE: installed before made, or a date in the future") {
        const auto e = fx.error("create_water_heater",
                                {{"unitId", nullptr}, {"manufactureDate", "2018-01-01"}, {"installDate", "2017-12-31"}});
        CHECK(e.code() == "INVALID_DATE_RANGE");
        CHECK(e.field() == "/installDate");
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_water_heater",
                      (json{{"unitId", nullptr}, {"manufactureDate", "2026-11-22"}}));
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_water_heater",
                      (json{{"unitId", nullptr}, {"installDate", "2027-01-01"}}));
        // Installed the day it was made, and made today, are fine.
        CHECK(heater(fx, {{"manufactureDate", "2026-11-21"}, {"installDate", "2026-11-21"}})["status"] == "ok");
    }
    SUBCASE("schema rejections: no unitId, a date that does not exist, a date not ISO, zero litres") {
        auto e = fx.error("create_water_heater", json::object());
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_water_heater",
                      (json{{"unitId", nullptr}, {"manufactureDate", "2017-02-29"}}));
        e = fx.error("create_water_heater", {{"unitId", nullptr}, {"installDate", "15/08/2017"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/installDate");
        CHECK(fx.error("create_water_heater", {{"unitId", nullptr}, {"capacityLitres", 0}}).code() == "VALIDATION_FAILED");
        CHECK(fx.error("create_water_heater", {{"unitId", nullptr}, {"status", "ok"}}).code() == "VALIDATION_FAILED");
    }
    SUBCASE("scopes: read:water-heaters does not write") {
        const syndic::CallerContext reader{fx.syndicate, "key-r", {"read:water-heaters"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "create_water_heater", (json{{"unitId", nullptr}}));
        const syndic::CallerContext co_owners{fx.syndicate, "key-c", {"read:co-owners", "write:co-owners"}, syndic::Role::admin};
        CHECK(fx.error_as(co_owners, "list_water_heaters").code() == "INSUFFICIENT_SCOPE");
    }
    SUBCASE("the creation is in the audit trail") {
        const auto w = heater(fx, {{"brand", "Rheem"}});
        const auto events = fx.call("list_audit_events", {{"recordId", w["id"]}});
        REQUIRE(events["data"].size() == 1);
        CHECK(events["data"][0]["recordType"] == "water-heater");
        CHECK(events["data"][0]["action"] == "create");
        CHECK(events["data"][0]["tool"] == "create_water_heater");
    }
}

TEST_CASE("list_water_heaters") {
    Fixture fx;
    const auto a = fx.unit("101"), b = fx.unit("102");
    const auto overdue = heater(fx, {{"unitId", a["id"]}, {"manufactureDate", "2014-06-01"}});
    const auto soon = heater(fx, {{"unitId", b["id"]}, {"manufactureDate", "2017-02-01"}});
    const auto ok = heater(fx, {{"unitId", a["id"]}, {"manufactureDate", "2022-01-01"}});
    const auto unknown = heater(fx, json::object());
    fx.call_as(fx.other_admin, "create_water_heater", {{"unitId", nullptr}, {"manufactureDate", "2010-01-01"}});

    SUBCASE("the most urgent first, then the unknown; only the syndicate's own") {
        const auto list = fx.call("list_water_heaters");
        CHECK(ids_of(list) == std::vector<std::string>{overdue["id"], soon["id"], ok["id"], unknown["id"]});
        CHECK(list["pagination"]["total"] == 4);
        CHECK(list["pagination"]["pageSize"] == 50);
    }
    SUBCASE("filter by status") {
        CHECK(ids_of(fx.call("list_water_heaters", {{"status", "overdue"}})) == std::vector<std::string>{overdue["id"]});
        CHECK(ids_of(fx.call("list_water_heaters", {{"status", "due-soon"}})) == std::vector<std::string>{soon["id"]});
        CHECK(ids_of(fx.call("list_water_heaters", {{"status", "ok"}})) == std::vector<std::string>{ok["id"]});
        CHECK(ids_of(fx.call("list_water_heaters", {{"status", "unknown"}})) == std::vector<std::string>{unknown["id"]});
    }
    SUBCASE("the status follows the clock") {
        fx.clock.set(*syndic::parse_iso_instant("2027-03-01T12:00:00Z"));
        CHECK(fx.call("list_water_heaters", {{"status", "overdue"}})["pagination"]["total"] == 2);
    }
    SUBCASE("filter to the common portions, or to the units") {
        CHECK(ids_of(fx.call("list_water_heaters", {{"commonPortions", true}})) == std::vector<std::string>{unknown["id"]});
        CHECK(ids_of(fx.call("list_water_heaters", {{"commonPortions", false}})) ==
              std::vector<std::string>{overdue["id"], soon["id"], ok["id"]});
    }
    SUBCASE("filter by unit, and pages") {
        CHECK(ids_of(fx.call("list_water_heaters", {{"unitId", a["id"]}})) ==
              std::vector<std::string>{overdue["id"], ok["id"]});
        CHECK(fx.call("list_water_heaters", {{"unitId", unknown_id}})["data"].empty());
        const auto page2 = fx.call("list_water_heaters", {{"pageSize", 3}, {"page", 2}});
        CHECK(ids_of(page2) == std::vector<std::string>{unknown["id"]});
        CHECK(page2["pagination"]["total"] == 4);
    }
    SUBCASE("schema rejection: an unknown status") {
        const auto e = fx.error("list_water_heaters", {{"status", "late"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/status");
    }
}

TEST_CASE("update_water_heater") {
    Fixture fx;
    const auto apt = fx.unit("101");
    const auto w = heater(fx, {{"unitId", apt["id"]}, {"brand", "Giant"}, {"manufactureDate", "2015-01-01"}});

    SUBCASE("a blank unit id is refused, not taken for the common portions") {
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_water_heater", (json{{"id", w["id"]}, {"unitId", "  "}}));
        CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "update_water_heater",
                      (json{{"id", w["id"]}, {"replacementProofDocumentId", " "}}));
    }
    SUBCASE("another unit, and the proof cleared with null") {
        const auto other = fx.unit("102");
        const auto doc = document(fx, fx.syndicate);
        CHECK(fx.call("update_water_heater", {{"id", w["id"]}, {"unitId", other["id"]}, {"replacementProofDocumentId", doc}})
                  ["unitNumber"] == "102");
        const auto cleared = fx.call("update_water_heater", {{"id", w["id"]}, {"replacementProofDocumentId", nullptr}});
        CHECK(cleared["replacementProofDocumentId"].is_null());
        CHECK(cleared["unitId"] == other["id"]);
    }
    SUBCASE("only the fields given change; null clears") {
        fx.clock.advance(std::chrono::hours(1));
        const auto u = fx.call("update_water_heater",
                               {{"id", w["id"]}, {"hasAutoShutoff", true}, {"brand", nullptr}, {"unitId", nullptr}});
        CHECK(u["hasAutoShutoff"] == true);
        CHECK(u["brand"].is_null());
        CHECK(u["unitId"].is_null());
        CHECK(u["manufactureDate"] == "2015-01-01");
        CHECK(u["updatedAt"] == "2026-11-21T11:00:00-05:00");
        CHECK(u["createdAt"] == w["createdAt"]);
    }
    SUBCASE("a later manufacture date moves replaceBy and the status") {
        const auto u = fx.call("update_water_heater", {{"id", w["id"]}, {"manufactureDate", "2024-01-01"}});
        CHECK(u["replaceBy"] == "2034-01-01");
        CHECK(u["status"] == "ok");
    }
    SUBCASE("the date rules hold against the stored dates") {
        const auto e = fx.error("update_water_heater", {{"id", w["id"]}, {"installDate", "2014-12-31"}});
        CHECK(e.code() == "INVALID_DATE_RANGE");
        CHECK(e.field() == "/installDate");
        fx.call("update_water_heater", {{"id", w["id"]}, {"installDate", "2015-02-01"}});
        const auto e2 = fx.error("update_water_heater", {{"id", w["id"]}, {"manufactureDate", "2015-03-01"}});
        CHECK(e2.code() == "INVALID_DATE_RANGE");
        CHECK(e2.field() == "/manufactureDate");
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "update_water_heater", (json{{"id", w["id"]}, {"manufactureDate", "2030-01-01"}}));
    }
    SUBCASE("WATER_HEATER_NOT_FOUND, UNIT_NOT_FOUND, DOCUMENT_NOT_FOUND") {
        CHECK_REFUSED(fx, "WATER_HEATER_NOT_FOUND", "update_water_heater", (json{{"id", unknown_id}, {"brand", "x"}}));
        CHECK_REFUSED_AS(fx, fx.other_admin, "WATER_HEATER_NOT_FOUND", "update_water_heater",
                         (json{{"id", w["id"]}, {"brand", "x"}}));
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_water_heater", (json{{"id", w["id"]}, {"unitId", unknown_id}}));
        CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "update_water_heater",
                      (json{{"id", w["id"]}, {"replacementProofDocumentId", unknown_id}}));
    }
    SUBCASE("schema rejection: a field that is not a water heater's") {
        const auto e = fx.error("update_water_heater", {{"id", w["id"]}, {"replaceBy", "2040-01-01"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(fx.error("update_water_heater", {{"brand", "x"}}).code() == "VALIDATION_FAILED");  // no id
    }
}

TEST_CASE("delete_water_heater") {
    Fixture fx;
    const auto apt = fx.unit("101");
    const auto w = heater(fx, {{"unitId", apt["id"]}, {"manufactureDate", "2015-01-01"}});

    SUBCASE("archived: shown with deletedAt, gone from the list and from updates") {
        const auto d = fx.call("delete_water_heater", {{"id", w["id"]}});
        CHECK(d["deletedAt"] == "2026-11-21T10:00:00-05:00");
        CHECK(d["brand"] == w["brand"]);
        CHECK(fx.call("list_water_heaters")["data"].empty());
        CHECK_REFUSED(fx, "WATER_HEATER_NOT_FOUND", "delete_water_heater", (json{{"id", w["id"]}}));
        CHECK_REFUSED(fx, "WATER_HEATER_NOT_FOUND", "update_water_heater", (json{{"id", w["id"]}, {"brand", "x"}}));
        const auto events = fx.call("list_audit_events", {{"recordId", w["id"]}});
        REQUIRE(events["data"].size() == 2);
        CHECK(events["data"][0]["action"] == "archive");
    }
    SUBCASE("a unit with a water heater is in use; once the heater is gone the unit can go") {
        const auto e = fx.error("delete_unit", {{"id", apt["id"]}});
        CHECK(e.code() == "UNIT_IN_USE");
        CHECK(figure(e, "activeWaterHeaters") == 1);
        fx.call("delete_water_heater", {{"id", w["id"]}});
        CHECK(fx.call("delete_unit", {{"id", apt["id"]}}).contains("deletedAt"));
    }
    SUBCASE("WATER_HEATER_NOT_FOUND for another syndicate, and a schema rejection") {
        CHECK_REFUSED_AS(fx, fx.other_admin, "WATER_HEATER_NOT_FOUND", "delete_water_heater", (json{{"id", w["id"]}}));
        CHECK(fx.error("delete_water_heater", json::object()).code() == "VALIDATION_FAILED");
    }
}

}  // TEST_SUITE

}  // namespace water_heaters_test
