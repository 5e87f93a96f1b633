#include "fixture.hpp"

#include <string>
#include <vector>

using namespace syndic::test;

namespace {


// Syndicate A (the fixture's admin) with a small building, and syndicate B (fx.other_admin) with
// nothing yet. Every test has B reach for A's records.
struct TwoSyndicates : Fixture {
    json a101, a102, a_parking;  // A's units: fractions 60 + 39.8 + 0 = 99.8
    json marie;                  // A's primary co-owner of 101, with portal access
    json jean;                   // A's archived co-owner of 102

    TwoSyndicates() {
        a101 = unit("101", 60);
        a102 = unit("102", 39.8);
        a_parking = unit("P-1", 0, "parking");
        a_parking = call("update_unit", {{"id", a_parking["id"]}, {"linkedUnits", json::array({a101["id"]})}});
        marie = co_owner(a101["id"], "Marie", "Tremblay",
                         {{"email", "marie@example.ca"}, {"isPrimary", true}, {"hasPortalAccess", true}});
        jean = co_owner(a102["id"], "Jean", "Lapointe", {{"isPrimary", true}});
        call("delete_co_owner", {{"id", jean["id"]}});
        jean = call("get_co_owner", {{"id", jean["id"]}});
    }

    json as_b(const std::string& tool, const json& args = json::object()) { return call_as(other_admin, tool, args); }

    // Every row of one syndicate's business tables, to prove B's calls left A's data alone.
    std::string rows_of(const std::string& syndicate_id) {
        std::string out;
        for (const char* table : {"units", "unit_links", "co_owners"}) {
            SQLite::Statement q(db->sql(), std::string("SELECT * FROM ") + table + " WHERE syndicate_id = ? ORDER BY 1");
            q.bind(1, syndicate_id);
            const int n = q.getColumnCount();
            int count = 0;
            while (q.executeStep()) {
                ++count;
                for (int i = 0; i < n; ++i) out += (q.getColumn(i).isNull() ? "<null>" : q.getColumn(i).getString()) + "|";
                out += "\n";
            }
            out += std::string(table) + ": " + std::to_string(count) + "\n--\n";
        }
        return out;
    }
    std::string rows_of_a() { return rows_of(syndicate); }
};

std::vector<std::string> numbers_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& u : list["data"]) out.push_back(u["number"]);
    return out;
}

}  // namespace

TEST_SUITE("tenancy") {

TEST_CASE("list_co_owners: syndicate B sees none of A's co-owners") {
    TwoSyndicates fx;
    REQUIRE(fx.call("list_co_owners", {{"includeArchived", true}})["pagination"]["total"] == 2);

    for (const auto& args : {json::object(), json{{"includeArchived", true}}, json{{"search", "tremblay"}},
                             json{{"search", "example.ca"}}, json{{"unitId", fx.a101["id"]}},
                             json{{"hasPortalAccess", true}}}) {
        CAPTURE(args.dump());
        const auto list = fx.as_b("list_co_owners", args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
    }

    // B's own co-owner, with the same name: each syndicate lists only its own.
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_marie =
        fx.as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Marie"}, {"lastName", "Tremblay"}});
    const auto b_list = fx.as_b("list_co_owners", {{"includeArchived", true}});
    REQUIRE(b_list["data"].size() == 1);
    CHECK(b_list["data"][0]["id"] == b_marie["id"]);
    CHECK(b_list["pagination"]["total"] == 1);
    const auto a_list = fx.call("list_co_owners", {{"search", "tremblay"}});
    REQUIRE(a_list["data"].size() == 1);
    CHECK(a_list["data"][0]["id"] == fx.marie["id"]);
}

TEST_CASE("get_co_owner: A's co-owners are not found for B") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "get_co_owner", (json{{"id", fx.marie["id"]}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "get_co_owner", (json{{"id", fx.jean["id"]}}));
    // Indistinguishable from an id that exists nowhere.
    CHECK(fx.error_as(fx.other_admin, "get_co_owner", {{"id", fx.marie["id"]}}).field() ==
          fx.error_as(fx.other_admin, "get_co_owner", {{"id", "00000000-0000-4000-8000-000000000000"}}).field());
    CHECK(fx.call("get_co_owner", {{"id", fx.marie["id"]}}) == fx.marie);
    CHECK(fx.rows_of_a() == before);
}

TEST_CASE("create_co_owner: B cannot attach a co-owner to A's unit") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "create_co_owner",
                     (json{{"unitId", fx.a101["id"]}, {"firstName", "Eve"}, {"lastName", "Intruse"}}));
    CHECK(fx.error_as(fx.other_admin, "create_co_owner",
                      {{"unitId", fx.a101["id"]}, {"firstName", "Eve"}, {"lastName", "Intruse"}})
              .field() == "/unitId");

    // B's own unit 101 takes its own primary co-owner although A's 101 has one.
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_primary = fx.as_b("create_co_owner", {{"unitId", b101["id"]},
                                                       {"firstName", "Luc"},
                                                       {"lastName", "Gagnon"},
                                                       {"isPrimary", true}});
    CHECK(b_primary["isPrimary"] == true);
    CHECK(b_primary["unitNumber"] == "101");
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("list_co_owners", {{"unitId", fx.a101["id"]}})["pagination"]["total"] == 1);
}

TEST_CASE("update_co_owner: B can neither change A's co-owner nor move its own into A's unit") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "update_co_owner",
                     (json{{"id", fx.marie["id"]}, {"email", "attacker@example.com"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "update_co_owner",
                     (json{{"id", fx.jean["id"]}, {"firstName", "X"}}));

    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_luc =
        fx.as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"}});
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_co_owner",
                     (json{{"id", b_luc["id"]}, {"unitId", fx.a102["id"]}}));
    CHECK(fx.as_b("get_co_owner", {{"id", b_luc["id"]}})["unitId"] == b101["id"]);

    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_co_owner", {{"id", fx.marie["id"]}})["email"] == "marie@example.ca");
}

TEST_CASE("delete_co_owner: B's admin cannot archive A's co-owner") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "delete_co_owner", (json{{"id", fx.marie["id"]}}));
    CHECK(fx.rows_of_a() == before);
    const auto marie = fx.call("get_co_owner", {{"id", fx.marie["id"]}});
    CHECK(marie["deletedAt"].is_null());
    CHECK(marie["hasPortalAccess"] == true);
}

TEST_CASE("restore_co_owner: B can neither restore A's archived co-owner nor learn it exists") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "restore_co_owner", (json{{"id", fx.jean["id"]}}));
    // An active co-owner of A is "not found" too, not NOT_ARCHIVED.
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "restore_co_owner", (json{{"id", fx.marie["id"]}}));
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_co_owner", {{"id", fx.jean["id"]}})["deletedAt"].is_string());
}

TEST_CASE("bulk_create_co_owners: rows pointing at A's units are refused, B's rows go to B") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto r = fx.as_b(
        "bulk_create_co_owners",
        {{"coOwners", json::array({json{{"unitId", fx.a101["id"]}, {"firstName", "Eve"}, {"lastName", "Intruse"}},
                                   json{{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"}},
                                   json{{"unitId", fx.a102["id"]}, {"firstName", "Ève"}, {"lastName", "Autre"}}})}});
    CHECK(r["createdCount"] == 1);
    REQUIRE(r["errors"].size() == 2);
    CHECK(r["errors"][0]["code"] == "UNIT_NOT_FOUND");
    CHECK(r["errors"][0]["field"] == "/coOwners/0/unitId");
    CHECK(r["errors"][1]["code"] == "UNIT_NOT_FOUND");
    CHECK(r["errors"][1]["field"] == "/coOwners/2/unitId");

    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("list_co_owners", {{"includeArchived", true}})["pagination"]["total"] == 2);
    const auto b_list = fx.as_b("list_co_owners");
    REQUIRE(b_list["data"].size() == 1);
    CHECK(b_list["data"][0]["lastName"] == "Gagnon");
}

TEST_CASE("list_units: syndicate B sees none of A's units") {
    TwoSyndicates fx;
    REQUIRE(fx.call("list_units")["pagination"]["total"] == 3);
    for (const auto& args : {json::object(), json{{"search", "101"}}, json{{"type", "parking"}},
                             json{{"includeLinked", true}}}) {
        CAPTURE(args.dump());
        const auto list = fx.as_b("list_units", args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
    }
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_list = fx.as_b("list_units", {{"includeLinked", true}});
    CHECK(numbers_of(b_list) == std::vector<std::string>{"101"});
    CHECK(b_list["data"][0]["id"] == b101["id"]);
    CHECK(b_list["data"][0]["linkedUnits"].empty());
    CHECK(numbers_of(fx.call("list_units")) == std::vector<std::string>{"101", "102", "P-1"});
}

TEST_CASE("get_unit: A's units are not found for B") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "get_unit", (json{{"id", fx.a101["id"]}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "get_unit",
                     (json{{"id", fx.a_parking["id"]}, {"includeLinked", true}}));
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_unit", {{"id", fx.a101["id"]}})["linkedUnits"] == json::array({fx.a_parking["id"]}));
}

TEST_CASE("create_unit: numbers and the fraction sum are per syndicate") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();

    SUBCASE("B may use A's numbers, but not twice in B") {
        const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 50}});
        CHECK(b101["number"] == "101");
        CHECK(b101["id"] != fx.a101["id"]);
        CHECK(fx.as_b("create_unit", {{"number", "p-1"}, {"type", "parking"}})["number"] == "p-1");
        CHECK_REFUSED_AS(fx, fx.other_admin, "DUPLICATE_UNIT_NUMBER", "create_unit",
                         (json{{"number", "101"}, {"type", "storage"}}));
        // A's own rule still holds for A.
        CHECK(fx.error("create_unit", {{"number", "101"}, {"type", "storage"}}).code() == "DUPLICATE_UNIT_NUMBER");
        CHECK(fx.rows_of_a() == before);
    }
    SUBCASE("B's fractions are summed on their own: 100 in B is fine while A holds 99.8") {
        const auto b = fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 100}});
        CHECK(b["fractionPercent"] == 100);
        CHECK(fx.as_b("get_fraction_sum")["sum"] == 100);
        CHECK(fx.call("get_fraction_sum")["sum"] == 99.8);
        CHECK(fx.rows_of_a() == before);
    }
    SUBCASE("B's new parking cannot be linked to A's apartment") {
        CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "create_unit",
                         (json{{"number", "P-7"}, {"type", "parking"}, {"linkedUnits", json::array({fx.a101["id"]})}}));
        CHECK(fx.as_b("list_units")["data"].empty());
    }
}

TEST_CASE("update_unit: B can neither change A's units nor link to them") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();

    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", fx.a101["id"]}, {"number", "999"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", fx.a_parking["id"]}, {"linkedUnits", json::array()}}));

    const auto b_parking = fx.as_b("create_unit", {{"number", "P-1"}, {"type", "parking"}});
    const auto b_apartment = fx.as_b("create_unit", {{"number", "201"}, {"type", "apartment"}});
    // B's parking onto A's apartment.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", b_parking["id"]}, {"linkedUnits", json::array({fx.a101["id"]})}}));
    CHECK(fx.error_as(fx.other_admin, "update_unit",
                      {{"id", b_parking["id"]}, {"linkedUnits", json::array({fx.a101["id"]})}})
              .field() == "/linkedUnits/0");
    // B's apartment taking A's parking.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", b_apartment["id"]}, {"linkedUnits", json::array({fx.a_parking["id"]})}}));

    // B may rename its unit to a number A uses.
    CHECK(fx.as_b("update_unit", {{"id", b_apartment["id"]}, {"number", "102"}})["number"] == "102");

    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_unit", {{"id", fx.a_parking["id"]}})["linkedUnits"] == json::array({fx.a101["id"]}));
    CHECK(fx.call("get_unit", {{"id", fx.a101["id"]}})["number"] == "101");
}

TEST_CASE("delete_unit: B cannot delete A's unit") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    // A's parking has fraction 0 and no co-owner: only tenancy stands in the way.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", fx.a_parking["id"]}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", fx.a101["id"]}}));
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_unit", {{"id", fx.a_parking["id"]}})["linkedUnits"] == json::array({fx.a101["id"]}));
}

TEST_CASE("get_fraction_sum: each syndicate sums its own units") {
    TwoSyndicates fx;
    const auto empty = fx.as_b("get_fraction_sum");
    CHECK(empty["sum"] == 0);
    CHECK(empty["unitCount"] == 0);
    CHECK(empty["balanced"] == false);

    fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 40}});
    const auto b = fx.as_b("get_fraction_sum");
    CHECK(b["sum"] == 40);
    CHECK(b["unitCount"] == 1);

    const auto a = fx.call("get_fraction_sum");
    CHECK(a["sum"] == 99.8);
    CHECK(a["unitCount"] == 3);
    CHECK(a["balanced"] == true);
}

TEST_CASE("rebalance_fractions: B's rebalance touches only B's units") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();

    SUBCASE("B without units has nothing to rebalance, and A's 99.8 is left alone") {
        CHECK_REFUSED_AS(fx, fx.other_admin, "FRACTION_SUM_OUT_OF_RANGE", "rebalance_fractions", json::object());
        CHECK(fx.call("get_fraction_sum")["sum"] == 99.8);
    }
    SUBCASE("B's units are scaled to 100, A's are not") {
        const auto b1 = fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 30}});
        const auto b2 = fx.as_b("create_unit", {{"number", "2"}, {"type", "apartment"}, {"fractionPercent", 10}});
        const auto b_before = fx.rows_of(fx.other_syndicate);

        const auto dry = fx.as_b("rebalance_fractions", {{"dryRun", true}});
        CHECK(dry["changes"].size() == 2);
        CHECK(fx.rows_of(fx.other_syndicate) == b_before);

        const auto r = fx.as_b("rebalance_fractions");
        CHECK(r["previousSum"] == 40);
        CHECK(r["sum"] == 100);
        CHECK(r["unitCount"] == 2);
        REQUIRE(r["changes"].size() == 2);
        for (const auto& c : r["changes"]) CHECK((c["unitId"] == b1["id"] || c["unitId"] == b2["id"]));
        CHECK(fx.as_b("get_unit", {{"id", b1["id"]}})["fractionPercent"] == 75);
        CHECK(fx.as_b("get_unit", {{"id", b2["id"]}})["fractionPercent"] == 25);

        CHECK(fx.rows_of_a() == before);
        CHECK(fx.call("get_fraction_sum")["sum"] == 99.8);
        CHECK(fx.call("get_unit", {{"id", fx.a101["id"]}})["fractionPercent"] == 60);
    }
    SUBCASE("A's rebalance leaves B's units alone") {
        fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 30}});
        const auto b_before = fx.rows_of(fx.other_syndicate);
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["sum"] == 100);
        CHECK(r["unitCount"] == 3);
        CHECK(fx.rows_of(fx.other_syndicate) == b_before);
        CHECK(fx.as_b("get_fraction_sum")["sum"] == 30);
    }
}

}
