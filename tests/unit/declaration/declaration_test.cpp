// The declaration module (interface 4.3 fraction consistency, decisions 5): the sum of the units'
// fractions and its proportional rebalancing to exactly 100. Every call goes through the registry.
#include "fixture.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace declaration_test {

using namespace syndic::test;

namespace {


std::optional<std::string> text_figure(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return std::nullopt;
}

double fraction_of(Fixture& fx, const json& unit) {
    return fx.call("get_unit", {{"id", unit["id"]}})["fractionPercent"].get<double>();
}

// Each unit's fraction by number, as listed.
std::map<std::string, double> fractions(Fixture& fx) {
    std::map<std::string, double> out;
    const auto list = fx.call("list_units", {{"pageSize", 200}});
    for (const auto& u : list["data"])
        out[u["number"].get<std::string>()] = u["fractionPercent"].get<double>();
    return out;
}

syndic::CallerContext reader(const Fixture& fx) {
    return {fx.syndicate, "key-reader", {"read:co-owners"}, syndic::Role::admin};
}

}  // namespace

TEST_SUITE("declaration") {

TEST_CASE("get_fraction_sum") {
    Fixture fx;

    SUBCASE("no units yet") {
        const auto s = fx.call("get_fraction_sum");
        CHECK(s["sum"] == 0);
        CHECK(s["unitCount"] == 0);
        CHECK(s["min"] == 99.5);
        CHECK(s["max"] == 100.5);
        CHECK(s["balanced"] == false);
    }
    SUBCASE("a complete declaration") {
        fx.unit("101", 60);
        fx.unit("102", 39.75);
        fx.unit("P-1", 0.25, "parking");
        const auto s = fx.call("get_fraction_sum");
        CHECK(s["sum"].get<double>() == 100.0);
        CHECK(s["unitCount"] == 3);
        CHECK(s["min"] == 99.5);
        CHECK(s["max"] == 100.5);
        CHECK(s["balanced"] == true);
    }
    SUBCASE("balanced means 99.5 to 100.5 inclusive") {
        const auto a = fx.unit("1", 50);
        const auto b = fx.unit("2", 49.499999);  // 99.499999: closer to 100, accepted
        auto s = fx.call("get_fraction_sum");
        CHECK(s["sum"] == 99.499999);
        CHECK(s["balanced"] == false);
        fx.call("update_unit", {{"id", b["id"]}, {"fractionPercent", 49.5}});
        s = fx.call("get_fraction_sum");
        CHECK(s["sum"] == 99.5);
        CHECK(s["balanced"] == true);
        fx.call("update_unit", {{"id", b["id"]}, {"fractionPercent", 50.5}});
        s = fx.call("get_fraction_sum");
        CHECK(s["sum"] == 100.5);
        CHECK(s["balanced"] == true);
        (void)a;
    }
    SUBCASE("just above 100.5 is not balanced") {
        fx.unit("1", 50);
        fx.unit("2", 50.500001);  // 50 -> 100.500001 lands closer to 100, accepted
        const auto s = fx.call("get_fraction_sum");
        CHECK(s["sum"] == 100.500001);
        CHECK(s["balanced"] == false);
        CHECK(s["unitCount"] == 2);
    }
    SUBCASE("deleted units and other syndicates' units do not count") {
        fx.unit("1", 30);
        const auto gone = fx.unit("2", 0, "storage");
        fx.call("delete_unit", {{"id", gone["id"]}});
        fx.call_as(fx.other_admin, "create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 55}});
        const auto s = fx.call("get_fraction_sum");
        CHECK(s["sum"] == 30);
        CHECK(s["unitCount"] == 1);
        const auto theirs = fx.call_as(fx.other_admin, "get_fraction_sum");
        CHECK(theirs["sum"] == 55);
        CHECK(theirs["unitCount"] == 1);
    }
    SUBCASE("read:co-owners is enough; other scopes are not") {
        fx.unit("1", 100);
        const auto s = fx.call_as(reader(fx), "get_fraction_sum");
        CHECK(s["sum"] == 100);
        CHECK(s["balanced"] == true);
        const syndic::CallerContext meetings{fx.syndicate, "key-meetings", {"read:meetings"}, syndic::Role::admin};
        const auto e = fx.error_as(meetings, "get_fraction_sum");
        CHECK(e.code() == "INSUFFICIENT_SCOPE");
        CHECK(text_figure(e, "requiredScope") == std::optional<std::string>("read:co-owners"));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_fraction_sum", (json{{"syndicate", "other"}}));
    }
}

TEST_CASE("rebalance_fractions") {
    Fixture fx;

    SUBCASE("a sum of 90 is scaled proportionally to exactly 100, remainder on the largest unit") {
        const auto big = fx.unit("101", 50);
        const auto mid = fx.unit("102", 30);
        const auto small = fx.unit("P-1", 10, "parking");
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["sum"].get<double>() == 100.0);
        CHECK(r["balanced"] == true);
        CHECK(r["unitCount"] == 3);
        CHECK(r["min"] == 99.5);
        CHECK(r["max"] == 100.5);
        CHECK(r["previousSum"] == 90);
        CHECK(r["dryRun"] == false);
        REQUIRE(r["changes"].size() == 3);
        for (const auto& c : r["changes"]) {
            if (c["unitId"] == big["id"]) {
                CHECK(c["number"] == "101");
                CHECK(c["before"] == 50);
                CHECK(c["after"] == 55.555556);
            } else if (c["unitId"] == mid["id"]) {
                CHECK(c["before"] == 30);
                CHECK(c["after"] == 33.333333);
            } else {
                CHECK(c["unitId"] == small["id"]);
                CHECK(c["before"] == 10);
                CHECK(c["after"] == 11.111111);
            }
        }
        // 50 x 100/90 = 55.5555..., 30 x 100/90 = 33.3333..., 10 x 100/90 = 11.1111...
        CHECK(fraction_of(fx, big) == 55.555556);
        CHECK(fraction_of(fx, mid) == 33.333333);
        CHECK(fraction_of(fx, small) == 11.111111);
        const auto s = fx.call("get_fraction_sum");
        CHECK(s["sum"].get<double>() == 100.0);
        CHECK(s["balanced"] == true);
        // Balanced now: the sum rule holds the declaration in place.
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "update_unit", (json{{"id", big["id"]}, {"fractionPercent", 50}}));
    }
    SUBCASE("three equal units: one gets the extra millionth, the sum is exactly 100") {
        fx.unit("1", 10);
        fx.unit("2", 10);
        fx.unit("3", 10);
        fx.call("rebalance_fractions");
        const auto f = fractions(fx);
        REQUIRE(f.size() == 3);
        int high = 0, low = 0;
        for (const auto& [number, value] : f) {
            if (value == 33.333334) ++high;
            else if (value == 33.333333) ++low;
            else FAIL_CHECK("unit " << number << " has " << value);
        }
        CHECK(high == 1);
        CHECK(low == 2);
        CHECK(fx.call("get_fraction_sum")["sum"].get<double>() == 100.0);
    }
    SUBCASE("a sum above 100 is scaled down") {
        const auto a = fx.unit("1", 60);
        const auto b = fx.unit("2", 60);  // 60 -> 120 lands closer to 100, so it is accepted
        CHECK(fx.call("get_fraction_sum")["sum"] == 120);
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["previousSum"] == 120);
        CHECK(fraction_of(fx, a) == 50.0);
        CHECK(fraction_of(fx, b) == 50.0);
        CHECK(fx.call("get_fraction_sum")["sum"].get<double>() == 100.0);
    }
    SUBCASE("units of 0 stay at 0 and are not listed as changes") {
        const auto a = fx.unit("1", 40);
        const auto b = fx.unit("2", 40);
        const auto zero = fx.unit("P-1", 0, "parking");
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["changes"].size() == 2);
        for (const auto& c : r["changes"]) CHECK(c["unitId"] != zero["id"]);
        CHECK(fraction_of(fx, zero) == 0.0);
        CHECK(fraction_of(fx, a) == 50.0);
        CHECK(fraction_of(fx, b) == 50.0);
        CHECK(r["unitCount"] == 3);
    }
    SUBCASE("an exact 100 needs no change") {
        fx.unit("1", 33.333333);
        fx.unit("2", 33.333333);
        fx.unit("3", 33.333334);
        const auto before = fx.snapshot();
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["changes"].empty());
        CHECK(r["previousSum"] == 100);
        CHECK(r["sum"] == 100);
        CHECK(fx.snapshot() == before);
    }
    SUBCASE("a second rebalance changes nothing") {
        fx.unit("1", 10);
        fx.unit("2", 20);
        fx.unit("3", 40);
        fx.call("rebalance_fractions");
        const auto once = fractions(fx);
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["changes"].empty());
        CHECK(fractions(fx) == once);
        CHECK(r["sum"].get<double>() == 100.0);
    }
    SUBCASE("dryRun shows the changes and writes nothing") {
        const auto a = fx.unit("101", 50);
        fx.unit("102", 30);
        fx.unit("P-1", 10, "parking");
        const auto before = fx.snapshot();
        const auto r = fx.call("rebalance_fractions", {{"dryRun", true}});
        CHECK(r["dryRun"] == true);
        CHECK(r["previousSum"] == 90);
        CHECK(r["sum"].get<double>() == 100.0);
        CHECK(r["balanced"] == true);
        CHECK(r["unitCount"] == 3);
        REQUIRE(r["changes"].size() == 3);
        for (const auto& c : r["changes"])
            if (c["unitId"] == a["id"]) CHECK(c["after"] == 55.555556);
        CHECK(fx.snapshot() == before);
        CHECK(fx.call("get_fraction_sum")["sum"] == 90);
        CHECK(fraction_of(fx, a) == 50.0);
        // The real run then does what the dry run showed.
        const auto real = fx.call("rebalance_fractions");
        CHECK(real["changes"] == r["changes"]);
    }
    SUBCASE("only the caller's syndicate is rebalanced") {
        fx.unit("1", 45);
        const auto theirs = fx.call_as(fx.other_admin, "create_unit",
                                       {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 45}});
        fx.call("rebalance_fractions");
        CHECK(fx.call("get_fraction_sum")["sum"] == 100);
        CHECK(fx.call_as(fx.other_admin, "get_unit", {{"id", theirs["id"]}})["fractionPercent"] == 45);
        CHECK(fx.call_as(fx.other_admin, "get_fraction_sum")["sum"] == 45);
    }
    SUBCASE("FRACTION_SUM_OUT_OF_RANGE when the sum is 0") {
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "rebalance_fractions", json::object());
        fx.unit("1", 0);
        fx.unit("2", 0);
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "rebalance_fractions", json::object());
        CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "rebalance_fractions", (json{{"dryRun", true}}));
        const auto e = fx.error("rebalance_fractions");
        CHECK(figure(e, "currentSum") == 0.0);
    }
    SUBCASE("INSUFFICIENT_SCOPE for a caller with read scopes only") {
        fx.unit("1", 10);
        fx.unit("2", 80);
        const auto before = fx.snapshot();
        const auto e = fx.error_as(reader(fx), "rebalance_fractions");
        CHECK(e.code() == "INSUFFICIENT_SCOPE");
        const auto scope = text_figure(e, "requiredScope");
        REQUIRE(scope.has_value());
        CHECK(scope->rfind("write:", 0) == 0);
        CHECK(fx.snapshot() == before);
        CHECK(fx.error_as(reader(fx), "rebalance_fractions", {{"dryRun", true}}).code() == "INSUFFICIENT_SCOPE");
        // The same reader may still read the sum.
        CHECK(fx.call_as(reader(fx), "get_fraction_sum")["sum"] == 90);
    }
    SUBCASE("schema rejection") {
        fx.unit("1", 90);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "rebalance_fractions", (json{{"dryRun", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "rebalance_fractions", (json{{"target", 100}}));
    }
}

}

}  // namespace declaration_test
