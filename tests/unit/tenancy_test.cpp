// Tenancy (decisions 4): the cases the catalogue sweep (tenancy_sweep_test.cpp) cannot express.
// The sweep calls every tool with syndicate A's ids in each id-like argument; here are list
// filters, arrays of ids not named *Id (linkedUnits) and bulk rows, arguments beyond the required
// ones, and what B's own records do beside A's (numbers, sums, notices, minutes, quorum).
// The meetings' cases are in tenancy_meetings_test.cpp.
#include "tenancy_fixture.hpp"

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace tenancy_test {

using namespace syndic::test;
using namespace syndic::test::tenancy_fixture;

namespace {

std::vector<std::string> numbers_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& u : list["data"]) out.push_back(u["number"]);
    return out;
}

// A's registers of the issue 8 modules: a water heater in 101 with its proof of replacement (a
// document of A's), a property policy, a contractor with an NEQ; B has its own unit 101.
struct WithRegisters : TwoSyndicates {
    std::string a_document = "a-proof-document";
    json heater, policy, contractor, b101;

    WithRegisters() {
        add_document(syndicate, a_document);
        heater = call("create_water_heater", {{"unitId", a101["id"]}, {"brand", "Giant"}, {"manufactureDate", "2016-06-01"},
                                              {"replacementProofDocumentId", a_document}});
        policy = call("create_insurance_policy",
                      {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "A-1"}, {"startDate", "2026-01-01"},
                       {"endDate", "2027-01-01"}, {"coverages", json::array({json{{"peril", "fire"}, {"amountCents", 100}}})}});
        contractor = call("create_contractor",
                          {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"}, {"neq", "1171234567"}});
        b101 = as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    }
};

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

TEST_CASE("the tables compared are every table that carries a syndicate_id") {
    TwoSyndicates fx;
    const auto tables = fx.tenant_tables();
    for (const char* t : {"units", "unit_links", "co_owners", "meetings", "meeting_attendees", "resolutions", "documents",
                          "outbox", "api_keys", "users", "co_owner_tallies", "water_heaters", "insurance_policies",
                          "contractors"}) {
        CAPTURE(t);
        CHECK(std::find(tables.begin(), tables.end(), t) != tables.end());
    }
    // A change to one of A's rows shows; B's rows are not A's.
    const auto before = fx.rows_of_a();
    fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    CHECK(fx.rows_of_a() == before);
    fx.db->sql().exec("UPDATE units SET cadastral_lot = 'x' WHERE number = 'P-1'");
    CHECK(fx.rows_of_a() != before);
}

TEST_CASE("linked units and bulk rows: A's ids answer B as ids that exist nowhere (arguments the sweep cannot fill)") {
    TwoSyndicates fx;
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_parking = fx.as_b("create_unit", {{"number", "P-9"}, {"type", "parking"}});
    const auto a_before = fx.rows_of_a();

    fx.check_as_missing("create_unit", {{"number", "P-7"}, {"type", "parking"}, {"linkedUnits", json::array({fx.a101["id"]})}},
                        fx.a101["id"], "UNIT_NOT_FOUND");
    fx.check_as_missing("update_unit", {{"id", b_parking["id"]}, {"linkedUnits", json::array({fx.a101["id"]})}},
                        fx.a101["id"], "UNIT_NOT_FOUND");
    fx.check_as_missing("update_unit", {{"id", b101["id"]}, {"linkedUnits", json::array({fx.a_parking["id"]})}},
                        fx.a_parking["id"], "UNIT_NOT_FOUND");

    // A bulk's rows naming A's units fail as rows naming missing units do; B's own row goes in.
    auto bulk = [&](const json& unit_id) {
        return fx.as_b("bulk_create_co_owners",
                       {{"coOwners", json::array({json{{"unitId", unit_id}, {"firstName", "Eve"}, {"lastName", "Intruse"}},
                                                  json{{"unitId", b101["id"]}, {"firstName", "Paul"}, {"lastName", "Roy"}}})}});
    };
    const auto with_a = bulk(fx.a101["id"]);
    const auto with_ghost = bulk(ghost_id);
    CHECK(with_a["createdCount"] == 1);
    CHECK(replace_all(with_a["errors"].dump(), fx.a101["id"], "<id>") == replace_all(with_ghost["errors"].dump(), ghost_id, "<id>"));
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.compared == 3);
}
TEST_CASE("list_audit_events: B reads none of A's events, and B's writes are not A's") {
    TwoSyndicates fx;
    const auto a_events = fx.call("list_audit_events")["pagination"]["total"].get<int>();
    REQUIRE(a_events >= 6);  // A's units, link and co-owners, the archive

    for (const auto& args : {json::object(), json{{"recordId", fx.marie["id"]}}, json{{"recordType", "co-owner"}},
                             json{{"actorId", fx.admin.api_key_id}}, json{{"tool", "create_co_owner"}},
                             json{{"action", "archive"}}, json{{"from", "2026-01-01"}, {"to", "2026-12-31"}}}) {
        CAPTURE(args.dump());
        const auto before = fx.rows_of_a();
        const auto list = fx.as_b("list_audit_events", args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
        CHECK(fx.rows_of_a() == before);
    }

    // B's own write is B's event: A's trail does not grow, and B's shows only it.
    fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_list = fx.as_b("list_audit_events");
    REQUIRE(b_list["data"].size() == 1);
    CHECK(b_list["data"][0]["actor"]["id"] == fx.other_admin.api_key_id);
    CHECK(fx.call("list_audit_events")["pagination"]["total"] == a_events);
}

TEST_CASE("list_water_heaters, list_insurance_policies, list_contractors: B sees none of A's records") {
    WithRegisters fx;
    const auto before = fx.state();
    for (const auto& [tool, args] : std::vector<std::pair<std::string, json>>{
             {"list_water_heaters", json::object()},
             {"list_water_heaters", {{"status", "overdue"}}},
             {"list_water_heaters", {{"unitId", fx.a101["id"]}}},
             {"list_insurance_policies", json::object()},
             {"list_insurance_policies", {{"kind", "property"}, {"expiringSoon", true}}},
             {"list_insurance_policies", {{"appraisalOutdated", true}}},
             {"list_contractors", json::object()},
             {"list_contractors", {{"search", "belanger"}}},
             {"list_contractors", {{"trade", "plomberie"}}}}) {
        CAPTURE(tool);
        CAPTURE(args.dump());
        const auto list = fx.as_b(tool, args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
    }
    CHECK(fx.state() == before);
    CHECK(fx.call("list_water_heaters")["pagination"]["total"] == 1);
    CHECK(fx.call("list_insurance_policies", {{"appraisalOutdated", true}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_contractors", {{"search", "belanger"}})["pagination"]["total"] == 1);
}


TEST_CASE("create_water_heater, create_insurance_policy, create_contractor: B's records are B's") {
    WithRegisters fx;
    const auto a_before = fx.rows_of_a();
    // The same NEQ in another syndicate is another syndicate's business; B's policy and heater
    // are B's alone.
    const auto b_contractor = fx.as_b("create_contractor", {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"},
                                                            {"neq", "117 123 4567"}});
    CHECK(b_contractor["neq"] == "1171234567");
    fx.as_b("update_contractor", {{"id", b_contractor["id"]}, {"neq", "1171234567"}});
    fx.as_b("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "A-1"},
                                        {"startDate", "2026-01-01"}, {"endDate", "2027-01-01"}});
    fx.as_b("create_water_heater", {{"unitId", fx.b101["id"]}, {"manufactureDate", "2016-06-01"}});
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.call("list_contractors")["pagination"]["total"] == 1);
    CHECK(fx.call("list_insurance_policies")["pagination"]["total"] == 1);
    CHECK(fx.call("list_water_heaters")["pagination"]["total"] == 1);
    CHECK(fx.as_b("list_contractors")["data"][0]["id"] == b_contractor["id"]);
    // A's own NEQ is still A's to refuse twice.
    CHECK_REFUSED(fx, "DUPLICATE_NEQ", "create_contractor", (json{{"name", "Autre"}, {"trade", "x"}, {"neq", "1171234567"}}));
}


}

}  // namespace tenancy_test
