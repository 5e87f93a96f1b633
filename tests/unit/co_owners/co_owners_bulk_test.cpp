// The co-owners module's bulk import (interface 2.1): bulk_create_co_owners takes every row or none,
// and names the row and field of each refusal. Every call goes through the registry.
#include "co_owners/co_owners_fixture.hpp"

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace co_owners_bulk_test {

using namespace syndic::test;
using namespace syndic::test::co_owner_fixture;

TEST_SUITE("co-owners") {

TEST_CASE("bulk_create_co_owners") {
    Fixture fx;
    const auto u101 = fx.unit("101", 50);
    const auto u102 = fx.unit("102", 50);

    SUBCASE("happy path: valid rows are created, invalid rows reported with index, code and field") {
        const json rows = json::array({
            row(u101["id"], "Marie", "Tremblay", {{"email", "marie@example.ca"}, {"isPrimary", true}}),
            row(u101["id"], "Luc", "Gagnon", {{"email", "luc@"}}),
            row(missing_id, "Paul", "Roy"),
            json{{"unitId", u102["id"]}, {"firstName", "Lise"}},
            row(u102["id"], "Anne", "Côté", {{"fractionPercent", 150}}),
            row(u102["id"], "Guy", "Cyr", {{"language", "en"}, {"fractionPercent", 10}}),
        });
        const auto r = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
        CHECK(r["createdCount"] == 2);
        CHECK(r["errorCount"] == 4);
        REQUIRE(r["created"].size() == 2);
        CHECK(r["created"][0]["index"] == 0);
        CHECK(r["created"][1]["index"] == 5);
        REQUIRE(r["errors"].size() == 4);
        CHECK(r["errors"][0]["index"] == 1);
        CHECK(r["errors"][0]["code"] == "INVALID_EMAIL");
        CHECK(r["errors"][0]["field"] == "/coOwners/1/email");
        CHECK(r["errors"][1]["index"] == 2);
        CHECK(r["errors"][1]["code"] == "UNIT_NOT_FOUND");
        CHECK(r["errors"][1]["field"] == "/coOwners/2/unitId");
        CHECK(r["errors"][2]["index"] == 3);
        CHECK(r["errors"][2]["code"] == "VALIDATION_FAILED");
        CHECK(r["errors"][2]["field"] == "/coOwners/3/lastName");
        CHECK(r["errors"][3]["index"] == 4);
        CHECK(r["errors"][3]["code"] == "FRACTION_OUT_OF_RANGE");
        CHECK(r["errors"][3]["field"] == "/coOwners/4/fractionPercent");
        for (const auto& e : r["errors"]) CHECK_FALSE(e["detail"].get<std::string>().empty());

        const auto marie = fx.call("get_co_owner", {{"id", r["created"][0]["id"]}});
        CHECK(marie["lastName"] == "Tremblay");
        CHECK(marie["isPrimary"] == true);
        CHECK(marie["email"] == "marie@example.ca");
        const auto guy = fx.call("get_co_owner", {{"id", r["created"][1]["id"]}});
        CHECK(guy["lastName"] == "Cyr");
        CHECK(guy["language"] == "en");
        CHECK(guy["fractionPercent"] == 10);
        CHECK(guy["unitNumber"] == "102");
        // The invalid rows created nothing.
        CHECK(last_names(fx.call("list_co_owners", {{"includeArchived", true}})) ==
              std::vector<std::string>{"Cyr", "Tremblay"});
    }
    SUBCASE("an unknown property in a row is that row's VALIDATION_FAILED") {
        const auto r = fx.call("bulk_create_co_owners",
                               {{"coOwners", json::array({row(u101["id"], "A", "B", {{"nickname", "x"}}),
                                                          row(u101["id"], "C", "D")})}});
        CHECK(r["createdCount"] == 1);
        REQUIRE(r["errors"].size() == 1);
        CHECK(r["errors"][0]["code"] == "VALIDATION_FAILED");
        CHECK(r["errors"][0]["field"] == "/coOwners/0/nickname");
    }
    SUBCASE("DUPLICATE_PRIMARY: two primaries for one unit in one batch, the second is refused") {
        const auto r = fx.call("bulk_create_co_owners",
                               {{"coOwners", json::array({row(u101["id"], "Marie", "Tremblay", {{"isPrimary", true}}),
                                                          row(u101["id"], "Luc", "Gagnon", {{"isPrimary", true}}),
                                                          row(u102["id"], "Paul", "Roy", {{"isPrimary", true}})})}});
        CHECK(r["createdCount"] == 2);
        REQUIRE(r["errors"].size() == 1);
        CHECK(r["errors"][0]["index"] == 1);
        CHECK(r["errors"][0]["code"] == "DUPLICATE_PRIMARY");
        CHECK(r["errors"][0]["field"] == "/coOwners/1/isPrimary");
        const auto list = fx.call("list_co_owners", {{"unitId", u101["id"]}});
        CHECK(last_names(list) == std::vector<std::string>{"Tremblay"});
    }
    SUBCASE("DUPLICATE_PRIMARY against a primary already stored") {
        fx.co_owner(u101["id"], "Marie", "Tremblay", {{"isPrimary", true}});
        const auto r = fx.call("bulk_create_co_owners",
                               {{"coOwners", json::array({row(u101["id"], "Luc", "Gagnon", {{"isPrimary", true}})})}});
        CHECK(r["createdCount"] == 0);
        REQUIRE(r["errors"].size() == 1);
        CHECK(r["errors"][0]["code"] == "DUPLICATE_PRIMARY");
        CHECK(r["errors"][0]["field"] == "/coOwners/0/isPrimary");
        CHECK(total_co_owners(fx) == 1);
    }
    SUBCASE("BULK_LIMIT_EXCEEDED for 501 rows: nothing is created") {
        json rows = json::array();
        for (int i = 0; i < 501; ++i) rows.push_back(row(u101["id"], "Pat", "Row" + std::to_string(i)));
        CHECK_REFUSED(fx, "BULK_LIMIT_EXCEEDED", "bulk_create_co_owners", (json{{"coOwners", rows}}));
        const auto e = fx.error("bulk_create_co_owners", {{"coOwners", rows}});
        CHECK(e.field() == "/coOwners");
        CHECK(figure_int(e, "limit") == 500);
        CHECK(total_co_owners(fx) == 0);
    }
    SUBCASE("exactly 500 rows are accepted") {
        json rows = json::array();
        for (int i = 0; i < 500; ++i) rows.push_back(row(i % 2 ? u101["id"] : u102["id"], "Pat", "Row" + std::to_string(i)));
        const auto r = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
        CHECK(r["createdCount"] == 500);
        CHECK(r["errorCount"] == 0);
        CHECK(r["created"].size() == 500);
        CHECK(r["created"][499]["index"] == 499);
        CHECK(total_co_owners(fx) == 500);
        CHECK(fx.call("list_co_owners", {{"unitId", u101["id"]}})["pagination"]["total"] == 250);
    }
    SUBCASE("schema rejection: empty array, missing coOwners, a row that is not an object") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "bulk_create_co_owners", (json{{"coOwners", json::array()}}));
        CHECK(has_field_error(fx.error("bulk_create_co_owners", {{"coOwners", json::array()}}), "/coOwners"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "bulk_create_co_owners", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "bulk_create_co_owners",
                      (json{{"coOwners", json::array({row(u101["id"], "A", "B"), "Marie Tremblay"})}}));
        CHECK(total_co_owners(fx) == 0);
    }
    SUBCASE("INSUFFICIENT_SCOPE with read-only credentials") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "bulk_create_co_owners",
                         (json{{"coOwners", json::array({row(u101["id"], "A", "B")})}}));
    }
}

}  // TEST_SUITE

}  // namespace co_owners_bulk_test
