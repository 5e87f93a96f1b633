// The units module (interface 2.2 and 4.3, decisions 3 and 5): list, get and create units, and
// the rule that keeps the sum of the units' fractions near 100 (update and delete are in
// units_write_test.cpp). Every call goes through the registry.
#include "units/units_fixture.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace units_test {

using namespace syndic::test;
using namespace syndic::test::units_fixture;

TEST_SUITE("units") {

TEST_CASE("list_units") {
    Fixture fx;
    const auto a101 = fx.unit("101", 0, "apartment", {{"floor", 1}, {"cadastralLot", "1 234 567"}});
    const auto a102 = fx.unit("102", 0, "apartment", {{"floor", 1}});
    const auto a201 = fx.unit("201", 0, "apartment", {{"floor", 2}, {"cadastralLot", "1 234 999"}});
    const auto p1 = fx.unit("P-1", 0, "parking", {{"floor", -1}});
    const auto s1 = fx.unit("S-1", 0, "storage", {{"floor", -1}});
    const auto c1 = fx.unit("C-1", 0, "commercial", {{"floor", 0}});
    fx.call_as(fx.other_admin, "create_unit", {{"number", "999"}, {"type", "apartment"}, {"floor", 1}});

    SUBCASE("envelope with every unit of the syndicate and only those") {
        const auto list = fx.call("list_units");
        REQUIRE(list["data"].size() == 6);
        CHECK(list["pagination"]["page"] == 1);
        CHECK(list["pagination"]["pageSize"] == 50);
        CHECK(list["pagination"]["total"] == 6);
        const auto numbers = numbers_of(list);
        CHECK(std::find(numbers.begin(), numbers.end(), "999") == numbers.end());
        // Number order: 101 before 102 before 201.
        const auto pos = [&](const std::string& n) { return std::find(numbers.begin(), numbers.end(), n) - numbers.begin(); };
        CHECK(pos("101") < pos("102"));
        CHECK(pos("102") < pos("201"));
        for (const auto& u : list["data"]) {
            CHECK(u.contains("linkedUnits"));
            CHECK_FALSE(u.contains("linked"));
        }
        const auto first101 = *std::find_if(list["data"].begin(), list["data"].end(),
                                            [](const json& u) { return u["number"] == "101"; });
        CHECK(first101 == a101);
    }
    SUBCASE("filter on type") {
        const auto list = fx.call("list_units", {{"type", "parking"}});
        CHECK(numbers_of(list) == std::vector<std::string>{"P-1"});
        CHECK(list["pagination"]["total"] == 1);
        CHECK(fx.call("list_units", {{"type", "apartment"}})["pagination"]["total"] == 3);
        CHECK(numbers_of(fx.call("list_units", {{"type", "commercial"}})) == std::vector<std::string>{"C-1"});
    }
    SUBCASE("filter on floor, 0 and negative floors included") {
        auto basement = numbers_of(fx.call("list_units", {{"floor", -1}}));
        std::sort(basement.begin(), basement.end());
        CHECK(basement == std::vector<std::string>{"P-1", "S-1"});
        CHECK(numbers_of(fx.call("list_units", {{"floor", 0}})) == std::vector<std::string>{"C-1"});
        CHECK(numbers_of(fx.call("list_units", {{"floor", 1}})) == std::vector<std::string>{"101", "102"});
        const auto none = fx.call("list_units", {{"floor", 7}});
        CHECK(none["data"].empty());
        CHECK(none["pagination"]["total"] == 0);
    }
    SUBCASE("filters combine") {
        CHECK(numbers_of(fx.call("list_units", {{"type", "apartment"}, {"floor", 2}})) == std::vector<std::string>{"201"});
        CHECK(fx.call("list_units", {{"type", "parking"}, {"floor", 1}})["data"].empty());
    }
    SUBCASE("search on the number, case-insensitive") {
        CHECK(numbers_of(fx.call("list_units", {{"search", "p-1"}})) == std::vector<std::string>{"P-1"});
        CHECK(numbers_of(fx.call("list_units", {{"search", "20"}})) == std::vector<std::string>{"201"});
        const auto ones = fx.call("list_units", {{"search", "10"}});
        CHECK(numbers_of(ones) == std::vector<std::string>{"101", "102"});
        CHECK(ones["pagination"]["total"] == 2);
    }
    SUBCASE("search on the cadastral lot") {
        CHECK(numbers_of(fx.call("list_units", {{"search", "234 567"}})) == std::vector<std::string>{"101"});
        CHECK(numbers_of(fx.call("list_units", {{"search", "1 234"}})) == std::vector<std::string>{"101", "201"});
        CHECK(fx.call("list_units", {{"search", "nothing-like-this"}})["data"].empty());
    }
    SUBCASE("includeLinked adds the linked units themselves") {
        link(fx, p1, json::array({a101["id"]}));
        link(fx, s1, json::array({a101["id"]}));
        const auto list = fx.call("list_units", {{"includeLinked", true}});
        REQUIRE(list["data"].size() == 6);
        for (const auto& u : list["data"]) {
            REQUIRE(u.contains("linked"));
            if (u["number"] == "101") {
                CHECK(id_set(u["linkedUnits"]) == std::set<std::string>{id_of(p1), id_of(s1)});
                REQUIRE(u["linked"].size() == 2);
                for (const auto& l : u["linked"]) {
                    if (l["id"] == p1["id"]) {
                        CHECK(l["number"] == "P-1");
                        CHECK(l["type"] == "parking");
                        CHECK(l["fractionPercent"] == 0);
                    } else {
                        CHECK(l["id"] == s1["id"]);
                        CHECK(l["number"] == "S-1");
                        CHECK(l["type"] == "storage");
                    }
                }
            } else if (u["number"] == "P-1" || u["number"] == "S-1") {
                CHECK(u["linkedUnits"] == json::array({a101["id"]}));
                REQUIRE(u["linked"].size() == 1);
                CHECK(u["linked"][0]["id"] == a101["id"]);
                CHECK(u["linked"][0]["number"] == "101");
                CHECK(u["linked"][0]["type"] == "apartment");
            } else {
                CHECK(u["linked"].empty());
                CHECK(u["linkedUnits"].empty());
            }
        }
        // Without includeLinked the ids are there but not the records.
        const auto plain = fx.call("list_units");
        REQUIRE(plain["data"].size() == 6);
        for (const auto& u : plain["data"]) CHECK_FALSE(u.contains("linked"));
        const auto explicitly_not = fx.call("list_units", {{"includeLinked", false}});
        REQUIRE(explicitly_not["data"].size() == 6);
        for (const auto& u : explicitly_not["data"]) CHECK_FALSE(u.contains("linked"));
    }
    SUBCASE("pagination") {
        std::vector<std::string> seen;
        for (int page = 1; page <= 3; ++page) {
            const auto list = fx.call("list_units", {{"page", page}, {"pageSize", 2}});
            CHECK(list["data"].size() == 2);
            CHECK(list["pagination"]["page"] == page);
            CHECK(list["pagination"]["pageSize"] == 2);
            CHECK(list["pagination"]["total"] == 6);
            for (const auto& n : numbers_of(list)) seen.push_back(n);
        }
        CHECK(seen == numbers_of(fx.call("list_units")));
        const auto beyond = fx.call("list_units", {{"page", 4}, {"pageSize", 2}});
        CHECK(beyond["data"].empty());
        CHECK(beyond["pagination"]["total"] == 6);
        const auto filtered = fx.call("list_units", {{"type", "apartment"}, {"page", 2}, {"pageSize", 2}});
        CHECK(numbers_of(filtered) == std::vector<std::string>{"201"});
        CHECK(filtered["pagination"]["total"] == 3);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_units", (json{{"type", "garage"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_units", (json{{"pageSize", 0}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_units", (json{{"pageSize", 201}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_units", (json{{"page", 0}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_units", (json{{"floor", "one"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_units", (json{{"colour", "blue"}}));
        const auto e = fx.error("list_units", {{"type", "garage"}});
        CHECK(has_error_on(e, "/type"));
    }
    SUBCASE("read scope is enough, other scopes are not") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:co-owners"}, syndic::Role::member};
        CHECK(fx.call_as(reader, "list_units")["pagination"]["total"] == 6);
        const syndic::CallerContext meetings{fx.syndicate, "key-meetings", {"read:meetings"}, syndic::Role::admin};
        CHECK(fx.error_as(meetings, "list_units").code() == "INSUFFICIENT_SCOPE");
    }
    (void)a102; (void)a201; (void)c1;
}

TEST_CASE("get_unit") {
    Fixture fx;
    const auto apt = fx.unit("101", 25, "apartment", {{"floor", 1}, {"bedrooms", 2}, {"cadastralLot", "1 234 567"}});
    const auto parking = fx.unit("P-1", 1, "parking");

    SUBCASE("found") {
        const auto u = get_unit(fx, apt);
        CHECK(u == apt);
        CHECK(u["number"] == "101");
        CHECK(u["fractionPercent"] == 25);
        CHECK(u["bedrooms"] == 2);
        CHECK_FALSE(u.contains("linked"));
    }
    SUBCASE("includeLinked") {
        link(fx, parking, json::array({apt["id"]}));
        const auto u = fx.call("get_unit", {{"id", apt["id"]}, {"includeLinked", true}});
        CHECK(u["linkedUnits"] == json::array({parking["id"]}));
        REQUIRE(u["linked"].size() == 1);
        CHECK(u["linked"][0]["id"] == parking["id"]);
        CHECK(u["linked"][0]["number"] == "P-1");
        CHECK(u["linked"][0]["type"] == "parking");
        CHECK(u["linked"][0]["fractionPercent"] == 1);
        const auto p = fx.call("get_unit", {{"id", parking["id"]}, {"includeLinked", true}});
        CHECK(p["linkedUnits"] == json::array({apt["id"]}));
        REQUIRE(p["linked"].size() == 1);
        CHECK(p["linked"][0]["number"] == "101");
        CHECK(p["linked"][0]["fractionPercent"] == 25);
        CHECK_FALSE(get_unit(fx, apt).contains("linked"));
    }
    SUBCASE("UNIT_NOT_FOUND") {
        const auto e = fx.error("get_unit", {{"id", unknown_id}});
        CHECK(e.code() == "UNIT_NOT_FOUND");
        CHECK(e.field() == "/id");
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "get_unit", (json{{"id", "not-a-uuid"}}));
        // Another syndicate's unit is not found either.
        const auto theirs = fx.call_as(fx.other_admin, "create_unit", {{"number", "101"}, {"type", "apartment"}});
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "get_unit", (json{{"id", theirs["id"]}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_unit", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_unit", (json{{"id", apt["id"]}, {"includeLinked", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_unit", (json{{"id", ""}}));
    }
}

// The declaration answers the units' question (ToolTable::question), so the units never include it.
TEST_CASE("get_unit's restricted portions: a question the declaration answers, whichever registers first") {
    using Answer = std::function<int(int)>;
    syndic::ToolTable table;
    const auto asked = table.question<Answer>("double it");
    CHECK_FALSE(*asked);  // no module answers yet: the asker sees an empty answer
    *table.question<Answer>("double it") = [](int n) { return 2 * n; };
    REQUIRE(*asked);
    CHECK((*asked)(21) == 42);
    CHECK_THROWS_AS(table.question<int>("double it"), std::logic_error);
    // The real modules: the declaration's restricted portion shows on get_unit.
    Fixture fx;
    const auto unit = fx.unit("101", 100);
    fx.call("set_common_portion", {{"name", "Terrasse"}, {"kind", "restricted"}, {"unitIds", json::array({unit["id"]})},
                                   {"initial", true}});
    const auto shown = fx.call("get_unit", {{"id", unit["id"]}})["restrictedCommonPortions"];
    REQUIRE(shown.size() == 1);
    CHECK(shown[0]["name"] == "Terrasse");
}

TEST_CASE("create_unit") {
    Fixture fx;

    SUBCASE("happy path with every field") {
        const auto u = fx.call("create_unit", {{"number", "301"},
                                               {"type", "apartment"},
                                               {"floor", 3},
                                               {"areaSqFt", 1000},
                                               {"bedrooms", 2},
                                               {"bathrooms", 1.5},
                                               {"fractionPercent", 12.5},
                                               {"cadastralLot", "1 234 567"}});
        CHECK_FALSE(u["id"].get<std::string>().empty());
        CHECK(u["number"] == "301");
        CHECK(u["type"] == "apartment");
        CHECK(u["floor"] == 3);
        CHECK(u["areaSqFt"] == 1000);
        CHECK(u["areaSqM"] == 92.9);
        CHECK(u["bedrooms"] == 2);
        CHECK(u["bathrooms"] == 1.5);
        CHECK(u["fractionPercent"] == 12.5);
        CHECK(u["cadastralLot"] == "1 234 567");
        CHECK(u["linkedUnits"] == json::array());
        CHECK(u["createdAt"] == shown_now);
        CHECK(u["updatedAt"] == shown_now);
        CHECK_FALSE(u.contains("deletedAt"));
        CHECK(get_unit(fx, u) == u);
        CHECK(fraction_sum(fx) == 12.5);
        CHECK(fx.call("list_units")["pagination"]["total"] == 1);
    }
    SUBCASE("defaults: only number and type") {
        const auto u = fx.call("create_unit", {{"number", "P-7"}, {"type", "parking"}});
        CHECK(u["number"] == "P-7");
        CHECK(u["type"] == "parking");
        CHECK(u["floor"].is_null());
        CHECK(u["areaSqFt"].is_null());
        CHECK(u["areaSqM"].is_null());
        CHECK(u["bedrooms"].is_null());
        CHECK(u["bathrooms"].is_null());
        CHECK(u["cadastralLot"].is_null());
        CHECK(u["fractionPercent"] == 0);
        CHECK(u["linkedUnits"].empty());
    }
    SUBCASE("areaSqM derived from areaSqFt and areaSqFt from areaSqM") {
        const auto a = fx.unit("1", 0, "apartment", {{"areaSqFt", 850}});
        CHECK(a["areaSqFt"] == 850);
        CHECK(a["areaSqM"] == 78.97);  // 850 x 0.09290304 = 78.967584
        const auto b = fx.unit("2", 0, "apartment", {{"areaSqM", 100}});
        CHECK(b["areaSqM"] == 100);
        CHECK(b["areaSqFt"] == 1076.39);  // 100 / 0.09290304 = 1076.391041...
        const auto c = fx.unit("3", 0, "apartment", {{"areaSqFt", 1000}, {"areaSqM", 90}});
        CHECK(c["areaSqFt"] == 1000);  // both given: both kept as given
        CHECK(c["areaSqM"] == 90);
    }
    SUBCASE("a parking unit may be created already linked to an apartment") {
        const auto apt = fx.unit("101");
        const auto p = fx.unit("P-1", 0, "parking", {{"linkedUnits", json::array({apt["id"]})}});
        CHECK(p["linkedUnits"] == json::array({apt["id"]}));
        CHECK(get_unit(fx, apt)["linkedUnits"] == json::array({p["id"]}));
    }
    SUBCASE("number is trimmed") {
        const auto u = fx.unit("  P-2  ", 0, "parking");
        CHECK(u["number"] == "P-2");
        CHECK(numbers_of(fx.call("list_units", {{"search", "P-2"}})) == std::vector<std::string>{"P-2"});
    }
    SUBCASE("DUPLICATE_UNIT_NUMBER") {
        fx.unit("P-1", 0, "parking");
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "create_unit", (json{{"number", "P-1"}, {"type", "parking"}}));
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "create_unit", (json{{"number", "p-1"}, {"type", "parking"}}));
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "create_unit", (json{{"number", " P-1 "}, {"type", "storage"}}));
        CHECK_REFUSED(fx, "DUPLICATE_UNIT_NUMBER", "create_unit", (json{{"number", "p-1\t"}, {"type", "apartment"}}));
        const auto e = fx.error("create_unit", {{"number", "p-1"}, {"type", "parking"}});
        CHECK(e.field() == "/number");
        CHECK(fx.call("list_units")["pagination"]["total"] == 1);
        // Another syndicate may use the same number.
        CHECK(fx.call_as(fx.other_admin, "create_unit", {{"number", "P-1"}, {"type", "parking"}})["number"] == "P-1");
    }
    SUBCASE("FRACTION_OUT_OF_RANGE") {
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 101}}));
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "1"}, {"type", "apartment"}, {"fractionPercent", -1}}));
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 100.000001}}));
        const auto e = fx.error("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 101}});
        CHECK(e.field() == "/fractionPercent");
        // The bounds themselves are accepted.
        CHECK(fx.unit("1", 100)["fractionPercent"] == 100);
        CHECK(fx.unit("2", 0)["fractionPercent"] == 0);
    }
    SUBCASE("VALIDATION_FAILED") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "1"}, {"type", "garage"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "1"}, {"type", "Apartment"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"type", "apartment"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "1"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "   "}, {"type", "apartment"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", ""}, {"type", "apartment"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", 101}, {"type", "apartment"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "1"}, {"type", "apartment"}, {"floor", 1.5}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "1"}, {"type", "apartment"}, {"areaSqFt", -10}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit",
                      (json{{"number", "1"}, {"type", "apartment"}, {"fractionPercent", "10"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_unit", (json{{"number", "1"}, {"type", "apartment"}, {"colour", "blue"}}));
        CHECK(has_error_on(fx.error("create_unit", {{"number", "1"}, {"type", "garage"}}), "/type"));
        CHECK(has_error_on(fx.error("create_unit", {{"type", "apartment"}}), "/number"));
        CHECK(has_error_on(fx.error("create_unit", {{"number", "   "}, {"type", "apartment"}}), "/number"));
        CHECK(fx.call("list_units")["pagination"]["total"] == 0);
    }
    SUBCASE("FRACTION_SUM_OUT_OF_RANGE with the sums as figures") {
        fx.unit("1", 60);
        fx.unit("2", 40);
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "3"}, {"type", "apartment"}, {"fractionPercent", 0.6}}));
        const auto e = fx.error("create_unit", {{"number", "3"}, {"type", "apartment"}, {"fractionPercent", 0.6}});
        CHECK(figure(e, "currentSum") == 100.0);
        CHECK(figure(e, "resultingSum") == 100.6);
        CHECK_FALSE(e.detail().empty());
        CHECK(fraction_sum(fx) == 100.0);
        CHECK(fx.call("list_units")["pagination"]["total"] == 2);
    }
    SUBCASE("INSUFFICIENT_SCOPE for a read-only caller") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:co-owners"}, syndic::Role::admin};
        const auto before = fx.snapshot();
        const auto e = fx.error_as(reader, "create_unit", {{"number", "1"}, {"type", "apartment"}});
        CHECK(e.code() == "INSUFFICIENT_SCOPE");
        CHECK(fx.snapshot() == before);
    }
}

TEST_CASE("the fraction-sum rule on unit writes") {
    Fixture fx;

    SUBCASE("a building is entered unit by unit from 0, then the sum is held at 99.5-100.5") {
        for (int i = 1; i <= 10; ++i) {
            fx.unit(std::to_string(100 + i), 10);
            CHECK(fraction_sum(fx) == 10.0 * i);
        }
        const auto sum = fx.call("get_fraction_sum");
        CHECK(sum["sum"] == 100);
        CHECK(sum["balanced"] == true);
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "P-1"}, {"type", "parking"}, {"fractionPercent", 0.6}}));
        const auto p1 = fx.unit("P-1", 0.5, "parking");  // 100.5 is inclusive
        CHECK(p1["fractionPercent"] == 0.5);
        CHECK(fraction_sum(fx) == 100.5);
        const auto e = fx.error("create_unit", {{"number", "P-2"}, {"type", "parking"}, {"fractionPercent", 0.000001}});
        CHECK(e.code() == "FRACTION_SUM_OUT_OF_RANGE");
        CHECK(figure(e, "currentSum") == 100.5);
        CHECK(figure(e, "resultingSum") == 100.500001);
        // A unit of 0 leaves the sum as it is.
        CHECK(fx.unit("P-3", 0, "parking")["fractionPercent"] == 0);
        CHECK(fraction_sum(fx) == 100.5);
    }
    SUBCASE("99.5 is inclusive on the way down") {
        const auto a = fx.unit("1", 60);
        const auto b = fx.unit("2", 40);
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "update_unit", (json{{"id", b["id"]}, {"fractionPercent", 39.499999}}));
        const auto e = fx.error("update_unit", {{"id", b["id"]}, {"fractionPercent", 39.4}});
        CHECK(figure(e, "currentSum") == 100.0);
        CHECK(figure(e, "resultingSum") == 99.4);
        CHECK(fx.call("update_unit", {{"id", b["id"]}, {"fractionPercent", 39.5}})["fractionPercent"] == 39.5);
        CHECK(fraction_sum(fx) == 99.5);
        CHECK(fx.call("update_unit", {{"id", a["id"]}, {"fractionPercent", 61}})["fractionPercent"] == 61);
        CHECK(fraction_sum(fx) == 100.5);
    }
    SUBCASE("an overshoot is accepted only when it lands strictly closer to 100") {
        fx.unit("1", 99);
        // 99 -> 101: |1| is not strictly less than |1|.
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "2"}, {"type", "apartment"}, {"fractionPercent", 2}}));
        const auto e = fx.error("create_unit", {{"number", "2"}, {"type", "apartment"}, {"fractionPercent", 2}});
        CHECK(figure(e, "currentSum") == 99.0);
        CHECK(figure(e, "resultingSum") == 101.0);
        // 99 -> 100.8: |0.8| < |1|.
        const auto two = fx.unit("2", 1.8);
        CHECK(fraction_sum(fx) == 100.8);
        // 100.8 -> 101.1 moves away again.
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "3"}, {"type", "apartment"}, {"fractionPercent", 0.3}}));
        fx.call("update_unit", {{"id", two["id"]}, {"fractionPercent", 1}});
        CHECK(fraction_sum(fx) == 100.0);
    }
    SUBCASE("while the sum is out of range, a write moving away from 100 is refused") {
        const auto a = fx.unit("1", 50);
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "update_unit", (json{{"id", a["id"]}, {"fractionPercent", 40}}));
        const auto e = fx.error("update_unit", {{"id", a["id"]}, {"fractionPercent", 40}});
        CHECK(figure(e, "currentSum") == 50.0);
        CHECK(figure(e, "resultingSum") == 40.0);
        CHECK(fx.call("update_unit", {{"id", a["id"]}, {"fractionPercent", 55}})["fractionPercent"] == 55);
    }
    SUBCASE("writes that do not change the sum are accepted") {
        const auto a = fx.unit("1", 50);
        const auto z = fx.unit("2", 0, "parking");  // 50 -> 50
        CHECK(fx.call("update_unit", {{"id", a["id"]}, {"floor", 4}})["floor"] == 4);
        CHECK(fx.call("update_unit", {{"id", a["id"]}, {"number", "1A"}, {"bedrooms", 3}})["number"] == "1A");
        CHECK(fx.call("update_unit", {{"id", a["id"]}, {"fractionPercent", 50}})["fractionPercent"] == 50);
        CHECK(fx.call("update_unit", {{"id", z["id"]}, {"type", "storage"}})["type"] == "storage");
        CHECK(fx.call("delete_unit", {{"id", z["id"]}})["deletedAt"] == shown_now);
        CHECK(fraction_sum(fx) == 50.0);
    }
    SUBCASE("fractions are exact decimals") {
        for (const char* n : {"1", "2", "3"}) CHECK(fx.unit(n, 33.333333)["fractionPercent"] == 33.333333);
        CHECK(fraction_sum(fx) == 99.999999);
        CHECK(fx.unit("4", 0.000001)["fractionPercent"] == 0.000001);
        const auto sum = fx.call("get_fraction_sum");
        CHECK(sum["sum"].get<double>() == 100.0);
        CHECK(sum["balanced"] == true);
        CHECK(sum["unitCount"] == 4);
        // Exactly 100, so 0.5 more is still accepted and 0.500001 is not.
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "create_unit",
                      (json{{"number", "5"}, {"type", "apartment"}, {"fractionPercent", 0.500001}}));
        fx.unit("5", 0.5);
        CHECK(fraction_sum(fx) == 100.5);
    }
    SUBCASE("tenths add up without drift") {
        fx.unit("1", 0.1);
        fx.unit("2", 0.2);
        CHECK(fraction_sum(fx) == 0.3);
    }
    SUBCASE("each syndicate has its own sum") {
        fx.unit("1", 100);
        const auto theirs = fx.call_as(fx.other_admin, "create_unit",
                                       {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 30}});
        CHECK(theirs["fractionPercent"] == 30);
        CHECK(fx.call_as(fx.other_admin, "get_fraction_sum")["sum"] == 30);
        CHECK(fraction_sum(fx) == 100.0);
    }
}

}

}  // namespace units_test
