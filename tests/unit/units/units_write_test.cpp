// The units module's updates and deletions (interface 2.2 and 4.3, decisions 3 and 5): update_unit
// with the links between apartments and their parking and storage units, and delete_unit with
// its guard. Every call goes through the registry.
#include "units/units_fixture.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace units_write_test {

using namespace syndic::test;
using namespace syndic::test::units_fixture;

TEST_SUITE("units") {

TEST_CASE("update_unit") {
    Fixture fx;
    const auto apt = fx.unit("101", 60, "apartment",
                             {{"floor", 1}, {"areaSqFt", 1000}, {"bedrooms", 2}, {"bathrooms", 1}, {"cadastralLot", "1 234 567"}});
    const auto apt2 = fx.unit("102", 40, "apartment", {{"floor", 1}});
    const auto p1 = fx.unit("P-1", 0, "parking", {{"floor", -1}});
    const auto p2 = fx.unit("P-2", 0, "parking", {{"floor", -1}});
    const auto s1 = fx.unit("S-1", 0, "storage", {{"floor", -1}});
    const auto shop = fx.unit("C-1", 0, "commercial", {{"floor", 0}});

    SUBCASE("the fields given change, the others stay") {
        fx.clock.advance(std::chrono::hours(1));
        const auto u = fx.call("update_unit", {{"id", apt["id"]},
                                               {"number", "101A"},
                                               {"floor", 2},
                                               {"bedrooms", 3},
                                               {"bathrooms", 2.5},
                                               {"cadastralLot", "7 654 321"}});
        CHECK(u["id"] == apt["id"]);
        CHECK(u["number"] == "101A");
        CHECK(u["floor"] == 2);
        CHECK(u["bedrooms"] == 3);
        CHECK(u["bathrooms"] == 2.5);
        CHECK(u["cadastralLot"] == "7 654 321");
        CHECK(u["type"] == "apartment");
        CHECK(u["areaSqFt"] == 1000);
        CHECK(u["areaSqM"] == 92.9);
        CHECK(u["fractionPercent"] == 60);
        CHECK(u["createdAt"] == shown_now);
        CHECK(u["updatedAt"] == "2026-11-21T11:00:00-05:00");
        CHECK(get_unit(fx, apt) == u);
        CHECK(fx.call("list_units", {{"search", "101A"}})["pagination"]["total"] == 1);
    }
    SUBCASE("the old number is free again after a rename") {
        fx.call("update_unit", {{"id", apt["id"]}, {"number", "101A"}});
        CHECK(fx.unit("101", 0)["number"] == "101");
    }
    SUBCASE("a unit may change the case of its own number") {
        CHECK(fx.call("update_unit", {{"id", p1["id"]}, {"number", "p-1"}})["number"] == "p-1");
    }
    SUBCASE("null clears floor, areas, bedrooms and cadastral lot") {
        const auto u = fx.call("update_unit", {{"id", apt["id"]},
                                               {"floor", nullptr},
                                               {"areaSqFt", nullptr},
                                               {"areaSqM", nullptr},
                                               {"bedrooms", nullptr},
                                               {"cadastralLot", nullptr}});
        CHECK(u["floor"].is_null());
        CHECK(u["areaSqFt"].is_null());
        CHECK(u["areaSqM"].is_null());
        CHECK(u["bedrooms"].is_null());
        CHECK(u["cadastralLot"].is_null());
        CHECK(u["bathrooms"] == 1);
        CHECK(get_unit(fx, apt)["floor"].is_null());
        // The floor filter no longer finds it.
        CHECK(numbers_of(fx.call("list_units", {{"floor", 1}})) == std::vector<std::string>{"102"});
    }
    SUBCASE("clearing one area clears the one derived from it") {
        const auto u = fx.call("update_unit", {{"id", apt["id"]}, {"areaSqFt", nullptr}});
        CHECK(u["areaSqFt"].is_null());
        CHECK(u["areaSqM"].is_null());
    }
    SUBCASE("a new area derives the other") {
        const auto u = fx.call("update_unit", {{"id", apt["id"]}, {"areaSqFt", 850}});
        CHECK(u["areaSqFt"] == 850);
        CHECK(u["areaSqM"] == 78.97);
        const auto v = fx.call("update_unit", {{"id", apt["id"]}, {"areaSqM", 100}});
        CHECK(v["areaSqM"] == 100);
        CHECK(v["areaSqFt"] == 1076.39);
    }
    SUBCASE("type changes when the unit has no links") {
        CHECK(fx.call("update_unit", {{"id", p2["id"]}, {"type", "storage"}})["type"] == "storage");
        CHECK(numbers_of(fx.call("list_units", {{"type", "storage"}})) == std::vector<std::string>{"P-2", "S-1"});
    }
    SUBCASE("fraction changes obey the sum rule") {
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "update_unit", (json{{"id", apt2["id"]}, {"fractionPercent", 41}}));
        const auto e = fx.error("update_unit", {{"id", apt2["id"]}, {"fractionPercent", 41}});
        CHECK(figure(e, "currentSum") == 100.0);
        CHECK(figure(e, "resultingSum") == 101.0);
        CHECK(fx.call("update_unit", {{"id", apt2["id"]}, {"fractionPercent", 40.5}})["fractionPercent"] == 40.5);
        CHECK(fraction_sum(fx) == 100.5);
        // A refused fraction change takes the other fields of the call down with it.
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "update_unit",
                      (json{{"id", apt2["id"]}, {"floor", 9}, {"fractionPercent", 30}}));
        CHECK(get_unit(fx, apt2)["floor"] == 1);
    }
    SUBCASE("UNIT_NOT_FOUND") {
        const auto e = fx.error("update_unit", {{"id", unknown_id}, {"floor", 3}});
        CHECK(e.code() == "UNIT_NOT_FOUND");
        CHECK(e.field() == "/id");
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_unit", (json{{"id", unknown_id}, {"floor", 3}}));
        const auto theirs = fx.call_as(fx.other_admin, "create_unit", {{"number", "9"}, {"type", "apartment"}});
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_unit", (json{{"id", theirs["id"]}, {"floor", 3}}));
        CHECK(fx.call_as(fx.other_admin, "get_unit", {{"id", theirs["id"]}})["floor"].is_null());
        // A link to a unit that does not exist.
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({unknown_id})}}));
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({theirs["id"]})}}));
    }
    SUBCASE("DUPLICATE_UNIT_NUMBER") {
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "update_unit", (json{{"id", apt["id"]}, {"number", "102"}}));
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "update_unit", (json{{"id", p2["id"]}, {"number", "p-1"}}));
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "update_unit", (json{{"id", p2["id"]}, {"number", "  P-1 "}}));
    }
    SUBCASE("FRACTION_OUT_OF_RANGE") {
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "update_unit", (json{{"id", apt["id"]}, {"fractionPercent", 101}}));
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "update_unit", (json{{"id", apt["id"]}, {"fractionPercent", -1}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_unit", (json{{"floor", 3}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_unit", (json{{"id", apt["id"]}, {"type", "garage"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_unit", (json{{"id", apt["id"]}, {"number", "   "}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_unit", (json{{"id", apt["id"]}, {"number", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_unit", (json{{"id", apt["id"]}, {"linkedUnits", apt2["id"]}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_unit", (json{{"id", apt["id"]}, {"colour", "blue"}}));
        CHECK(has_error_on(fx.error("update_unit", {{"id", apt["id"]}, {"type", "garage"}}), "/type"));
    }

    SUBCASE("a parking unit is linked to an apartment, seen from both sides") {
        const auto p = link(fx, p1, json::array({apt["id"]}));
        CHECK(p["linkedUnits"] == json::array({apt["id"]}));
        CHECK(get_unit(fx, p1)["linkedUnits"] == json::array({apt["id"]}));
        CHECK(get_unit(fx, apt)["linkedUnits"] == json::array({p1["id"]}));
        CHECK(get_unit(fx, apt2)["linkedUnits"].empty());
    }
    SUBCASE("an apartment may have several parking and storage units") {
        link(fx, p1, json::array({apt["id"]}));
        link(fx, p2, json::array({apt["id"]}));
        link(fx, s1, json::array({apt["id"]}));
        CHECK(id_set(get_unit(fx, apt)["linkedUnits"]) == std::set<std::string>{id_of(p1), id_of(p2), id_of(s1)});
        CHECK(get_unit(fx, s1)["linkedUnits"] == json::array({apt["id"]}));
    }
    SUBCASE("an apartment's linkedUnits set its parking and storage units") {
        const auto a = link(fx, apt, json::array({p1["id"], s1["id"]}));
        CHECK(id_set(a["linkedUnits"]) == std::set<std::string>{id_of(p1), id_of(s1)});
        CHECK(get_unit(fx, p1)["linkedUnits"] == json::array({apt["id"]}));
        CHECK(get_unit(fx, s1)["linkedUnits"] == json::array({apt["id"]}));
        // The list replaces the links: P-1 is let go.
        CHECK(link(fx, apt, json::array({s1["id"]}))["linkedUnits"] == json::array({s1["id"]}));
        CHECK(get_unit(fx, p1)["linkedUnits"].empty());
        CHECK(link(fx, apt, json::array())["linkedUnits"].empty());
        CHECK(get_unit(fx, s1)["linkedUnits"].empty());
    }
    SUBCASE("relinking to the same apartment is accepted") {
        link(fx, p1, json::array({apt["id"]}));
        CHECK(link(fx, p1, json::array({apt["id"]}))["linkedUnits"] == json::array({apt["id"]}));
        CHECK(get_unit(fx, apt)["linkedUnits"] == json::array({p1["id"]}));
        link(fx, apt, json::array({p1["id"]}));
        CHECK(get_unit(fx, apt)["linkedUnits"] == json::array({p1["id"]}));
    }
    SUBCASE("LINK_CONFLICT: a parking unit linked to two apartments") {
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({apt["id"], apt2["id"]})}}));
        CHECK(get_unit(fx, p1)["linkedUnits"].empty());
    }
    SUBCASE("LINK_CONFLICT: a link to a non-apartment") {
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({s1["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", s1["id"]}, {"linkedUnits", json::array({p1["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({shop["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({p1["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", apt["id"]}, {"linkedUnits", json::array({apt2["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", apt["id"]}, {"linkedUnits", json::array({apt["id"]})}}));
        const auto e = fx.error("update_unit", {{"id", p1["id"]}, {"linkedUnits", json::array({s1["id"]})}});
        CHECK(e.field() == "/linkedUnits/0");
    }
    SUBCASE("LINK_CONFLICT: a parking unit already linked to another apartment must be unlinked first") {
        link(fx, p1, json::array({apt["id"]}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"linkedUnits", json::array({apt2["id"]})}}));
        CHECK(get_unit(fx, p1)["linkedUnits"] == json::array({apt["id"]}));
        CHECK(link(fx, p1, json::array())["linkedUnits"].empty());
        CHECK(get_unit(fx, apt)["linkedUnits"].empty());
        CHECK(link(fx, p1, json::array({apt2["id"]}))["linkedUnits"] == json::array({apt2["id"]}));
        CHECK(get_unit(fx, apt2)["linkedUnits"] == json::array({p1["id"]}));
    }
    SUBCASE("LINK_CONFLICT: an apartment claiming a parking unit linked elsewhere") {
        link(fx, p1, json::array({apt["id"]}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", apt2["id"]}, {"linkedUnits", json::array({p2["id"], p1["id"]})}}));
        const auto e = fx.error("update_unit", {{"id", apt2["id"]}, {"linkedUnits", json::array({p2["id"], p1["id"]})}});
        CHECK(e.field() == "/linkedUnits/1");
        CHECK(get_unit(fx, apt2)["linkedUnits"].empty());
        CHECK(get_unit(fx, p2)["linkedUnits"].empty());
        CHECK(get_unit(fx, apt)["linkedUnits"] == json::array({p1["id"]}));
    }
    SUBCASE("LINK_CONFLICT: commercial units cannot be linked") {
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", shop["id"]}, {"linkedUnits", json::array({apt["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", shop["id"]}, {"linkedUnits", json::array({p1["id"]})}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", apt["id"]}, {"linkedUnits", json::array({shop["id"]})}}));
        // An empty list on a commercial unit is harmless.
        CHECK(link(fx, shop, json::array())["linkedUnits"].empty());
    }
    SUBCASE("LINK_CONFLICT: changing the type of a linked unit") {
        link(fx, p1, json::array({apt["id"]}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"type", "commercial"}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", p1["id"]}, {"type", "storage"}}));
        CHECK_REFUSED(fx, "LINK_CONFLICT", "update_unit", (json{{"id", apt["id"]}, {"type", "commercial"}}));
        const auto e = fx.error("update_unit", {{"id", apt["id"]}, {"type", "commercial"}});
        CHECK(e.field() == "/type");
        // Restating the same type is not a change.
        CHECK(fx.call("update_unit", {{"id", p1["id"]}, {"type", "parking"}})["linkedUnits"] == json::array({apt["id"]}));
        // Once unlinked, the type may change.
        link(fx, p1, json::array());
        CHECK(fx.call("update_unit", {{"id", apt["id"]}, {"type", "commercial"}})["type"] == "commercial");
    }
}

TEST_CASE("delete_unit") {
    Fixture fx;
    const auto a = fx.unit("101", 60);
    const auto b = fx.unit("102", 39.5);
    const auto c = fx.unit("103", 0.5);

    SUBCASE("happy path: gone from lists and get, number reusable") {
        fx.clock.advance(std::chrono::hours(2));
        const auto gone = fx.call("delete_unit", {{"id", c["id"]}});
        CHECK(gone["id"] == c["id"]);
        CHECK(gone["number"] == "103");
        CHECK(gone["deletedAt"] == "2026-11-21T12:00:00-05:00");
        CHECK(gone["linkedUnits"].empty());
        const auto list = fx.call("list_units");
        CHECK(list["pagination"]["total"] == 2);
        CHECK(numbers_of(list) == std::vector<std::string>{"101", "102"});
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "get_unit", (json{{"id", c["id"]}}));
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_unit", (json{{"id", c["id"]}, {"floor", 1}}));
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", c["id"]}}));
        const auto sum = fx.call("get_fraction_sum");
        CHECK(sum["sum"] == 99.5);
        CHECK(sum["unitCount"] == 2);
        const auto again = fx.unit("103", 0.5);
        CHECK(again["number"] == "103");
        CHECK(again["id"] != c["id"]);
        CHECK(fraction_sum(fx) == 100.0);
    }
    SUBCASE("UNIT_IN_USE while an active co-owner remains, accepted once archived") {
        const auto owner = fx.co_owner(id_of(c), "Marie", "Tremblay");
        const auto e = fx.error("delete_unit", {{"id", c["id"]}});
        CHECK(e.code() == "UNIT_IN_USE");
        CHECK(e.field() == "/id");
        CHECK_REFUSED(fx, "UNIT_IN_USE", "delete_unit", (json{{"id", c["id"]}}));
        CHECK(get_unit(fx, c)["number"] == "103");
        fx.call("delete_co_owner", {{"id", owner["id"]}});
        CHECK(fx.call("delete_unit", {{"id", c["id"]}})["deletedAt"] == shown_now);
        CHECK(fx.call("list_units")["pagination"]["total"] == 2);
    }
    SUBCASE("links are removed with the unit") {
        const auto p = fx.unit("P-1", 0, "parking");
        const auto s = fx.unit("S-1", 0, "storage");
        link(fx, a, json::array({p["id"], s["id"]}));
        fx.call("delete_unit", {{"id", s["id"]}});
        CHECK(get_unit(fx, a)["linkedUnits"] == json::array({p["id"]}));
        const auto listed = fx.call("get_unit", {{"id", a["id"]}, {"includeLinked", true}});
        REQUIRE(listed["linked"].size() == 1);
        CHECK(listed["linked"][0]["number"] == "P-1");
        // The storage unit's number is free, and a new S-1 starts unlinked.
        CHECK(fx.unit("S-1", 0, "storage")["linkedUnits"].empty());
        CHECK(get_unit(fx, a)["linkedUnits"] == json::array({p["id"]}));
    }
    SUBCASE("deleting a linked apartment unlinks its parking unit") {
        const auto apt = fx.unit("201", 0);
        const auto apt2 = fx.unit("202", 0);
        const auto p = fx.unit("P-1", 0, "parking", {{"linkedUnits", json::array({apt["id"]})}});
        fx.call("delete_unit", {{"id", apt["id"]}});
        CHECK(get_unit(fx, p)["linkedUnits"].empty());
        CHECK(link(fx, p, json::array({apt2["id"]}))["linkedUnits"] == json::array({apt2["id"]}));
    }
    SUBCASE("FRACTION_SUM_OUT_OF_RANGE when removing a unit breaks a balanced sum") {
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "delete_unit", (json{{"id", b["id"]}}));
        const auto e = fx.error("delete_unit", {{"id", b["id"]}});
        CHECK(figure(e, "currentSum") == 100.0);
        CHECK(figure(e, "resultingSum") == 60.5);
        CHECK(get_unit(fx, b)["fractionPercent"] == 39.5);
        // 100 -> 99.5 is still inside the range.
        fx.call("delete_unit", {{"id", c["id"]}});
        CHECK(fraction_sum(fx) == 99.5);
    }
    SUBCASE("UNIT_NOT_FOUND") {
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", unknown_id}}));
        const auto theirs = fx.call_as(fx.other_admin, "create_unit", {{"number", "9"}, {"type", "apartment"}});
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", theirs["id"]}}));
        CHECK(fx.call_as(fx.other_admin, "get_unit", {{"id", theirs["id"]}})["number"] == "9");
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_unit", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_unit", (json{{"id", 12}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_unit", (json{{"id", a["id"]}, {"force", true}}));
    }
}

}

}  // namespace units_write_test
