#include "fixture.hpp"

#include "core/text.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <variant>
#include <vector>

// Lists of names and ids show their contents when a check fails.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
    static String convert(const std::vector<std::string>& v) {
        std::string out = "{";
        for (const auto& s : v) out += (out.size() > 1 ? ", \"" : "\"") + s + "\"";
        return (out + "}").c_str();
    }
};
}  // namespace doctest

using namespace syndic::test;

namespace {


const std::string missing_id = "00000000-0000-4000-8000-000000000000";

// The last names of a list result, in order.
std::vector<std::string> last_names(const json& list) {
    std::vector<std::string> out;
    for (const auto& c : list["data"]) out.push_back(c["lastName"]);
    return out;
}

std::vector<std::string> ids_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& c : list["data"]) out.push_back(c["id"]);
    return out;
}

bool has_field_error(const syndic::DomainError& e, const std::string& field) {
    const auto& errors = e.errors();
    return std::any_of(errors.begin(), errors.end(), [&](const syndic::FieldError& f) { return f.field == field; });
}

std::string figure_text(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return "";
}

std::int64_t figure_int(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::int64_t>(v)) return std::get<std::int64_t>(v);
    return -1;
}

std::int64_t total_co_owners(Fixture& fx, bool include_archived = true) {
    return fx.call("list_co_owners", {{"includeArchived", include_archived}})["pagination"]["total"];
}

json row(const json& unit_id, const std::string& first, const std::string& last, json extra = json::object()) {
    json r = {{"unitId", unit_id}, {"firstName", first}, {"lastName", last}};
    r.update(extra);
    return r;
}

// What the fixed clock (2026-11-21T15:00:00Z) looks like in America/Montreal.
const std::string shown_now = "2026-11-21T10:00:00-05:00";

}  // namespace

TEST_SUITE("co-owners") {

TEST_CASE("list_co_owners") {
    Fixture fx;
    const auto u101 = fx.unit("101", 50);
    const auto u102 = fx.unit("102", 50);
    const auto sophie = fx.co_owner(u101["id"], "Sophie", "Bélanger",
                                    {{"email", "sophie@exemple.ca"}, {"isPrimary", true}, {"hasPortalAccess", true}});
    const auto marie = fx.co_owner(u101["id"], "Marie", "Tremblay", {{"email", "marie.tremblay@example.ca"}});
    const auto luc = fx.co_owner(u102["id"], "Luc", "gagnon");
    const auto emilie = fx.co_owner(u102["id"], "Émilie", "Roy",
                                    {{"email", "EMILIE.ROY@Example.ca"}, {"hasPortalAccess", true}});

    SUBCASE("happy path: the pagination envelope, sorted by last name regardless of case") {
        const auto list = fx.call("list_co_owners");
        CHECK(list["pagination"]["page"] == 1);
        CHECK(list["pagination"]["pageSize"] == 50);
        CHECK(list["pagination"]["total"] == 4);
        CHECK(last_names(list) == std::vector<std::string>{"Bélanger", "gagnon", "Roy", "Tremblay"});
        // The records are whole co-owners, with their unit's number.
        CHECK(list["data"][0] == fx.call("get_co_owner", {{"id", sophie["id"]}}));
        CHECK(list["data"][0]["unitNumber"] == "101");
    }
    SUBCASE("same last name: sorted by first name") {
        fx.co_owner(u102["id"], "Zoé", "Tremblay");
        fx.co_owner(u102["id"], "Albert", "Tremblay");
        const auto list = fx.call("list_co_owners", {{"search", "tremblay"}});
        REQUIRE(list["data"].size() == 3);
        CHECK(list["data"][0]["firstName"] == "Albert");
        CHECK(list["data"][1]["firstName"] == "Marie");
        CHECK(list["data"][2]["firstName"] == "Zoé");
    }
    SUBCASE("sorted by last name as a French reader expects: accents do not send a name to the end") {
        fx.co_owner(u102["id"], "Paul", "Émond");
        fx.co_owner(u102["id"], "Anne", "Côté");
        fx.co_owner(u102["id"], "Jean", "Bouchard");
        fx.co_owner(u102["id"], "Guy", "Cyr");
        const auto list = fx.call("list_co_owners");
        CHECK(last_names(list) ==
              std::vector<std::string>{"Bélanger", "Bouchard", "Côté", "Cyr", "Émond", "gagnon", "Roy", "Tremblay"});
    }
    SUBCASE("pages: default size 50, page 2 holds the rest, a page past the end is empty") {
        for (int i = 0; i < 56; ++i) {
            char name[16];
            std::snprintf(name, sizeof name, "Zz%03d", i);
            fx.co_owner(u102["id"], "Pat", name);
        }
        const auto first = fx.call("list_co_owners");
        CHECK(first["data"].size() == 50);
        CHECK(first["pagination"]["total"] == 60);
        CHECK(first["pagination"]["pageSize"] == 50);

        const auto second = fx.call("list_co_owners", {{"page", 2}});
        CHECK(second["pagination"]["page"] == 2);
        CHECK(second["pagination"]["total"] == 60);
        REQUIRE(second["data"].size() == 10);
        CHECK(second["data"][9]["lastName"] == "Zz055");
        // No one is on both pages, no one is missing.
        auto all = ids_of(first);
        for (const auto& id : ids_of(second)) all.push_back(id);
        std::sort(all.begin(), all.end());
        CHECK(std::unique(all.begin(), all.end()) == all.end());
        CHECK(all.size() == 60);

        const auto small = fx.call("list_co_owners", {{"pageSize", 7}, {"page", 3}});
        CHECK(small["data"].size() == 7);
        CHECK(small["pagination"]["pageSize"] == 7);
        CHECK(small["data"][0]["lastName"] == "Zz010");  // 4 named + Zz000..Zz009 before it

        const auto past = fx.call("list_co_owners", {{"page", 4}});
        CHECK(past["data"].empty());
        CHECK(past["pagination"]["total"] == 60);

        CHECK(fx.call("list_co_owners", {{"pageSize", 200}})["data"].size() == 60);
        CHECK(fx.call("list_co_owners", {{"pageSize", 1}})["data"].size() == 1);
    }
    SUBCASE("search on first name, last name and e-mail, ignoring case and accents") {
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "belanger"}})) == std::vector<std::string>{sophie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "BÉLANGER"}})) == std::vector<std::string>{sophie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "emilie"}})) == std::vector<std::string>{emilie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "GAGNON"}})) == std::vector<std::string>{luc["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "tremb"}})) == std::vector<std::string>{marie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "Marie Tremblay"}})) == std::vector<std::string>{marie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "exemple.ca"}})) == std::vector<std::string>{sophie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "emilie.roy@example"}})) ==
              std::vector<std::string>{emilie["id"]});
        const auto none = fx.call("list_co_owners", {{"search", "lapointe"}});
        CHECK(none["data"].empty());
        CHECK(none["pagination"]["total"] == 0);
        // total counts the matches, not the syndicate.
        CHECK(fx.call("list_co_owners", {{"search", "example.ca"}})["pagination"]["total"] == 2);
    }
    SUBCASE("unitId filter") {
        const auto list = fx.call("list_co_owners", {{"unitId", u102["id"]}});
        CHECK(last_names(list) == std::vector<std::string>{"gagnon", "Roy"});
        CHECK(list["pagination"]["total"] == 2);
        CHECK(fx.call("list_co_owners", {{"unitId", missing_id}})["data"].empty());
    }
    SUBCASE("hasPortalAccess filter") {
        CHECK(last_names(fx.call("list_co_owners", {{"hasPortalAccess", true}})) ==
              std::vector<std::string>{"Bélanger", "Roy"});
        CHECK(last_names(fx.call("list_co_owners", {{"hasPortalAccess", false}})) ==
              std::vector<std::string>{"gagnon", "Tremblay"});
        const auto both = fx.call("list_co_owners", {{"hasPortalAccess", true}, {"unitId", u101["id"]}});
        CHECK(last_names(both) == std::vector<std::string>{"Bélanger"});
        CHECK(both["pagination"]["total"] == 1);
    }
    SUBCASE("archived co-owners are hidden unless includeArchived") {
        fx.call("delete_co_owner", {{"id", marie["id"]}});
        const auto list = fx.call("list_co_owners");
        CHECK(last_names(list) == std::vector<std::string>{"Bélanger", "gagnon", "Roy"});
        CHECK(list["pagination"]["total"] == 3);
        CHECK(fx.call("list_co_owners", {{"search", "tremblay"}})["data"].empty());
        CHECK(fx.call("list_co_owners", {{"unitId", u101["id"]}})["pagination"]["total"] == 1);

        const auto with = fx.call("list_co_owners", {{"includeArchived", true}});
        CHECK(last_names(with) == std::vector<std::string>{"Bélanger", "gagnon", "Roy", "Tremblay"});
        CHECK(with["pagination"]["total"] == 4);
        CHECK(with["data"][3]["deletedAt"].is_string());
        CHECK(with["data"][0]["deletedAt"].is_null());
        CHECK(fx.call("list_co_owners", {{"includeArchived", false}})["pagination"]["total"] == 3);
    }
    SUBCASE("schema rejection: pageSize 1..200, page >= 1, known properties only") {
        for (const auto& bad : {json{{"pageSize", 201}}, json{{"pageSize", 0}}, json{{"pageSize", "10"}},
                                json{{"pageSize", 2.5}}}) {
            CAPTURE(bad.dump());
            const auto e = fx.error("list_co_owners", bad);
            CHECK(e.code() == "VALIDATION_FAILED");
            CHECK(e.field() == "/pageSize");
            CHECK(has_field_error(e, "/pageSize"));
        }
        const auto page0 = fx.error("list_co_owners", {{"page", 0}});
        CHECK(page0.code() == "VALIDATION_FAILED");
        CHECK(page0.field() == "/page");
        const auto unknown = fx.error("list_co_owners", {{"sortBy", "firstName"}});
        CHECK(unknown.code() == "VALIDATION_FAILED");
        CHECK(has_field_error(unknown, "/sortBy"));
        const auto empty_search = fx.error("list_co_owners", {{"search", ""}});
        CHECK(empty_search.code() == "VALIDATION_FAILED");
        CHECK(has_field_error(empty_search, "/search"));
    }
    SUBCASE("INSUFFICIENT_SCOPE without read:co-owners") {
        const syndic::CallerContext meetings_only{fx.syndicate, "key-meetings", {"read:meetings"}, syndic::Role::admin};
        const auto e = fx.error_as(meetings_only, "list_co_owners");
        CHECK(e.code() == "INSUFFICIENT_SCOPE");
        CHECK(figure_text(e, "requiredScope") == "read:co-owners");
    }
}

TEST_CASE("get_co_owner") {
    Fixture fx;
    const auto unit = fx.unit("101", 50);
    const auto created = fx.co_owner(unit["id"], "Marie", "Tremblay",
                                     {{"email", "marie@example.ca"}, {"phone", "+15145550123"}, {"language", "en"}});

    SUBCASE("happy path: the co-owner as created") {
        const auto c = fx.call("get_co_owner", {{"id", created["id"]}});
        CHECK(c == created);
        CHECK(c["firstName"] == "Marie");
        CHECK(c["lastName"] == "Tremblay");
        CHECK(c["email"] == "marie@example.ca");
        CHECK(c["phone"] == "+15145550123");
        CHECK(c["unitId"] == unit["id"]);
        CHECK(c["unitNumber"] == "101");
        CHECK(c["language"] == "en");
        CHECK(c["createdAt"] == shown_now);
        CHECK(c["deletedAt"].is_null());
    }
    SUBCASE("CO_OWNER_NOT_FOUND") {
        const auto e = fx.error("get_co_owner", {{"id", missing_id}});
        CHECK(e.code() == "CO_OWNER_NOT_FOUND");
        CHECK(e.field() == "/id");
        // A unit's id is not a co-owner's.
        CHECK(fx.error("get_co_owner", {{"id", unit["id"]}}).code() == "CO_OWNER_NOT_FOUND");
    }
    SUBCASE("an archived co-owner is still readable, with deletedAt set") {
        fx.clock.advance(std::chrono::hours(24));
        fx.call("delete_co_owner", {{"id", created["id"]}});
        const auto c = fx.call("get_co_owner", {{"id", created["id"]}});
        CHECK(c["deletedAt"] == "2026-11-22T10:00:00-05:00");
        CHECK(c["lastName"] == "Tremblay");
        CHECK(c["createdAt"] == shown_now);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_co_owner", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_co_owner", (json{{"id", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_co_owner", (json{{"id", 42}}));
        const auto e = fx.error("get_co_owner", json::object());
        CHECK(has_field_error(e, "/id"));
    }
}

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


// The lists read indexes, a tally and a trigram index that writes keep up to date (migration 004).
// Here a model of the register kept by the test is compared with what the tools say after every
// kind of write: totals with and without filters, pages in register order, and searches of one,
// two and many characters (the short ones are not served by the trigram index).
TEST_CASE("lists, totals and searches stay true through every kind of write") {
    Fixture fx;
    struct Person {
        std::string id, unit, first, last, email;
        bool portal = false, archived = false;
    };
    std::vector<Person> people;
    std::vector<std::string> units;
    for (int i = 0; i < 6; ++i) units.push_back(fx.unit(std::to_string(101 + i), 10)["id"]);
    const std::vector<std::string> firsts = {"Émilie", "Luc", "Zoé", "Noël", "Anne-Marie", "O'Brien"};
    const std::vector<std::string> lasts = {"Côté", "Gagnon", "Tremblay", "Lévesque", "D\"Amour", "Roy"};
    std::uint64_t seed = 7;
    auto next = [&](std::size_t n) { return static_cast<std::size_t>((seed = seed * 6364136223846793005ULL + 1) >> 33) % n; };
    auto add = [&](const json& made, const std::string& unit, const std::string& first, const std::string& last,
                   const std::string& email, bool portal) {
        people.push_back({made["id"], unit, first, last, email, portal, false});
    };
    for (int i = 0; i < 20; ++i) {
        const auto unit = units[next(units.size())];
        const auto first = firsts[next(firsts.size())], last = lasts[next(lasts.size())];
        const std::string email = "p" + std::to_string(i) + "@exemple.qc.ca";
        const bool portal = next(2) == 0;
        add(fx.co_owner(unit, first, last, {{"email", email}, {"hasPortalAccess", portal}, {"fractionPercent", 0}}), unit,
            first, last, email, portal);
    }
    json rows = json::array();
    for (int i = 0; i < 15; ++i)
        rows.push_back(row(units[next(units.size())], firsts[next(firsts.size())], lasts[next(lasts.size())],
                           {{"email", "lot" + std::to_string(i) + "@exemple.qc.ca"}, {"hasPortalAccess", i % 3 == 0},
                            {"fractionPercent", 0}}));
    const auto bulk = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
    REQUIRE(bulk["createdCount"] == 15);
    for (const auto& c : bulk["created"]) {
        const auto& r = rows[c["index"].get<std::size_t>()];
        add(c, r["unitId"], r["firstName"], r["lastName"], r["email"], r["hasPortalAccess"]);
    }
    // Renamed, moved, portal switched, archived and restored.
    for (int i = 0; i < 12; ++i) {
        auto& p = people[next(people.size())];
        if (p.archived) continue;
        p.last = lasts[next(lasts.size())] + "-" + std::to_string(i);
        p.portal = !p.portal;
        p.unit = units[next(units.size())];
        fx.call("update_co_owner", {{"id", p.id}, {"lastName", p.last}, {"hasPortalAccess", p.portal}, {"unitId", p.unit}});
    }
    for (int i = 0; i < 10; ++i) {
        auto& p = people[next(people.size())];
        if (p.archived) continue;
        fx.call("delete_co_owner", {{"id", p.id}});
        p.archived = true;
        p.portal = false;  // archiving ends portal access
    }
    for (int i = 0; i < 3; ++i) {
        auto& p = people[next(people.size())];
        if (!p.archived) continue;
        fx.call("restore_co_owner", {{"id", p.id}});
        p.archived = false;
    }

    auto folded = [](const Person& p) { return syndic::fold_for_search(p.first + " " + p.last + " " + p.email); };
    auto sort_key = [](const Person& p) { return syndic::fold_for_search(p.last) + '\x1f' + syndic::fold_for_search(p.first); };
    // The model's answer: who matches, in register order.
    auto expected = [&](const std::function<bool(const Person&)>& keep) {
        std::vector<const Person*> kept;
        for (const auto& p : people)
            if (keep(p)) kept.push_back(&p);
        std::sort(kept.begin(), kept.end(), [&](auto* a, auto* b) {
            return std::pair(sort_key(*a), a->id) < std::pair(sort_key(*b), b->id);
        });
        std::vector<std::string> ids;
        for (auto* p : kept) ids.push_back(p->id);
        return ids;
    };
    // Every page of the tool's answer, put together; the total must be the same on each page.
    auto listed = [&](json args) {
        std::vector<std::string> ids;
        std::int64_t total = -1;
        args["pageSize"] = 4;
        for (int page = 1; page <= 20; ++page) {
            args["page"] = page;
            const auto answer = fx.call("list_co_owners", args);
            if (total >= 0) CHECK(answer["pagination"]["total"] == total);
            total = answer["pagination"]["total"];
            for (const auto& c : answer["data"]) ids.push_back(c["id"]);
            if (answer["data"].empty()) break;
        }
        CHECK(total == static_cast<std::int64_t>(ids.size()));
        return ids;
    };

    for (const bool archived : {false, true}) {
        CAPTURE(archived);
        auto live = [&](const Person& p) { return archived || !p.archived; };
        CHECK(listed({{"includeArchived", archived}}) == expected(live));
        for (const bool portal : {false, true})
            CHECK(listed({{"includeArchived", archived}, {"hasPortalAccess", portal}}) ==
                  expected([&](const Person& p) { return live(p) && p.portal == portal; }));
        for (const auto& unit : units)
            CHECK(listed({{"includeArchived", archived}, {"unitId", unit}}) ==
                  expected([&](const Person& p) { return live(p) && p.unit == unit; }));
        // Then text that means something to SQL, to LIKE or to FTS5's query syntax: each is only
        // a substring to look for (issue 7: filters are bound, never spliced into a query).
        for (const std::string& term : std::vector<std::string>{
                 "e", "ro", "côte", "COTE", "gagnon", "d\"amour", "o'brien", "anne-marie", "lot1", "@exemple", "tremblay-",
                 "zoe roy", "zzz", "é", "'; DROP TABLE co_owners; --", "%", "_", "\"", "\"\"", "*", "ro*", "^ro",
                 "NEAR(ro co)", "ro OR co", "co AND NOT ro", "co_owner_search", ")", "' OR '1'='1"}) {
            CAPTURE(term);
            const auto want = syndic::fold_for_search(term);
            CHECK(listed({{"includeArchived", archived}, {"search", term}}) ==
                  expected([&](const Person& p) { return live(p) && folded(p).find(want) != std::string::npos; }));
            CHECK(listed({{"includeArchived", archived}, {"search", term}, {"hasPortalAccess", true}, {"unitId", units[0]}}) ==
                  expected([&](const Person& p) {
                      return live(p) && p.portal && p.unit == units[0] && folded(p).find(want) != std::string::npos;
                  }));
        }
    }
}

// A NUL (U+0000) in a name, an e-mail or a search is refused before the handler runs (the
// registry's rule for every string argument): SQLite's FTS5 reads text only up to one, so it would
// hide what follows from searches, or cut a search short (found by the fuzzers too:
// tests/fuzz/corpus/fuzz-co-owners/regression-search-with-nul).
TEST_CASE("a NUL in a name, an e-mail or a search is refused at its field, and nothing is stored") {
    Fixture fx;
    const auto u = fx.unit("101", 10);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner",
                  (json{{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", std::string("Tremblay\0Roy", 12)}}));
    CHECK(fx.error("create_co_owner", {{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", std::string("Tremblay\0Roy", 12)}})
              .field() == "/lastName");
    // An e-mail address holding one is not a valid address: the e-mail's own code.
    CHECK_REFUSED(fx, "INVALID_EMAIL", "create_co_owner",
                  (json{{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", "Roy"}, {"email", std::string("m\0@example.ca", 14)}}));
    for (const auto& term : {std::string("ro\0co", 5), std::string("e\0", 2), std::string("\"a\0\"", 4)}) {
        const auto e = fx.error("list_co_owners", {{"search", term}});
        CHECK(e.code() == std::string("VALIDATION_FAILED"));
        CHECK(e.field() == "/search");
    }
}

}
