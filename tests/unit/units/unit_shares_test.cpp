// The co-owners of a unit share its fraction (with its linked parking and storage units): a sole
// co-owner holds it by default, together they never hold more, and every write that could break
// this (co-owners created, updated, restored, in bulk; units changed, unlinked, deleted,
// rebalanced) keeps it, so a quorum never passes 100 %.
#include "fixture.hpp"

#include <chrono>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace unit_shares_test {

using namespace syndic::test;

namespace {

// The fraction of a co-owner as stored now.
json fraction_of(Fixture& fx, const json& c) { return fx.call("get_co_owner", {{"id", c["id"]}})["fractionPercent"]; }

json figures(const syndic::DomainError& e) { return syndic::error_data(e); }

}  // namespace

TEST_SUITE("unit-shares") {

TEST_CASE("a sole co-owner holds the unit's fraction by default, the next ones what is left") {
    Fixture fx;
    const auto u = fx.unit("101", 40);
    const auto marie = fx.co_owner(u["id"], "Marie", "Tremblay");
    CHECK(marie["fractionPercent"] == 40);
    CHECK(fx.co_owner(u["id"], "Luc", "Tremblay")["fractionPercent"] == 0);

    const auto v = fx.unit("102", 30);
    CHECK(fx.co_owner(v["id"], "Anne", "Roy", {{"fractionPercent", 12.5}})["fractionPercent"] == 12.5);
    CHECK(fx.co_owner(v["id"], "Guy", "Roy")["fractionPercent"] == 17.5);
}

TEST_CASE("a parking or storage unit linked to an apartment adds its fraction to the apartment's co-owners") {
    Fixture fx;
    const auto apt = fx.unit("101", 14.5);
    fx.unit("P-1", 1.5, "parking", {{"linkedUnits", {apt["id"]}}});
    CHECK(fx.co_owner(apt["id"], "Marie", "Tremblay")["fractionPercent"] == 16);
}

TEST_CASE("co-owners may not hold more than their unit's fraction together") {
    Fixture fx;
    const auto u = fx.unit("101", 50);
    const auto other = fx.unit("102", 50);
    const auto a = fx.co_owner(u["id"], "Anne", "Roy", {{"fractionPercent", 30}});

    SUBCASE("create_co_owner: the figures say the unit's fraction, what is held and what was asked") {
        const json args = {{"unitId", u["id"]}, {"firstName", "Guy"}, {"lastName", "Roy"}, {"fractionPercent", 25}};
        CHECK_REFUSED(fx, "CO_OWNER_FRACTION_EXCEEDS_UNIT", "create_co_owner", args);
        const auto e = fx.error("create_co_owner", args);
        CHECK(e.field() == "/fractionPercent");
        const auto data = figures(e);
        CHECK(data["unitFraction"] == 50);
        CHECK(data["alreadyHeld"] == 30);
        CHECK(data["asked"] == 25);
        CHECK(data["unitNumber"] == "101");
        CHECK(syndic::http_status(e.code()) == 422);
        // Exactly the rest is fine.
        CHECK(fx.co_owner(u["id"], "Guy", "Roy", {{"fractionPercent", 20}})["fractionPercent"] == 20);
    }
    SUBCASE("update_co_owner: raising a fraction, or moving to a unit already held") {
        fx.co_owner(u["id"], "Guy", "Roy", {{"fractionPercent", 20}});
        CHECK_REFUSED(fx, "CO_OWNER_FRACTION_EXCEEDS_UNIT", "update_co_owner",
                      (json{{"id", a["id"]}, {"fractionPercent", 30.000001}}));
        CHECK(fx.call("update_co_owner", {{"id", a["id"]}, {"fractionPercent", 10}})["fractionPercent"] == 10);
        fx.co_owner(other["id"], "Zoé", "Cyr");  // holds the whole of 102
        const auto e = fx.error("update_co_owner", {{"id", a["id"]}, {"unitId", other["id"]}});
        CHECK(e.code() == "CO_OWNER_FRACTION_EXCEEDS_UNIT");
        CHECK(e.field() == "/unitId");
    }
    SUBCASE("restore_co_owner: an archived co-owner's share taken in the meantime") {
        fx.call("delete_co_owner", {{"id", a["id"]}});
        fx.co_owner(u["id"], "Guy", "Roy");  // sole active co-owner: the whole 50
        CHECK_REFUSED(fx, "CO_OWNER_FRACTION_EXCEEDS_UNIT", "restore_co_owner", (json{{"id", a["id"]}}));
    }
    SUBCASE("bulk_create_co_owners: rows are checked in order, each against those before") {
        const auto r = fx.call("bulk_create_co_owners",
                               {{"coOwners", {{{"unitId", u["id"]}, {"firstName", "B"}, {"lastName", "B"}, {"fractionPercent", 15}},
                                              {{"unitId", u["id"]}, {"firstName", "C"}, {"lastName", "C"}, {"fractionPercent", 10}},
                                              {{"unitId", u["id"]}, {"firstName", "D"}, {"lastName", "D"}}}}});
        CHECK(r["createdCount"] == 2);
        CHECK(r["errors"][0]["index"] == 1);
        CHECK(r["errors"][0]["code"] == "CO_OWNER_FRACTION_EXCEEDS_UNIT");
        CHECK(r["errors"][0]["field"] == "/coOwners/1/fractionPercent");
        CHECK(fx.call("get_co_owner", {{"id", r["created"][1]["id"]}})["fractionPercent"] == 5);
    }
}

TEST_CASE("a unit's co-owners keep their share of it when its fraction changes") {
    Fixture fx;
    const auto u = fx.unit("101", 40);
    const auto v = fx.unit("102", 70);  // 110: the sum rule lets changes bring it back to 100
    const auto a = fx.co_owner(u["id"], "Anne", "Roy", {{"fractionPercent", 30}});
    const auto b = fx.co_owner(u["id"], "Guy", "Roy");  // the 10 left
    const auto c = fx.co_owner(v["id"], "Zoé", "Cyr", {{"fractionPercent", 35}});  // half of 102

    SUBCASE("update_unit scales them, and the whole unit stays held") {
        fx.call("update_unit", {{"id", u["id"]}, {"fractionPercent", 30}});
        CHECK(fraction_of(fx, a) == 22.5);
        CHECK(fraction_of(fx, b) == 7.5);
        CHECK(fraction_of(fx, c) == 35);
    }
    SUBCASE("rebalance_fractions scales them with the units") {
        fx.call("rebalance_fractions");
        const double held = fraction_of(fx, a).get<double>() + fraction_of(fx, b).get<double>();
        const double unit = fx.call("get_unit", {{"id", u["id"]}})["fractionPercent"].get<double>();
        CHECK(syndic::Fraction::from_percent(held) == syndic::Fraction::from_percent(unit));
        CHECK(fraction_of(fx, c).get<double>() <= 31.818182);  // half of 102, now 63.636364
        CHECK(fraction_of(fx, c).get<double>() > 31.8);
    }
    SUBCASE("unlinking a parking unit the co-owners hold a share of is refused until they hold less") {
        const auto p = fx.unit("P-1", 0, "parking", {{"linkedUnits", {v["id"]}}});
        fx.call("update_unit", {{"id", v["id"]}, {"fractionPercent", 58}});
        fx.call("update_unit", {{"id", p["id"]}, {"fractionPercent", 2}});
        fx.call("update_co_owner", {{"id", c["id"]}, {"fractionPercent", 60}});
        CHECK_REFUSED(fx, "CO_OWNER_FRACTION_EXCEEDS_UNIT", "update_unit",
                      (json{{"id", p["id"]}, {"linkedUnits", json::array()}}));
        fx.call("update_co_owner", {{"id", c["id"]}, {"fractionPercent", 58}});
        CHECK(fx.call("update_unit", {{"id", p["id"]}, {"linkedUnits", json::array()}})["linkedUnits"].empty());
    }
}

TEST_CASE("the quorum never passes 100 %: two co-owners of a whole building hold it once") {
    Fixture fx;
    const auto u = fx.unit("1", 100);
    const auto a = fx.co_owner(u["id"], "Anne", "Roy", {{"fractionPercent", 95}});
    // Today's main accepted this second 95 % and reached a quorum of 190 %.
    CHECK_REFUSED(fx, "CO_OWNER_FRACTION_EXCEEDS_UNIT", "create_co_owner",
                  (json{{"unitId", u["id"]}, {"firstName", "Guy"}, {"lastName", "Roy"}, {"fractionPercent", 95}}));
    const auto b = fx.co_owner(u["id"], "Guy", "Roy");
    CHECK(b["fractionPercent"] == 5);
    const auto m = fx.call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2026-12-20T00:00:00Z"}, {"location", "Salle"}});
    fx.call("send_meeting_notice", {{"meetingId", m["id"]}});
    fx.call("record_attendance", {{"meetingId", m["id"]},
                                  {"attendees", {{{"coOwnerId", a["id"]}, {"attendance", "present"}},
                                                 {{"coOwnerId", b["id"]}, {"attendance", "present"}}}}});
    // One fraction (fewer than five): Anne, holding more than half the votes, is reduced to the
    // votes of the others present (art. 1091): 5 + 5.
    CHECK(fx.call("calculate_quorum", {{"meetingId", m["id"]}})["total"] == 10);
}

}  // TEST_SUITE

}  // namespace unit_shares_test
