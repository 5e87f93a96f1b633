// The contractors module: list, create, update and delete the contractors and professionals the
// syndicate deals with, their RBQ licence (shown 5678-1234-01) and NEQ (ten digits, unique among
// the syndicate's active contractors), and whether their liability insurance has ended. Every call
// goes through the registry; the fixture's clock makes today 2026-11-21 in Montreal.
#include "fixture.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace contractors_test {

using namespace syndic::test;

namespace {

const std::string shown_now = "2026-11-21T10:00:00-05:00";  // fixed_now() in America/Montreal
const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";


json contractor_args(const std::string& name, const std::string& trade, json extra = json::object()) {
    json args = {{"name", name}, {"trade", trade}};
    args.update(extra);
    return args;
}

json contractor(Fixture& fx, const std::string& name, const std::string& trade, json extra = json::object()) {
    return fx.call("create_contractor", contractor_args(name, trade, std::move(extra)));
}

std::vector<std::string> names_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& c : list["data"]) out.push_back(c["name"].get<std::string>());
    return out;
}

json list(Fixture& fx, json filters = json::object()) { return fx.call("list_contractors", filters); }

json listed(Fixture& fx, const json& c) { return record_with_id(list(fx, {{"pageSize", 200}}), c["id"]); }


using names = std::vector<std::string>;

}  // namespace

TEST_SUITE("contractors") {

TEST_CASE("list_contractors") {
    Fixture fx;
    const auto belanger = contractor(fx, "Plomberie Bélanger", "plomberie",
                                     {{"insuranceExpiry", "2026-11-20"}, {"neq", "1171234567"}});
    const auto lavoie = contractor(fx, "Chauffage Lavoie et Plomberie", "chauffage", {{"insuranceExpiry", "2026-11-22"}});
    const auto zenith = contractor(fx, "Électricité Zénith", "électricité", {{"insuranceExpiry", "2027-05-01"}});
    const auto alpha = contractor(fx, "alpha Ingénierie", "ingénieur en structure");
    const auto cote = contractor(fx, "Toitures Côté", "toiture", {{"insuranceExpiry", "2025-01-01"}});
    fx.call_as(fx.other_admin, "create_contractor", contractor_args("Plomberie Bélanger", "plomberie", {{"neq", "1171234567"}}));
    fx.call_as(fx.other_admin, "create_contractor", contractor_args("Béton Bleu", "maçonnerie"));

    SUBCASE("envelope, the syndicate's contractors only, in name order without regard to case or accents") {
        const auto l = list(fx);
        CHECK(l["pagination"]["page"] == 1);
        CHECK(l["pagination"]["pageSize"] == 50);
        CHECK(l["pagination"]["total"] == 5);
        CHECK(names_of(l) == names{"alpha Ingénierie", "Chauffage Lavoie et Plomberie", "Électricité Zénith",
                                   "Plomberie Bélanger", "Toitures Côté"});
        CHECK(l["data"][3] == belanger);
        // B's list has its own two and none of A's.
        const auto b = fx.call_as(fx.other_admin, "list_contractors");
        CHECK(names_of(b) == names{"Béton Bleu", "Plomberie Bélanger"});
        CHECK(b["data"][1]["id"] != belanger["id"]);
    }
    SUBCASE("insuranceExpired: true once the expiry date has passed, null when unknown") {
        CHECK(belanger["insuranceExpired"] == true);
        CHECK(lavoie["insuranceExpired"] == false);  // ends tomorrow: still covered today
        CHECK(zenith["insuranceExpired"] == false);
        CHECK(alpha["insuranceExpired"].is_null());
        CHECK(alpha["insuranceExpiry"].is_null());
        CHECK(cote["insuranceExpired"] == true);
        // The day it ends in Montreal (not in UTC), Lavoie's insurance has ended, as a policy does on its endDate.
        fx.clock.set(at("2026-11-22T04:59:59Z"));
        CHECK(listed(fx, lavoie)["insuranceExpired"] == false);
        fx.clock.set(at("2026-11-22T05:00:00Z"));
        CHECK(listed(fx, lavoie)["insuranceExpired"] == true);
        CHECK(names_of(list(fx, {{"insuranceExpired", true}})) ==
              names{"Chauffage Lavoie et Plomberie", "Plomberie Bélanger", "Toitures Côté"});
    }
    SUBCASE("filter on insuranceExpired") {
        CHECK(names_of(list(fx, {{"insuranceExpired", true}})) == names{"Plomberie Bélanger", "Toitures Côté"});
        // false keeps those whose record says false; alpha, with no expiry (null), is neither.
        CHECK(names_of(list(fx, {{"insuranceExpired", false}})) == names{"Chauffage Lavoie et Plomberie", "Électricité Zénith"});
    }
    SUBCASE("search: part of the name or the trade, without regard to case or accents") {
        CHECK(names_of(list(fx, {{"search", "belanger"}})) == names{"Plomberie Bélanger"});
        CHECK(names_of(list(fx, {{"search", "BÉLANGER"}})) == names{"Plomberie Bélanger"});
        CHECK(names_of(list(fx, {{"search", "  côte  "}})) == names{"Toitures Côté"});
        // In the name of one, the trade of the other.
        CHECK(names_of(list(fx, {{"search", "plomberie"}})) == names{"Chauffage Lavoie et Plomberie", "Plomberie Bélanger"});
        CHECK(names_of(list(fx, {{"search", "ELECTRICITE"}})) == names{"Électricité Zénith"});
        // Only in the trade.
        CHECK(names_of(list(fx, {{"search", "structure"}})) == names{"alpha Ingénierie"});
        CHECK(names_of(list(fx, {{"search", "ingenieur"}})) == names{"alpha Ingénierie"});
        const auto none = list(fx, {{"search", "menuiserie"}});
        CHECK(none["data"].empty());
        CHECK(none["pagination"]["total"] == 0);
    }
    SUBCASE("trade: the trade only, not the name") {
        CHECK(names_of(list(fx, {{"trade", "plomberie"}})) == names{"Plomberie Bélanger"});
        CHECK(names_of(list(fx, {{"trade", "Électricité"}})) == names{"Électricité Zénith"});
        CHECK(names_of(list(fx, {{"trade", "electricite"}})) == names{"Électricité Zénith"});
        CHECK(names_of(list(fx, {{"trade", "INGÉNIEUR"}})) == names{"alpha Ingénierie"});
        CHECK(list(fx, {{"trade", "alpha"}})["data"].empty());
        CHECK(list(fx, {{"trade", "lavoie"}})["data"].empty());
        CHECK(list(fx, {{"trade", "zenith"}})["data"].empty());
    }
    SUBCASE("filters combine") {
        CHECK(names_of(list(fx, {{"search", "plomberie"}, {"trade", "chauffage"}})) == names{"Chauffage Lavoie et Plomberie"});
        CHECK(names_of(list(fx, {{"search", "plomberie"}, {"insuranceExpired", true}})) == names{"Plomberie Bélanger"});
        CHECK(list(fx, {{"trade", "toiture"}, {"insuranceExpired", false}})["data"].empty());
    }
    SUBCASE("pagination keeps the order") {
        names seen;
        for (int page = 1; page <= 3; ++page) {
            const auto l = list(fx, {{"page", page}, {"pageSize", 2}});
            CHECK(l["pagination"]["total"] == 5);
            for (const auto& n : names_of(l)) seen.push_back(n);
        }
        CHECK(seen == names_of(list(fx)));
        CHECK(list(fx, {{"page", 4}, {"pageSize", 2}})["data"].empty());
        const auto filtered = list(fx, {{"search", "plomberie"}, {"page", 2}, {"pageSize", 1}});
        CHECK(names_of(filtered) == names{"Plomberie Bélanger"});
        CHECK(filtered["pagination"]["total"] == 2);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_contractors", (json{{"search", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_contractors", (json{{"search", "   "}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_contractors", (json{{"trade", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_contractors", (json{{"insuranceExpired", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_contractors", (json{{"pageSize", 0}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_contractors", (json{{"neq", "1171234567"}}));
        CHECK(has_error_on(fx.error("list_contractors", {{"search", "   "}}), "/search"));
        CHECK(has_error_on(fx.error("list_contractors", {{"insuranceExpired", "yes"}}), "/insuranceExpired"));
    }
    SUBCASE("read:contractors is enough, another module's scope is not") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:contractors"}, syndic::Role::member};
        CHECK(fx.call_as(reader, "list_contractors")["pagination"]["total"] == 5);
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "list_contractors", json::object());
        const syndic::CallerContext insurance{fx.syndicate, "key-ins", {"read:insurance"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, insurance, "INSUFFICIENT_SCOPE", "list_contractors", json::object());
    }
}

TEST_CASE("create_contractor") {
    Fixture fx;

    SUBCASE("happy path: every field, trimmed, the numbers normalized") {
        const auto c = fx.call("create_contractor", {{"name", "  Plomberie Bélanger inc. "},
                                                     {"trade", " plomberie "},
                                                     {"contactName", "Luc Bélanger"},
                                                     {"email", "info@plomberiebelanger.ca"},
                                                     {"phone", "+15145550123"},
                                                     {"rbqLicence", "5678 1234 01"},
                                                     {"neq", "1171-234-567"},
                                                     {"insuranceExpiry", "2027-03-31"},
                                                     {"professionalOrder", "Corporation des maîtres mécaniciens en tuyauterie"},
                                                     {"notes", "Urgences 24 h"}});
        CHECK(c["id"].get<std::string>().size() == 36);
        CHECK(c["name"] == "Plomberie Bélanger inc.");
        CHECK(c["trade"] == "plomberie");
        CHECK(c["contactName"] == "Luc Bélanger");
        CHECK(c["email"] == "info@plomberiebelanger.ca");
        CHECK(c["phone"] == "+15145550123");
        CHECK(c["rbqLicence"] == "5678-1234-01");
        CHECK(c["neq"] == "1171234567");
        CHECK(c["insuranceExpiry"] == "2027-03-31");
        CHECK(c["insuranceExpired"] == false);
        CHECK(c["professionalOrder"] == "Corporation des maîtres mécaniciens en tuyauterie");
        CHECK(c["notes"] == "Urgences 24 h");
        CHECK(c["createdAt"] == shown_now);
        CHECK(c["updatedAt"] == shown_now);
        CHECK_FALSE(c.contains("deletedAt"));
        CHECK_FALSE(c.contains("searchText"));
        CHECK_FALSE(c.contains("sortKey"));
        CHECK(listed(fx, c) == c);
    }
    SUBCASE("only name and trade: the rest is null") {
        const auto c = contractor(fx, "Toitures Côté", "toiture");
        for (const char* field : {"contactName", "email", "phone", "rbqLicence", "neq", "insuranceExpiry",
                                  "professionalOrder", "notes", "insuranceExpired"}) {
            CHECK_MESSAGE(c[field].is_null(), field);
        }
    }
    SUBCASE("the RBQ licence and the NEQ as people write them") {
        CHECK(contractor(fx, "A", "x", {{"rbqLicence", "5678123401"}})["rbqLicence"] == "5678-1234-01");
        CHECK(contractor(fx, "B", "x", {{"rbqLicence", "5678-1234-01"}})["rbqLicence"] == "5678-1234-01");
        CHECK(contractor(fx, "C", "x", {{"rbqLicence", " 5678 - 1234 - 01 "}})["rbqLicence"] == "5678-1234-01");
        CHECK(contractor(fx, "D", "x", {{"neq", "1171 234 567"}})["neq"] == "1171234567");
        CHECK(contractor(fx, "E", "x", {{"neq", "2260-123-456"}})["neq"] == "2260123456");
        // An empty or blank number is no number, as null is.
        const auto blank = contractor(fx, "F", "x", {{"neq", ""}, {"rbqLicence", " "}});
        CHECK(blank["neq"].is_null());
        CHECK(blank["rbqLicence"].is_null());
    }
    SUBCASE("INVALID_RBQ_LICENCE") {
        for (const char* bad : {"5678-1234-0", "56781234011", "RBQ 5678-1234-01", "5678.1234.01", "abcdefghij"}) {
            CAPTURE(bad);
            CHECK_REFUSED(fx, "INVALID_RBQ_LICENCE", "create_contractor", contractor_args("A", "x", {{"rbqLicence", bad}}));
        }
        CHECK(fx.error("create_contractor", contractor_args("A", "x", {{"rbqLicence", "5678-1234-0"}})).field() == "/rbqLicence");
    }
    SUBCASE("INVALID_NEQ") {
        for (const char* bad : {"117123456", "11712345678", "NEQ1171234567", "1171/234/567"}) {
            CAPTURE(bad);
            CHECK_REFUSED(fx, "INVALID_NEQ", "create_contractor", contractor_args("A", "x", {{"neq", bad}}));
        }
        CHECK(fx.error("create_contractor", contractor_args("A", "x", {{"neq", "117123456"}})).field() == "/neq");
    }
    SUBCASE("DUPLICATE_NEQ among the syndicate's contractors, however it is written") {
        contractor(fx, "Plomberie Bélanger", "plomberie", {{"neq", "1171234567"}});
        CHECK_REFUSED(fx, "DUPLICATE_NEQ", "create_contractor", contractor_args("Autre", "x", {{"neq", "1171234567"}}));
        CHECK_REFUSED(fx, "DUPLICATE_NEQ", "create_contractor", contractor_args("Autre", "x", {{"neq", "1171 234-567"}}));
        const auto e = fx.error("create_contractor", contractor_args("Autre", "x", {{"neq", "1171-234-567"}}));
        CHECK(e.field() == "/neq");
        CHECK(e.detail().find("Plomberie Bélanger") != std::string::npos);
        // Another syndicate may have the same enterprise in its register.
        CHECK(fx.call_as(fx.other_admin, "create_contractor", contractor_args("Plomberie Bélanger", "plomberie", {{"neq", "1171234567"}}))
                  ["neq"] == "1171234567");
        // Contractors without a NEQ are not duplicates of each other.
        contractor(fx, "Sans NEQ 1", "x");
        contractor(fx, "Sans NEQ 2", "x", {{"neq", nullptr}});
        CHECK(list(fx)["pagination"]["total"] == 3);
    }
    SUBCASE("INVALID_EMAIL") {
        for (const char* bad : {"info@", "pas une adresse", "info@plomberie", "a b@c.ca", "info@@c.ca", ""}) {
            CAPTURE(bad);
            CHECK_REFUSED(fx, "INVALID_EMAIL", "create_contractor", contractor_args("A", "x", {{"email", bad}}));
        }
        CHECK(fx.error("create_contractor", contractor_args("A", "x", {{"email", "info@"}})).field() == "/email");
        CHECK(contractor(fx, "A", "x", {{"email", nullptr}})["email"].is_null());
    }
    SUBCASE("VALIDATION_FAILED: the schema, and dates that do not exist") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", (json{{"trade", "plomberie"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", (json{{"name", "Plomberie Bélanger"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("   ", "plomberie"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", ""));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", "x", {{"name", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", "x", {{"insuranceExpiry", "2027-02-30"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", "x", {{"insuranceExpiry", "2027-2-3"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", "x", {{"neq", 1171234567}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor",
                      contractor_args("A", "x", {{"rbqLicence", "5678-1234-01-5678-1234"}}));  // 22 > maxLength 20
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", "x", {{"insuranceExpired", true}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("A", "x", {{"website", "x.ca"}}));
        CHECK(has_error_on(fx.error("create_contractor", (json{{"name", "A"}})), "/trade"));
        CHECK(has_error_on(fx.error("create_contractor", contractor_args("   ", "plomberie")), "/name"));
        CHECK(has_error_on(fx.error("create_contractor", contractor_args("A", "x", {{"insuranceExpiry", "2027-02-30"}})),
                           "/insuranceExpiry"));
        CHECK(list(fx)["pagination"]["total"] == 0);
        // Unicode white space only (U+00A0, U+2003) passes the schema's "\S" but is blank.
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_contractor", contractor_args("\u00A0", "plomberie"));
        CHECK(fx.error("create_contractor", contractor_args("A", "\u2003")).field() == "/trade");
    }
    SUBCASE("INSUFFICIENT_SCOPE without write:contractors") {
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "create_contractor", contractor_args("A", "x"));
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:contractors"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "create_contractor", contractor_args("A", "x"));
        const syndic::CallerContext insurance{fx.syndicate, "key-ins", {"write:insurance"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, insurance, "INSUFFICIENT_SCOPE", "create_contractor", contractor_args("A", "x"));
        const syndic::CallerContext writer{fx.syndicate, "key-writer", {"write:contractors"}, syndic::Role::member};
        CHECK(fx.call_as(writer, "create_contractor", contractor_args("A", "x"))["name"] == "A");
    }
    SUBCASE("the creation is in the audit trail as a contractor") {
        fx.clock.advance(std::chrono::minutes(5));
        const auto c = contractor(fx, "Plomberie Bélanger", "plomberie", {{"neq", "1171 234 567"}});
        const auto events = fx.call("list_audit_events", {{"recordId", c["id"]}});
        REQUIRE(events["data"].size() == 1);
        const auto& e = events["data"][0];
        CHECK(e["recordType"] == "contractor");
        CHECK(e["action"] == "create");
        CHECK(e["tool"] == "create_contractor");
        CHECK(e["occurredAt"] == "2026-11-21T10:05:00-05:00");
        CHECK(e["changes"]["name"] == json{{"before", nullptr}, {"after", "Plomberie Bélanger"}});
        CHECK(e["changes"]["neq"] == json{{"before", nullptr}, {"after", "1171234567"}});
        CHECK_FALSE(e["changes"].contains("searchText"));
        CHECK_FALSE(e["changes"].contains("sortKey"));
        CHECK(fx.call("list_audit_events", {{"recordType", "contractor"}})["pagination"]["total"] == 1);
    }
}

TEST_CASE("update_contractor") {
    Fixture fx;
    const auto c = contractor(fx, "Plomberie Bélanger", "plomberie",
                              {{"contactName", "Luc"}, {"email", "info@belanger.ca"}, {"phone", "514-555-0123"},
                               {"rbqLicence", "5678123401"}, {"neq", "1171234567"}, {"insuranceExpiry", "2027-03-31"},
                               {"notes", "Urgences"}});
    const auto other = contractor(fx, "Toitures Côté", "toiture", {{"neq", "2260123456"}});
    const auto with_id = [&](json args) {
        args["id"] = c["id"];
        return args;
    };
    const auto update = [&](json args) { return fx.call("update_contractor", with_id(std::move(args))); };

    SUBCASE("happy path: the fields given change, the others stay") {
        fx.clock.advance(std::chrono::hours(1));
        const auto u = update({{"phone", "+15145550199"}, {"contactName", " Marie Bélanger "}});
        CHECK(u["phone"] == "+15145550199");
        CHECK(u["contactName"] == "Marie Bélanger");
        CHECK(u["name"] == "Plomberie Bélanger");
        CHECK(u["trade"] == "plomberie");
        CHECK(u["email"] == "info@belanger.ca");
        CHECK(u["rbqLicence"] == "5678-1234-01");
        CHECK(u["neq"] == "1171234567");
        CHECK(u["insuranceExpiry"] == "2027-03-31");
        CHECK(u["notes"] == "Urgences");
        CHECK(u["createdAt"] == shown_now);
        CHECK(u["updatedAt"] == "2026-11-21T11:00:00-05:00");
        CHECK(listed(fx, c) == u);
        CHECK(fx.call("update_contractor", {{"id", c["id"]}}) == u);
    }
    SUBCASE("a new name or trade is what search, trade and the order then see") {
        update({{"name", "Zénon Plomberie"}});
        CHECK(names_of(list(fx)) == names{"Toitures Côté", "Zénon Plomberie"});
        CHECK(list(fx, {{"search", "belanger"}})["data"].empty());
        CHECK(names_of(list(fx, {{"search", "zenon"}})) == names{"Zénon Plomberie"});
        CHECK(names_of(list(fx, {{"trade", "plomberie"}})) == names{"Zénon Plomberie"});
        update({{"trade", "chauffage"}});
        CHECK(list(fx, {{"trade", "plomberie"}})["data"].empty());
        CHECK(names_of(list(fx, {{"trade", "chauffage"}})) == names{"Zénon Plomberie"});
        // The name still has "Plomberie": search finds it, trade does not.
        CHECK(names_of(list(fx, {{"search", "plomberie"}})) == names{"Zénon Plomberie"});
    }
    SUBCASE("null clears the optional fields") {
        const auto u = update({{"email", nullptr}, {"rbqLicence", nullptr}, {"neq", nullptr}, {"insuranceExpiry", nullptr},
                               {"notes", nullptr}, {"contactName", nullptr}, {"phone", nullptr}});
        for (const char* field : {"email", "rbqLicence", "neq", "insuranceExpiry", "notes", "contactName", "phone",
                                  "insuranceExpired"}) {
            CHECK_MESSAGE(u[field].is_null(), field);
        }
        CHECK(u["name"] == "Plomberie Bélanger");
        // Its NEQ is free again.
        CHECK(contractor(fx, "Autre", "x", {{"neq", "1171234567"}})["neq"] == "1171234567");
    }
    SUBCASE("numbers normalized on update; its own NEQ is not a duplicate") {
        CHECK(update({{"rbqLicence", "1111 2222 33"}})["rbqLicence"] == "1111-2222-33");
        CHECK(update({{"neq", "1171-234-567"}})["neq"] == "1171234567");
        CHECK(update({{"neq", "3300 111 222"}})["neq"] == "3300111222");
        CHECK(update({{"insuranceExpiry", "2026-11-01"}})["insuranceExpired"] == true);
    }
    SUBCASE("DUPLICATE_NEQ, INVALID_NEQ, INVALID_RBQ_LICENCE, INVALID_EMAIL") {
        CHECK_REFUSED(fx, "DUPLICATE_NEQ", "update_contractor", with_id({{"neq", "2260 123 456"}}));
        CHECK(fx.error("update_contractor", with_id({{"neq", "2260123456"}})).field() == "/neq");
        CHECK_REFUSED(fx, "INVALID_NEQ", "update_contractor", with_id({{"neq", "22601234"}}));
        CHECK_REFUSED(fx, "INVALID_RBQ_LICENCE", "update_contractor", with_id({{"rbqLicence", "5678-1234"}}));
        CHECK_REFUSED(fx, "INVALID_EMAIL", "update_contractor", with_id({{"email", "info@belanger"}}));
        CHECK(fx.error("update_contractor", with_id({{"email", "info@belanger"}})).field() == "/email");
        CHECK(listed(fx, c) == c);
    }
    SUBCASE("CONTRACTOR_NOT_FOUND: unknown, another syndicate's, or deleted") {
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "update_contractor", (json{{"id", unknown_id}, {"notes", "x"}}));
        CHECK(fx.error("update_contractor", {{"id", unknown_id}, {"notes", "x"}}).field() == "/id");
        // B can neither change A's contractor nor see it.
        CHECK_REFUSED_AS(fx, fx.other_admin, "CONTRACTOR_NOT_FOUND", "update_contractor", with_id({{"notes", "B"}}));
        CHECK(listed(fx, c)["notes"] == "Urgences");
        CHECK(fx.call_as(fx.other_admin, "list_contractors")["data"].empty());
        CHECK(fx.call_as(fx.other_admin, "list_contractors", {{"search", "belanger"}})["data"].empty());
        // Nor can A change B's.
        const auto theirs = fx.call_as(fx.other_admin, "create_contractor", contractor_args("Béton Bleu", "maçonnerie"));
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "update_contractor", (json{{"id", theirs["id"]}, {"notes", "A"}}));
        CHECK(names_of(list(fx)) == names{"Plomberie Bélanger", "Toitures Côté"});
        fx.call("delete_contractor", {{"id", c["id"]}});
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "update_contractor", with_id({{"notes", "after"}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_contractor", (json{{"notes", "no id"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_contractor", with_id({{"name", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_contractor", with_id({{"trade", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_contractor", with_id({{"name", "  "}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_contractor", with_id({{"insuranceExpiry", "2027-04-31"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_contractor", with_id({{"insuranceExpired", false}}));
        CHECK(has_error_on(fx.error("update_contractor", with_id({{"name", nullptr}})), "/name"));
        CHECK(has_error_on(fx.error("update_contractor", with_id({{"insuranceExpiry", "2027-04-31"}})), "/insuranceExpiry"));
        CHECK(has_error_on(fx.error("update_contractor", (json{{"notes", "no id"}})), "/id"));
    }
    SUBCASE("INSUFFICIENT_SCOPE without write:contractors") {
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "update_contractor", with_id({{"notes", "x"}}));
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:contractors"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "update_contractor", with_id({{"notes", "x"}}));
    }
    (void)other;
}

TEST_CASE("delete_contractor") {
    Fixture fx;
    const auto c = contractor(fx, "Plomberie Bélanger", "plomberie", {{"neq", "1171234567"}});
    const auto d = contractor(fx, "Toitures Côté", "toiture");

    SUBCASE("happy path: archived, gone from list and search, its NEQ free again") {
        fx.clock.advance(std::chrono::hours(2));
        const auto gone = fx.call("delete_contractor", {{"id", c["id"]}});
        CHECK(gone["id"] == c["id"]);
        CHECK(gone["name"] == "Plomberie Bélanger");
        CHECK(gone["neq"] == "1171234567");
        CHECK(gone["deletedAt"] == "2026-11-21T12:00:00-05:00");
        CHECK(names_of(list(fx)) == names{"Toitures Côté"});
        CHECK(list(fx, {{"search", "belanger"}})["data"].empty());
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "delete_contractor", (json{{"id", c["id"]}}));
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "update_contractor", (json{{"id", c["id"]}, {"notes", "x"}}));
        // The same enterprise may be entered again, and another may take the NEQ by update.
        const auto again = contractor(fx, "Plomberie Bélanger", "plomberie", {{"neq", "1171-234-567"}});
        CHECK(again["id"] != c["id"]);
        CHECK(again["neq"] == "1171234567");
        fx.call("delete_contractor", {{"id", again["id"]}});
        CHECK(fx.call("update_contractor", {{"id", d["id"]}, {"neq", "1171234567"}})["neq"] == "1171234567");
        // Archived, not erased: the trail has it.
        const auto events = fx.call("list_audit_events", {{"recordId", c["id"]}});
        REQUIRE(events["data"].size() == 2);
        CHECK(events["data"][0]["action"] == "archive");
        CHECK(events["data"][0]["recordType"] == "contractor");
        CHECK(events["data"][0]["tool"] == "delete_contractor");
    }
    SUBCASE("CONTRACTOR_NOT_FOUND: unknown, or another syndicate's") {
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "delete_contractor", (json{{"id", unknown_id}}));
        CHECK(fx.error("delete_contractor", {{"id", unknown_id}}).field() == "/id");
        CHECK_REFUSED_AS(fx, fx.other_admin, "CONTRACTOR_NOT_FOUND", "delete_contractor", (json{{"id", c["id"]}}));
        CHECK(list(fx)["pagination"]["total"] == 2);
        const auto theirs = fx.call_as(fx.other_admin, "create_contractor", contractor_args("Béton Bleu", "maçonnerie"));
        CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "delete_contractor", (json{{"id", theirs["id"]}}));
        CHECK(fx.call_as(fx.other_admin, "list_contractors")["pagination"]["total"] == 1);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_contractor", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_contractor", (json{{"id", 12}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_contractor", (json{{"id", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_contractor", (json{{"id", c["id"]}, {"force", true}}));
        CHECK(has_error_on(fx.error("delete_contractor", json::object()), "/id"));
    }
    SUBCASE("INSUFFICIENT_SCOPE without write:contractors") {
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "delete_contractor", (json{{"id", c["id"]}}));
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:contractors"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "delete_contractor", (json{{"id", c["id"]}}));
        CHECK(list(fx)["pagination"]["total"] == 2);
    }
}

}

}  // namespace contractors_test
