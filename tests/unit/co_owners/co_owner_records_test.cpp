// Two rules of the co-owners register a user meets when the register changes hands or is typed
// twice: the primary co-owner is replaced in one call when asked (takeOverPrimary), and a person
// entered twice on the same unit is named (possibleDuplicateOf), not refused.
#include "fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace co_owner_records_test {

using namespace syndic::test;

TEST_SUITE("co-owner-records") {

TEST_CASE("takeOverPrimary: the primary co-owner changes in one call, the unit never without one") {
    Fixture fx;
    const auto u = fx.unit("101", 50);
    const auto marie = fx.co_owner(u["id"], "Marie", "Tremblay", {{"isPrimary", true}, {"fractionPercent", 25}});
    const auto luc = fx.co_owner(u["id"], "Luc", "Tremblay");
    fx.clock.advance(std::chrono::hours(1));

    SUBCASE("without the flag: DUPLICATE_PRIMARY as before, naming the primary, nothing changed") {
        CHECK_REFUSED(fx, "DUPLICATE_PRIMARY", "update_co_owner", (json{{"id", luc["id"]}, {"isPrimary", true}}));
        const auto e = fx.error("update_co_owner", {{"id", luc["id"]}, {"isPrimary", true}});
        CHECK(syndic::error_data(e)["primaryCoOwnerId"] == marie["id"]);
        CHECK(e.detail().find("takeOverPrimary") != std::string::npos);
    }
    SUBCASE("update_co_owner {isPrimary: true, takeOverPrimary: true}") {
        const auto now_primary =
            fx.call("update_co_owner", {{"id", luc["id"]}, {"isPrimary", true}, {"takeOverPrimary", true}});
        CHECK(now_primary["isPrimary"] == true);
        const auto former = fx.call("get_co_owner", {{"id", marie["id"]}});
        CHECK(former["isPrimary"] == false);
        CHECK(former["updatedAt"] == now_primary["updatedAt"]);
        const auto list = fx.call("list_co_owners", {{"unitId", u["id"]}});
        int primaries = 0;
        for (const auto& c : list["data"]) primaries += c["isPrimary"].get<bool>() ? 1 : 0;
        CHECK(primaries == 1);
    }
    SUBCASE("create_co_owner {isPrimary: true, takeOverPrimary: true}, and in bulk") {
        const auto anne = fx.co_owner(u["id"], "Anne", "Roy", {{"isPrimary", true}, {"takeOverPrimary", true}});
        CHECK(anne["isPrimary"] == true);
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}})["isPrimary"] == false);
        const auto r = fx.call("bulk_create_co_owners",
                               {{"coOwners", {{{"unitId", u["id"]}, {"firstName", "Guy"}, {"lastName", "Roy"},
                                               {"isPrimary", true}, {"takeOverPrimary", true}}}}});
        CHECK(r["createdCount"] == 1);
        CHECK(fx.call("get_co_owner", {{"id", anne["id"]}})["isPrimary"] == false);
    }
    SUBCASE("a refused take-over demotes no one") {
        CHECK_REFUSED(fx, "CO_OWNER_FRACTION_EXCEEDS_UNIT", "update_co_owner",
                      (json{{"id", luc["id"]}, {"isPrimary", true}, {"takeOverPrimary", true}, {"fractionPercent", 40}}));
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}})["isPrimary"] == true);
    }
}

TEST_CASE("a person entered twice on a unit is named in possibleDuplicateOf, and created") {
    Fixture fx;
    const auto u = fx.unit("101", 50);
    const auto other = fx.unit("102", 50);
    const auto marie = fx.co_owner(u["id"], "Marie", "Tremblay", {{"email", "marie@example.ca"}, {"fractionPercent", 20}});
    CHECK_FALSE(marie.contains("possibleDuplicateOf"));

    const auto again = fx.co_owner(u["id"], "marie", "TREMBLAY", {{"email", "Marie@Example.ca"}, {"fractionPercent", 0}});
    CHECK(again["possibleDuplicateOf"] == marie["id"]);
    CHECK(fx.call("get_co_owner", {{"id", again["id"]}}).contains("possibleDuplicateOf") == false);  // a warning, not data
    CHECK(fx.call("list_co_owners", {{"unitId", u["id"]}})["data"].size() == 2);

    SUBCASE("another e-mail, or another unit, is another person") {
        CHECK_FALSE(fx.co_owner(u["id"], "Marie", "Tremblay", {{"email", "mt@example.org"}, {"fractionPercent", 0}})
                        .contains("possibleDuplicateOf"));
        CHECK_FALSE(fx.co_owner(other["id"], "Marie", "Tremblay", {{"email", "marie@example.ca"}}).contains("possibleDuplicateOf"));
    }
    SUBCASE("bulk rows and updates say so too") {
        const auto r = fx.call("bulk_create_co_owners",
                               {{"coOwners", {{{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", "Tremblay"},
                                               {"email", "marie@example.ca"}, {"fractionPercent", 0}}}}});
        // Marie is there twice already (same clock here): either is named.
        const auto named = [&](const json& id) { return id == marie["id"] || id == again["id"]; };
        CHECK(named(r["created"][0]["possibleDuplicateOf"]));
        const auto luc = fx.co_owner(u["id"], "Luc", "Roy", {{"fractionPercent", 0}});
        const auto renamed = fx.call("update_co_owner", {{"id", luc["id"]}, {"firstName", "Marie"}, {"lastName", "Tremblay"},
                                                         {"email", "marie@example.ca"}});
        // Now three Maries (the bulk row too), all made on the same clock: any of them is named.
        const auto bulk_marie = r["created"][0]["id"];
        CHECK((named(renamed["possibleDuplicateOf"]) || renamed["possibleDuplicateOf"] == bulk_marie));
    }
}

}  // TEST_SUITE

}  // namespace co_owner_records_test
