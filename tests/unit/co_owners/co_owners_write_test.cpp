// The co-owners module's writes (interface 2.1; decisions 3): create_co_owner, update_co_owner, and
// the archive kept by delete_co_owner and restore_co_owner, each with its refusals, which change
// nothing. Every call goes through the registry, as a client's would.
#include "co_owners/co_owners_fixture.hpp"

#include <chrono>
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace co_owners_write_test {

using namespace syndic::test;
using namespace syndic::test::co_owner_fixture;

TEST_SUITE("co-owners") {

TEST_CASE("create_co_owner") {
    Fixture fx;
    const auto unit = fx.unit("101", 50);
    const auto other = fx.unit("102", 50);

    SUBCASE("happy path with every field") {
        const auto c = fx.co_owner(unit["id"], "Marie", "Tremblay",
                                   {{"email", "marie@example.ca"},
                                    {"phone", "+15145550123"},
                                    {"fractionPercent", 12.345678},
                                    {"isResident", true},
                                    {"isPrimary", true},
                                    {"language", "en"},
                                    {"hasPortalAccess", true}});
        CHECK(c["id"].is_string());
        CHECK(c["id"].get<std::string>().size() == 36);
        CHECK(c["firstName"] == "Marie");
        CHECK(c["lastName"] == "Tremblay");
        CHECK(c["email"] == "marie@example.ca");
        CHECK(c["phone"] == "+15145550123");
        CHECK(c["unitId"] == unit["id"]);
        CHECK(c["unitNumber"] == "101");
        CHECK(c["fractionPercent"] == 12.345678);
        CHECK(c["isResident"] == true);
        CHECK(c["isPrimary"] == true);
        CHECK(c["language"] == "en");
        CHECK(c["hasPortalAccess"] == true);
        CHECK(c["createdAt"] == shown_now);
        CHECK(c["updatedAt"] == shown_now);
        CHECK(c["deletedAt"].is_null());
        // It is stored: the same record comes back, and it is listed.
        CHECK(fx.call("get_co_owner", {{"id", c["id"]}}) == c);
        CHECK(ids_of(fx.call("list_co_owners")) == std::vector<std::string>{c["id"]});
    }
    SUBCASE("defaults: the unit's fraction for a sole co-owner, French, not primary, not resident, no portal access") {
        const auto c = fx.co_owner(unit["id"], "Luc", "Gagnon");
        CHECK(c["fractionPercent"] == 50);
        CHECK(c["language"] == "fr");
        CHECK(c["isPrimary"] == false);
        CHECK(c["isResident"] == false);
        CHECK(c["hasPortalAccess"] == false);
        CHECK(c["email"].is_null());
        CHECK(c["phone"].is_null());
        // Two co-owners of one unit are fine when at most one is primary.
        const auto second = fx.co_owner(unit["id"], "Lise", "Gagnon", {{"isPrimary", true}});
        CHECK(second["isPrimary"] == true);
    }
    SUBCASE("the 0 and 100 bounds and 100-character names (characters, not bytes) are accepted") {
        CHECK(fx.co_owner(unit["id"], "A", "B", {{"fractionPercent", 0}})["fractionPercent"] == 0);
        CHECK_NOTHROW(fx.registry.check_arguments(
            "create_co_owner", {{"unitId", unit["id"]}, {"firstName", "C"}, {"lastName", "D"}, {"fractionPercent", 100}}));
        CHECK(fx.co_owner(unit["id"], "C", "D", {{"fractionPercent", 50}})["fractionPercent"] == 50);
        const std::string hundred(100, 'x');
        CHECK(fx.co_owner(unit["id"], hundred, "E")["firstName"] == hundred);
        std::string accented;
        for (int i = 0; i < 100; ++i) accented += "é";
        CHECK(fx.co_owner(unit["id"], "F", accented)["lastName"] == accented);
    }
    SUBCASE("UNIT_NOT_FOUND") {
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "create_co_owner", row(missing_id, "Marie", "Tremblay"));
        CHECK(fx.error("create_co_owner", row(missing_id, "Marie", "Tremblay")).field() == "/unitId");
        // A deleted unit is gone too (its fraction 0 keeps the sum rule out of the way).
        const auto gone = fx.unit("P-9", 0, "parking");
        fx.call("delete_unit", {{"id", gone["id"]}});
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "create_co_owner", row(gone["id"], "Marie", "Tremblay"));
        CHECK(total_co_owners(fx) == 0);
    }
    SUBCASE("DUPLICATE_PRIMARY") {
        fx.co_owner(unit["id"], "Marie", "Tremblay", {{"isPrimary", true}});
        CHECK_REFUSED(fx, "DUPLICATE_PRIMARY", "create_co_owner",
                      row(unit["id"], "Luc", "Gagnon", {{"isPrimary", true}}));
        CHECK(fx.error("create_co_owner", row(unit["id"], "Luc", "Gagnon", {{"isPrimary", true}})).field() ==
              "/isPrimary");
        CHECK(total_co_owners(fx) == 1);
        // Another unit may have its own primary.
        CHECK(fx.co_owner(other["id"], "Luc", "Gagnon", {{"isPrimary", true}})["isPrimary"] == true);
    }
    SUBCASE("an archived primary no longer holds the unit's primary place") {
        const auto first = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"isPrimary", true}});
        fx.call("delete_co_owner", {{"id", first["id"]}});
        CHECK(fx.co_owner(unit["id"], "Luc", "Gagnon", {{"isPrimary", true}})["isPrimary"] == true);
    }
    SUBCASE("INVALID_EMAIL") {
        for (const std::string bad : {"not-an-email", "marie@", "@example.ca", "marie@example", "marie tremblay@example.ca",
                                      "marie@@example.ca"}) {
            CAPTURE(bad);
            const auto e = fx.error("create_co_owner", row(unit["id"], "Marie", "Tremblay", {{"email", bad}}));
            CHECK(e.code() == "INVALID_EMAIL");
            CHECK(e.field() == "/email");
        }
        CHECK_REFUSED(fx, "INVALID_EMAIL", "create_co_owner",
                      row(unit["id"], "Marie", "Tremblay", {{"email", "not-an-email"}}));
        CHECK(total_co_owners(fx) == 0);
        // A valid sub-domain address is accepted.
        CHECK(fx.co_owner(unit["id"], "Marie", "Tremblay", {{"email", "m.tremblay@mail.example.qc.ca"}})["email"] ==
              "m.tremblay@mail.example.qc.ca");
    }
    SUBCASE("FRACTION_OUT_OF_RANGE") {
        for (const double bad : {-1.0, 100.5, 100.000001}) {
            CAPTURE(bad);
            const auto e = fx.error("create_co_owner", row(unit["id"], "Marie", "Tremblay", {{"fractionPercent", bad}}));
            CHECK(e.code() == "FRACTION_OUT_OF_RANGE");
            CHECK(e.field() == "/fractionPercent");
        }
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "create_co_owner",
                      row(unit["id"], "Marie", "Tremblay", {{"fractionPercent", -1}}));
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "create_co_owner",
                      row(unit["id"], "Marie", "Tremblay", {{"fractionPercent", 100.5}}));
    }
    SUBCASE("VALIDATION_FAILED: missing, too long, unknown, wrong type; errors name the fields") {
        {
            const auto args = json{{"unitId", unit["id"]}, {"firstName", "Marie"}};
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner", args);
            const auto e = fx.error("create_co_owner", args);
            CHECK(e.field() == "/lastName");
            REQUIRE(e.errors().size() == 1);
            CHECK(e.errors()[0].field == "/lastName");
            CHECK(e.errors()[0].reason == "is required");
        }
        {
            const auto args = row(unit["id"], std::string(101, 'x'), "Tremblay");
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner", args);
            const auto e = fx.error("create_co_owner", args);
            CHECK(e.field() == "/firstName");
            CHECK(has_field_error(e, "/firstName"));
            CHECK_FALSE(has_field_error(e, "/lastName"));
        }
        {
            const auto args = row(unit["id"], "Marie", "Tremblay", {{"nickname", "Mimi"}});
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner", args);
            const auto e = fx.error("create_co_owner", args);
            CHECK(e.field() == "/nickname");
            CHECK(has_field_error(e, "/nickname"));
        }
        {
            // Two faults at once: both are listed.
            const auto e = fx.error("create_co_owner", json{{"unitId", unit["id"]}, {"firstName", ""}});
            CHECK(e.code() == "VALIDATION_FAILED");
            CHECK(has_field_error(e, "/firstName"));
            CHECK(has_field_error(e, "/lastName"));
        }
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner", row(unit["id"], "   ", "Tremblay"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner", row(unit["id"], "Marie", "Tremblay", {{"language", "de"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner",
                      row(unit["id"], "Marie", "Tremblay", {{"fractionPercent", "50"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner", row(unit["id"], "Marie", "Tremblay", {{"email", 42}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner",
                      row(unit["id"], "Marie", "Tremblay", {{"isPrimary", "yes"}}));
        CHECK(total_co_owners(fx) == 0);
    }
    SUBCASE("INSUFFICIENT_SCOPE with read-only credentials") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:co-owners"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "create_co_owner", row(unit["id"], "Marie", "Tremblay"));
        CHECK(figure_text(fx.error_as(reader, "create_co_owner", row(unit["id"], "M", "T")), "requiredScope") ==
              "write:co-owners");
    }
}

TEST_CASE("update_co_owner") {
    Fixture fx;
    const auto u101 = fx.unit("101", 50);
    const auto u102 = fx.unit("102", 50);
    const auto marie = fx.co_owner(u101["id"], "Marie", "Tremblay",
                                   {{"email", "marie@example.ca"},
                                    {"phone", "+15145550123"},
                                    {"fractionPercent", 25},
                                    {"isResident", true},
                                    {"isPrimary", true},
                                    {"language", "en"},
                                    {"hasPortalAccess", true}});
    const auto luc = fx.co_owner(u102["id"], "Luc", "Gagnon", {{"isPrimary", true}, {"fractionPercent", 25}});
    fx.clock.advance(std::chrono::hours(2));

    SUBCASE("happy path: only the fields given change") {
        const auto c = fx.call("update_co_owner", {{"id", marie["id"]}, {"phone", "+15145559999"}});
        CHECK(c["phone"] == "+15145559999");
        json expected = marie;
        expected["phone"] = "+15145559999";
        expected["updatedAt"] = "2026-11-21T12:00:00-05:00";
        CHECK(c == expected);
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}}) == expected);
        CHECK(c["createdAt"] == shown_now);
    }
    SUBCASE("several fields at once; false and 0 are values, not absences") {
        const auto c = fx.call("update_co_owner", {{"id", marie["id"]},
                                                   {"firstName", "Marie-Ève"},
                                                   {"fractionPercent", 0},
                                                   {"isResident", false},
                                                   {"hasPortalAccess", false},
                                                   {"language", "fr"}});
        CHECK(c["firstName"] == "Marie-Ève");
        CHECK(c["lastName"] == "Tremblay");
        CHECK(c["fractionPercent"] == 0);
        CHECK(c["isResident"] == false);
        CHECK(c["hasPortalAccess"] == false);
        CHECK(c["language"] == "fr");
        CHECK(c["isPrimary"] == true);
        CHECK(c["email"] == "marie@example.ca");
    }
    SUBCASE("email and phone null clear them") {
        const auto c = fx.call("update_co_owner", {{"id", marie["id"]}, {"email", nullptr}, {"phone", nullptr}});
        CHECK(c["email"].is_null());
        CHECK(c["phone"].is_null());
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}})["email"].is_null());
        // The cleared address no longer matches a search.
        CHECK(fx.call("list_co_owners", {{"search", "marie@example"}})["data"].empty());
    }
    SUBCASE("a renamed co-owner is found by the new name, not the old") {
        fx.call("update_co_owner", {{"id", marie["id"]}, {"lastName", "Côté"}, {"email", "marie.cote@example.ca"}});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "cote"}})) == std::vector<std::string>{marie["id"]});
        CHECK(fx.call("list_co_owners", {{"search", "tremblay"}})["data"].empty());
    }
    SUBCASE("move to another unit") {
        const auto c = fx.call("update_co_owner", {{"id", luc["id"]}, {"unitId", u101["id"]}, {"isPrimary", false}});
        CHECK(c["unitId"] == u101["id"]);
        CHECK(c["unitNumber"] == "101");
        CHECK(c["isPrimary"] == false);
        CHECK(fx.call("list_co_owners", {{"unitId", u102["id"]}})["data"].empty());
        CHECK(fx.call("list_co_owners", {{"unitId", u101["id"]}})["pagination"]["total"] == 2);
        // The unit it left may take a new primary.
        CHECK(fx.co_owner(u102["id"], "Lise", "Roy", {{"isPrimary", true}})["isPrimary"] == true);
    }
    SUBCASE("a primary co-owner may say isPrimary again") {
        CHECK(fx.call("update_co_owner", {{"id", marie["id"]}, {"isPrimary", true}})["isPrimary"] == true);
    }
    SUBCASE("DUPLICATE_PRIMARY when becoming primary, or moving as primary into a unit that has one") {
        const auto paul = fx.co_owner(u101["id"], "Paul", "Roy");
        CHECK_REFUSED(fx, "DUPLICATE_PRIMARY", "update_co_owner", (json{{"id", paul["id"]}, {"isPrimary", true}}));
        CHECK(fx.error("update_co_owner", {{"id", paul["id"]}, {"isPrimary", true}}).field() == "/isPrimary");

        CHECK_REFUSED(fx, "DUPLICATE_PRIMARY", "update_co_owner", (json{{"id", luc["id"]}, {"unitId", u101["id"]}}));
        CHECK(fx.error("update_co_owner", {{"id", luc["id"]}, {"unitId", u101["id"]}}).field() == "/unitId");
        CHECK(fx.call("get_co_owner", {{"id", luc["id"]}})["unitId"] == u102["id"]);

        // A non-primary co-owner may move into a unit that has a primary.
        CHECK(fx.call("update_co_owner", {{"id", paul["id"]}, {"unitId", u102["id"]}})["unitId"] == u102["id"]);
    }
    SUBCASE("UNIT_NOT_FOUND") {
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "update_co_owner", (json{{"id", marie["id"]}, {"unitId", missing_id}}));
        CHECK(fx.error("update_co_owner", {{"id", marie["id"]}, {"unitId", missing_id}}).field() == "/unitId");
    }
    SUBCASE("CO_OWNER_NOT_FOUND, archived ones included") {
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_co_owner", (json{{"id", missing_id}, {"firstName", "X"}}));
        fx.call("delete_co_owner", {{"id", luc["id"]}});
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_co_owner", (json{{"id", luc["id"]}, {"firstName", "X"}}));
        CHECK(fx.call("get_co_owner", {{"id", luc["id"]}})["firstName"] == "Luc");
    }
    SUBCASE("INVALID_EMAIL and FRACTION_OUT_OF_RANGE") {
        CHECK_REFUSED(fx, "INVALID_EMAIL", "update_co_owner", (json{{"id", marie["id"]}, {"email", "marie@"}}));
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "update_co_owner",
                      (json{{"id", marie["id"]}, {"fractionPercent", 100.5}}));
        CHECK_REFUSED(fx, "FRACTION_OUT_OF_RANGE", "update_co_owner", (json{{"id", marie["id"]}, {"fractionPercent", -1}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_co_owner", (json{{"firstName", "Marie"}}));
        CHECK(has_field_error(fx.error("update_co_owner", {{"firstName", "Marie"}}), "/id"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_co_owner", (json{{"id", marie["id"]}, {"lastName", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_co_owner",
                      (json{{"id", marie["id"]}, {"lastName", std::string(101, 'x')}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_co_owner", (json{{"id", marie["id"]}, {"unitId", nullptr}}));
        const auto e = fx.error("update_co_owner", {{"id", marie["id"]}, {"deletedAt", nullptr}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(has_field_error(e, "/deletedAt"));
    }
}

TEST_CASE("delete_co_owner") {
    Fixture fx;
    const auto unit = fx.unit("101", 50);
    const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"hasPortalAccess", true}, {"isPrimary", true}});
    const auto luc = fx.co_owner(unit["id"], "Luc", "Gagnon");
    fx.clock.advance(std::chrono::hours(1));

    SUBCASE("happy path: an admin archives; the co-owner leaves the lists and loses portal access") {
        const auto r = fx.call("delete_co_owner", {{"id", marie["id"]}});
        CHECK(r["portalAccessRevoked"] == true);
        CHECK(r["coOwner"]["id"] == marie["id"]);
        CHECK(r["coOwner"]["deletedAt"] == "2026-11-21T11:00:00-05:00");
        CHECK(r["coOwner"]["hasPortalAccess"] == false);

        CHECK(ids_of(fx.call("list_co_owners")) == std::vector<std::string>{luc["id"]});
        CHECK(fx.call("list_co_owners", {{"hasPortalAccess", true}})["data"].empty());
        const auto kept = fx.call("get_co_owner", {{"id", marie["id"]}});
        CHECK(kept["hasPortalAccess"] == false);
        CHECK(kept["deletedAt"].is_string());
        CHECK(kept["firstName"] == "Marie");  // the record itself is kept
    }
    SUBCASE("a co-owner without portal access: nothing to revoke") {
        const auto r = fx.call("delete_co_owner", {{"id", luc["id"]}});
        CHECK(r["portalAccessRevoked"] == false);
        CHECK(r["coOwner"]["deletedAt"].is_string());
    }
    SUBCASE("ADMIN_REQUIRED for a member") {
        CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "delete_co_owner", (json{{"id", marie["id"]}}));
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}}) == marie);
        CHECK(fx.call("list_co_owners")["pagination"]["total"] == 2);
    }
    SUBCASE("CO_OWNER_NOT_FOUND, also for one already archived") {
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "delete_co_owner", (json{{"id", missing_id}}));
        fx.call("delete_co_owner", {{"id", luc["id"]}});
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "delete_co_owner", (json{{"id", luc["id"]}}));
    }
    SUBCASE("INSUFFICIENT_SCOPE for read-only credentials, even an admin's") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:co-owners"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "delete_co_owner", (json{{"id", marie["id"]}}));
        const auto e = fx.error_as(reader, "delete_co_owner", {{"id", marie["id"]}});
        CHECK(figure_text(e, "requiredScope") == "write:co-owners");
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}})["deletedAt"].is_null());
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_co_owner", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_co_owner", (json{{"id", marie["id"]}, {"hard", true}}));
    }
}

TEST_CASE("restore_co_owner") {
    Fixture fx;
    // Fraction 0 in a building whose sum is 0, so that the unit can be deleted below.
    const auto unit = fx.unit("101", 0);
    const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"hasPortalAccess", true}, {"isPrimary", true}});
    const auto luc = fx.co_owner(unit["id"], "Luc", "Gagnon");
    fx.call("delete_co_owner", {{"id", marie["id"]}});
    fx.clock.advance(std::chrono::hours(3));

    SUBCASE("happy path: back in the lists, portal access not restored") {
        const auto c = fx.call("restore_co_owner", {{"id", marie["id"]}});
        CHECK(c["deletedAt"].is_null());
        CHECK(c["isPrimary"] == true);
        CHECK(c["hasPortalAccess"] == false);
        CHECK(c["firstName"] == "Marie");
        CHECK(c["updatedAt"] == "2026-11-21T13:00:00-05:00");
        CHECK(fx.call("list_co_owners")["pagination"]["total"] == 2);
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}})["deletedAt"].is_null());
        // Active again: it can be updated and archived again.
        CHECK(fx.call("update_co_owner", {{"id", marie["id"]}, {"hasPortalAccess", true}})["hasPortalAccess"] == true);
    }
    SUBCASE("NOT_ARCHIVED for an active co-owner") {
        CHECK_REFUSED(fx, "NOT_ARCHIVED", "restore_co_owner", (json{{"id", luc["id"]}}));
        CHECK(fx.error("restore_co_owner", {{"id", luc["id"]}}).field() == "/id");
    }
    SUBCASE("CO_OWNER_NOT_FOUND") {
        CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "restore_co_owner", (json{{"id", missing_id}}));
    }
    SUBCASE("DUPLICATE_PRIMARY when the unit got another primary meanwhile") {
        fx.call("update_co_owner", {{"id", luc["id"]}, {"isPrimary", true}});
        CHECK_REFUSED(fx, "DUPLICATE_PRIMARY", "restore_co_owner", (json{{"id", marie["id"]}}));
        CHECK(fx.call("get_co_owner", {{"id", marie["id"]}})["deletedAt"].is_string());
        // Once the other stops being primary, the restore goes through.
        fx.call("update_co_owner", {{"id", luc["id"]}, {"isPrimary", false}});
        CHECK(fx.call("restore_co_owner", {{"id", marie["id"]}})["isPrimary"] == true);
    }
    SUBCASE("a non-primary co-owner is restored even when the unit has a primary") {
        fx.co_owner(unit["id"], "Lise", "Roy", {{"isPrimary", true}});
        fx.call("delete_co_owner", {{"id", luc["id"]}});
        CHECK(fx.call("restore_co_owner", {{"id", luc["id"]}})["deletedAt"].is_null());
    }
    SUBCASE("UNIT_NOT_FOUND when the co-owner's unit was deleted") {
        fx.call("delete_co_owner", {{"id", luc["id"]}});
        fx.call("delete_unit", {{"id", unit["id"]}});
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "restore_co_owner", (json{{"id", marie["id"]}}));
        CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "restore_co_owner", (json{{"id", luc["id"]}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "restore_co_owner", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "restore_co_owner", (json{{"id", marie["id"]}, {"unitId", unit["id"]}}));
    }
}

}  // TEST_SUITE

}  // namespace co_owners_write_test
