// The insurance module: list, create, update and delete the syndicate's insurance policies, their
// coverages per peril in cents, and the flags a board must not miss (the renewal within 60 days,
// the 5-yearly reconstruction-cost appraisal of a property policy). Every call goes through the
// registry; the fixture's clock makes today 2026-11-21 in Montreal, so today + 60 days is 2027-01-20.
#include "fixture.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace insurance_test {

using namespace syndic::test;

namespace {

const std::string shown_now = "2026-11-21T10:00:00-05:00";  // fixed_now() in America/Montreal
const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

// The arguments of a property policy in force today (2026-06-01 to 2027-06-01); `extra` adds or
// overrides fields (a null member removes the field).
json policy_args(json extra = json::object()) {
    json args = {{"kind", "property"},
                 {"insurer", "Intact Assurance"},
                 {"policyNumber", "PRP-2026-001"},
                 {"startDate", "2026-06-01"},
                 {"endDate", "2027-06-01"}};
    for (const auto& [key, value] : extra.items()) {
        if (value.is_null()) args.erase(key);
        else args[key] = value;
    }
    return args;
}

json policy(Fixture& fx, json extra = json::object()) {
    return fx.call("create_insurance_policy", policy_args(std::move(extra)));
}

std::vector<std::string> numbers_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& p : list["data"]) out.push_back(p["policyNumber"].get<std::string>());
    return out;
}

json list(Fixture& fx, json filters = json::object()) { return fx.call("list_insurance_policies", filters); }

json listed(Fixture& fx, const json& p) { return record_with_id(list(fx, {{"pageSize", 200}}), p["id"]); }


}  // namespace

TEST_SUITE("insurance") {

TEST_CASE("list_insurance_policies") {
    Fixture fx;
    // In force, ends in June, appraised in 2023: nothing to do.
    const auto building = policy(fx, {{"policyNumber", "BLD"}, {"lastAppraisalDate", "2023-03-15"}});
    // In force, ends 2027-01-10: within 60 days.
    const auto liability = policy(fx, {{"kind", "civil-liability"}, {"policyNumber", "LIA"},
                                       {"startDate", "2026-01-10"}, {"endDate", "2027-01-10"}});
    // Starts in February.
    const auto board = policy(fx, {{"kind", "directors-and-officers"}, {"policyNumber", "D&O"},
                                   {"startDate", "2027-02-01"}, {"endDate", "2028-02-01"}});
    // Ended in June, a property policy never appraised: expired, so no appraisal is asked of it.
    const auto last_year = policy(fx, {{"policyNumber", "BLD-OLD"}, {"startDate", "2025-06-01"}, {"endDate", "2026-06-01"}});
    const auto older = policy(fx, {{"kind", "other"}, {"policyNumber", "OTH"},
                                   {"startDate", "2024-01-01"}, {"endDate", "2025-01-01"}});
    const auto theirs = fx.call_as(fx.other_admin, "create_insurance_policy",
                                   policy_args({{"policyNumber", "THEIRS"}, {"endDate", "2026-12-01"}}));

    SUBCASE("envelope, the syndicate's policies only, soonest end first and then the expired, latest first") {
        const auto l = list(fx);
        CHECK(l["pagination"]["page"] == 1);
        CHECK(l["pagination"]["pageSize"] == 50);
        CHECK(l["pagination"]["total"] == 5);
        CHECK(numbers_of(l) == std::vector<std::string>{"LIA", "BLD", "D&O", "BLD-OLD", "OTH"});
        CHECK(l["data"][1] == building);
        // B sees its own policy and none of A's.
        const auto b = fx.call_as(fx.other_admin, "list_insurance_policies");
        CHECK(numbers_of(b) == std::vector<std::string>{"THEIRS"});
        CHECK(b["pagination"]["total"] == 1);
    }
    SUBCASE("computed status and flags") {
        CHECK(building["status"] == "active");
        CHECK(building["expiringSoon"] == false);
        CHECK(building["appraisalDueBy"] == "2028-03-15");
        CHECK(building["appraisalOutdated"] == false);

        CHECK(liability["status"] == "active");
        CHECK(liability["expiringSoon"] == true);
        CHECK(liability["appraisalDueBy"].is_null());
        CHECK(liability["appraisalOutdated"] == false);

        CHECK(board["status"] == "upcoming");
        CHECK(board["expiringSoon"] == false);

        CHECK(last_year["status"] == "expired");
        CHECK(last_year["expiringSoon"] == false);
        CHECK(last_year["appraisalDueBy"].is_null());
        CHECK(last_year["appraisalOutdated"] == false);

        CHECK(older["status"] == "expired");
    }
    SUBCASE("filter on kind") {
        CHECK(numbers_of(list(fx, {{"kind", "property"}})) == std::vector<std::string>{"BLD", "BLD-OLD"});
        CHECK(numbers_of(list(fx, {{"kind", "civil-liability"}})) == std::vector<std::string>{"LIA"});
        CHECK(numbers_of(list(fx, {{"kind", "directors-and-officers"}})) == std::vector<std::string>{"D&O"});
        CHECK(numbers_of(list(fx, {{"kind", "other"}})) == std::vector<std::string>{"OTH"});
        CHECK(list(fx, {{"kind", "property"}})["pagination"]["total"] == 2);
    }
    SUBCASE("filter on status") {
        CHECK(numbers_of(list(fx, {{"status", "active"}})) == std::vector<std::string>{"LIA", "BLD"});
        CHECK(numbers_of(list(fx, {{"status", "upcoming"}})) == std::vector<std::string>{"D&O"});
        CHECK(numbers_of(list(fx, {{"status", "expired"}})) == std::vector<std::string>{"BLD-OLD", "OTH"});
    }
    SUBCASE("filter on expiringSoon, both ways") {
        CHECK(numbers_of(list(fx, {{"expiringSoon", true}})) == std::vector<std::string>{"LIA"});
        CHECK(numbers_of(list(fx, {{"expiringSoon", false}})) ==
              std::vector<std::string>{"BLD", "D&O", "BLD-OLD", "OTH"});
    }
    SUBCASE("filter on appraisalOutdated, both ways") {
        CHECK(list(fx, {{"appraisalOutdated", true}})["data"].empty());
        const auto never = policy(fx, {{"policyNumber", "BLD-2"}});  // property in force, never appraised
        CHECK(never["appraisalOutdated"] == true);
        CHECK(numbers_of(list(fx, {{"appraisalOutdated", true}})) == std::vector<std::string>{"BLD-2"});
        CHECK(list(fx, {{"appraisalOutdated", false}})["pagination"]["total"] == 5);
    }
    SUBCASE("filters combine") {
        CHECK(numbers_of(list(fx, {{"kind", "property"}, {"status", "active"}})) == std::vector<std::string>{"BLD"});
        CHECK(list(fx, {{"kind", "property"}, {"expiringSoon", true}})["data"].empty());
        CHECK(numbers_of(list(fx, {{"status", "active"}, {"expiringSoon", false}})) == std::vector<std::string>{"BLD"});
    }
    SUBCASE("pagination keeps the order") {
        std::vector<std::string> seen;
        for (int page = 1; page <= 3; ++page) {
            const auto l = list(fx, {{"page", page}, {"pageSize", 2}});
            CHECK(l["pagination"]["total"] == 5);
            CHECK(l["pagination"]["page"] == page);
            for (const auto& n : numbers_of(l)) seen.push_back(n);
        }
        CHECK(seen == numbers_of(list(fx)));
        CHECK(list(fx, {{"page", 4}, {"pageSize", 2}})["data"].empty());
        const auto filtered = list(fx, {{"status", "expired"}, {"page", 2}, {"pageSize", 1}});
        CHECK(numbers_of(filtered) == std::vector<std::string>{"OTH"});
        CHECK(filtered["pagination"]["total"] == 2);
    }
    SUBCASE("the flags follow the calendar") {
        // 2027-01-10 05:00Z is still 2027-01-10 00:00 in Montreal: the liability policy ends today.
        fx.clock.set(at("2027-01-10T04:59:59Z"));  // 2027-01-09 23:59:59 in Montreal
        CHECK(listed(fx, liability)["status"] == "active");
        CHECK(listed(fx, liability)["expiringSoon"] == true);
        fx.clock.set(at("2027-01-10T05:00:00Z"));
        CHECK(listed(fx, liability)["status"] == "expired");
        CHECK(listed(fx, liability)["expiringSoon"] == false);
        // Now expired, it moves after the policies in force, before those expired earlier.
        CHECK(numbers_of(list(fx)) == std::vector<std::string>{"BLD", "D&O", "LIA", "BLD-OLD", "OTH"});
        // On 2027-02-01 the D&O policy comes into force.
        fx.clock.set(at("2027-02-01T12:00:00Z"));
        CHECK(listed(fx, board)["status"] == "active");
        // 2027-04-02 + 60 days = 2027-06-01: the building's renewal enters the window.
        fx.clock.set(at("2027-04-01T12:00:00Z"));
        CHECK(listed(fx, building)["expiringSoon"] == false);
        fx.clock.set(at("2027-04-02T12:00:00Z"));
        CHECK(listed(fx, building)["expiringSoon"] == true);
        CHECK(numbers_of(list(fx, {{"expiringSoon", true}})) == std::vector<std::string>{"BLD"});
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_insurance_policies", (json{{"status", "lapsed"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_insurance_policies", (json{{"kind", "fire"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_insurance_policies", (json{{"expiringSoon", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_insurance_policies", (json{{"pageSize", 0}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_insurance_policies", (json{{"pageSize", 201}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_insurance_policies", (json{{"insurer", "Intact"}}));
        CHECK(has_error_on(fx.error("list_insurance_policies", {{"status", "lapsed"}}), "/status"));
        CHECK(has_error_on(fx.error("list_insurance_policies", {{"expiringSoon", "yes"}}), "/expiringSoon"));
    }
    SUBCASE("read:insurance is enough, another module's scope is not") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:insurance"}, syndic::Role::member};
        CHECK(fx.call_as(reader, "list_insurance_policies")["pagination"]["total"] == 5);
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "list_insurance_policies", json::object());
        const syndic::CallerContext writer{fx.syndicate, "key-writer", {"write:insurance"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, writer, "INSUFFICIENT_SCOPE", "list_insurance_policies", json::object());
    }
    (void)theirs;
}

TEST_CASE("create_insurance_policy") {
    Fixture fx;

    SUBCASE("happy path: every field, trimmed, with the defaults and flags") {
        const auto p = fx.call("create_insurance_policy",
                               {{"kind", "property"},
                                {"insurer", "  Intact Assurance "},
                                {"broker", "BFL Canada"},
                                {"policyNumber", " PRP-2026-001"},
                                {"startDate", "2026-06-01"},
                                {"endDate", "2027-06-01"},
                                {"coverages", json::array({{{"peril", " Incendie "}, {"amountCents", 1250000000}, {"deductibleCents", 2500000}},
                                                           {{"peril", "Dégât d'eau"}, {"amountCents", 1250000000}}})},
                                {"premiumCents", 4875000},
                                {"lastAppraisalDate", "2022-04-30"},
                                {"notes", "Renouvellement par le courtier"}});
        CHECK(p["id"].get<std::string>().size() == 36);
        CHECK(p["kind"] == "property");
        CHECK(p["insurer"] == "Intact Assurance");
        CHECK(p["broker"] == "BFL Canada");
        CHECK(p["policyNumber"] == "PRP-2026-001");
        CHECK(p["startDate"] == "2026-06-01");
        CHECK(p["endDate"] == "2027-06-01");
        CHECK(p["coverages"] == json::array({{{"peril", "Incendie"}, {"amountCents", 1250000000}, {"deductibleCents", 2500000}},
                                              {{"peril", "Dégât d'eau"}, {"amountCents", 1250000000}, {"deductibleCents", 0}}}));
        CHECK(p["premiumCents"] == 4875000);
        CHECK(p["lastAppraisalDate"] == "2022-04-30");
        CHECK(p["notes"] == "Renouvellement par le courtier");
        CHECK(p["status"] == "active");
        CHECK(p["expiringSoon"] == false);
        CHECK(p["appraisalDueBy"] == "2027-04-30");
        CHECK(p["appraisalOutdated"] == false);
        CHECK(p["createdAt"] == shown_now);
        CHECK(p["updatedAt"] == shown_now);
        CHECK_FALSE(p.contains("deletedAt"));
        CHECK(listed(fx, p) == p);
    }
    SUBCASE("only the required fields: the optional ones are null, no coverages") {
        const auto p = fx.call("create_insurance_policy", {{"kind", "civil-liability"}, {"insurer", "Promutuel"},
                                                           {"policyNumber", "RC-9"}, {"startDate", "2026-11-21"},
                                                           {"endDate", "2026-11-22"}});
        CHECK(p["broker"].is_null());
        CHECK(p["coverages"] == json::array());
        CHECK(p["premiumCents"].is_null());
        CHECK(p["lastAppraisalDate"].is_null());
        CHECK(p["notes"].is_null());
        CHECK(p["appraisalDueBy"].is_null());
        // Starts today, ends tomorrow: in force and ending soon.
        CHECK(p["status"] == "active");
        CHECK(p["expiringSoon"] == true);
    }
    SUBCASE("the day boundaries of status and expiringSoon") {
        // Ends today: expired, and so not "expiring soon".
        const auto ends_today = policy(fx, {{"startDate", "2025-11-21"}, {"endDate", "2026-11-21"}});
        CHECK(ends_today["status"] == "expired");
        CHECK(ends_today["expiringSoon"] == false);
        // today + 60 days = 2027-01-20 is in the window, the day after is not.
        CHECK(policy(fx, {{"endDate", "2027-01-20"}})["expiringSoon"] == true);
        CHECK(policy(fx, {{"endDate", "2027-01-21"}})["expiringSoon"] == false);
        // Starts tomorrow, ends within 60 days: not yet in force, so not expiring soon.
        const auto tomorrow = policy(fx, {{"startDate", "2026-11-22"}, {"endDate", "2027-01-01"}});
        CHECK(tomorrow["status"] == "upcoming");
        CHECK(tomorrow["expiringSoon"] == false);
        CHECK(policy(fx, {{"startDate", "2026-11-21"}, {"endDate", "2027-01-01"}})["status"] == "active");
    }
    SUBCASE("the appraisal: due 5 years after, outdated the day after, property policies only") {
        // Appraised 2021-11-21: due today, not yet outdated.
        const auto due_today = policy(fx, {{"lastAppraisalDate", "2021-11-21"}});
        CHECK(due_today["appraisalDueBy"] == "2026-11-21");
        CHECK(due_today["appraisalOutdated"] == false);
        const auto late = policy(fx, {{"lastAppraisalDate", "2021-11-20"}});
        CHECK(late["appraisalDueBy"] == "2026-11-20");
        CHECK(late["appraisalOutdated"] == true);
        // Never appraised: outdated, also for a policy still to come.
        const auto never = policy(fx);
        CHECK(never["appraisalDueBy"].is_null());
        CHECK(never["appraisalOutdated"] == true);
        CHECK(policy(fx, {{"startDate", "2027-06-01"}, {"endDate", "2028-06-01"}})["appraisalOutdated"] == true);
        // An appraisal today is accepted.
        CHECK(policy(fx, {{"lastAppraisalDate", "2026-11-21"}})["appraisalDueBy"] == "2031-11-21");
        // Other kinds carry no appraisal obligation, whatever the date.
        const auto liability = policy(fx, {{"kind", "civil-liability"}, {"lastAppraisalDate", "2001-01-01"}});
        CHECK(liability["lastAppraisalDate"] == "2001-01-01");
        CHECK(liability["appraisalDueBy"].is_null());
        CHECK(liability["appraisalOutdated"] == false);
        CHECK(policy(fx, {{"kind", "directors-and-officers"}})["appraisalOutdated"] == false);
        CHECK(policy(fx, {{"kind", "other"}})["appraisalOutdated"] == false);
    }
    SUBCASE("amounts are whole cents, up to the schema's maximum") {
        const auto p = policy(fx, {{"premiumCents", 0},
                                   {"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 100000000000000},
                                                               {"deductibleCents", 100000000000000}}})}});
        CHECK(p["premiumCents"] == 0);
        CHECK(p["coverages"][0]["amountCents"] == 100000000000000);
        // 2.0 is an integer for JSON Schema, and is shown as 2.
        CHECK(policy(fx, {{"premiumCents", 2.0}})["premiumCents"] == 2);
    }
    SUBCASE("a leap day is a date") {
        const auto p = policy(fx, {{"startDate", "2028-02-29"}, {"endDate", "2029-02-28"}});
        CHECK(p["startDate"] == "2028-02-29");
        CHECK(p["status"] == "upcoming");
    }
    SUBCASE("INVALID_DATE_RANGE: the end is not after the start") {
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_insurance_policy", policy_args({{"endDate", "2026-06-01"}}));
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_insurance_policy", policy_args({{"endDate", "2026-05-31"}}));
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_insurance_policy",
                      policy_args({{"startDate", "2027-06-01"}, {"endDate", "2026-06-01"}}));
        const auto e = fx.error("create_insurance_policy", policy_args({{"endDate", "2026-05-31"}}));
        CHECK(e.field() == "/endDate");
        CHECK(e.detail().find("2026-05-31") != std::string::npos);
        // One day is enough.
        CHECK(policy(fx, {{"endDate", "2026-06-02"}})["endDate"] == "2026-06-02");
    }
    SUBCASE("INVALID_DATE_RANGE: an appraisal in the future, by Montreal's calendar") {
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_insurance_policy", policy_args({{"lastAppraisalDate", "2026-11-22"}}));
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_insurance_policy", policy_args({{"lastAppraisalDate", "2030-01-01"}}));
        CHECK(fx.error("create_insurance_policy", policy_args({{"lastAppraisalDate", "2026-11-22"}})).field() ==
              "/lastAppraisalDate");
        // 2026-11-22 03:00Z is still the 21st in Montreal: the 22nd is still tomorrow.
        fx.clock.set(at("2026-11-22T03:00:00Z"));
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "create_insurance_policy", policy_args({{"lastAppraisalDate", "2026-11-22"}}));
        fx.clock.set(at("2026-11-22T05:00:00Z"));
        CHECK(policy(fx, {{"lastAppraisalDate", "2026-11-22"}})["lastAppraisalDate"] == "2026-11-22");
    }
    SUBCASE("DUPLICATE_PERIL, without regard to case, accents and surrounding spaces") {
        const auto twice = [](json second) {
            return policy_args({{"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 100}},
                                                           {{"peril", "Dégât d'eau"}, {"amountCents", 200}},
                                                           std::move(second)})}});
        };
        CHECK_REFUSED(fx, "DUPLICATE_PERIL", "create_insurance_policy", twice({{"peril", "Incendie"}, {"amountCents", 5}}));
        CHECK_REFUSED(fx, "DUPLICATE_PERIL", "create_insurance_policy", twice({{"peril", "  INCENDIE "}, {"amountCents", 5}}));
        CHECK_REFUSED(fx, "DUPLICATE_PERIL", "create_insurance_policy", twice({{"peril", "degat D'EAU"}, {"amountCents", 5}}));
        const auto e = fx.error("create_insurance_policy", twice({{"peril", "degat D'EAU"}, {"amountCents", 5}}));
        CHECK(e.field() == "/coverages/2/peril");
        CHECK(fx.error("create_insurance_policy", twice({{"peril", "incendie"}, {"amountCents", 5}})).field() ==
              "/coverages/2/peril");
        // Different perils are fine.
        CHECK(policy(fx, {{"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 1}},
                                                     {{"peril", "Incendie criminel"}, {"amountCents", 2}}})}})["coverages"]
                  .size() == 2);
    }
    SUBCASE("VALIDATION_FAILED: the schema, and dates that do not exist") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"startDate", "2026-02-30"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy",
                      policy_args({{"startDate", "2026-02-29"}, {"endDate", "2027-02-28"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"endDate", "2027-13-01"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"lastAppraisalDate", "2022-04-31"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"endDate", "2027-6-1"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"endDate", "01/06/2027"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"kind", "fire"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"insurer", "   "}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"insurer", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"policyNumber", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"startDate", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"premiumCents", -1}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"premiumCents", 12.5}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy",
                      policy_args({{"coverages", json::array({{{"peril", "Incendie"}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy",
                      policy_args({{"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 10.5}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy",
                      policy_args({{"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 1}, {"deductibleCents", -1}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy",
                      policy_args({{"coverages", json::array({{{"peril", " "}, {"amountCents", 1}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"colour", "blue"}}));

        CHECK(has_error_on(fx.error("create_insurance_policy", policy_args({{"startDate", "2026-02-30"}})), "/startDate"));
        CHECK(has_error_on(fx.error("create_insurance_policy", policy_args({{"insurer", nullptr}})), "/insurer"));
        CHECK(has_error_on(fx.error("create_insurance_policy", policy_args({{"kind", "fire"}})), "/kind"));
        CHECK(has_error_on(fx.error("create_insurance_policy",
                                    policy_args({{"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 10.5}}})}})),
                           "/coverages/0/amountCents"));
        CHECK(list(fx)["pagination"]["total"] == 0);
        // Unicode white space only (U+00A0, U+2003) passes the schema's "\S" but is blank.
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_insurance_policy", policy_args({{"insurer", "\u00A0"}}));
        CHECK(fx.error("create_insurance_policy", policy_args({{"policyNumber", "\u2003"}})).field() == "/policyNumber");
        CHECK(fx.error("create_insurance_policy",
                       policy_args({{"coverages", json::array({{{"peril", "\u00A0"}, {"amountCents", 1}}})}}))
                  .field() == "/coverages/0/peril");
        // An optional text of spaces only is no text: null.
        CHECK(fx.call("create_insurance_policy", policy_args({{"broker", " \u00A0 "}}))["broker"].is_null());
    }
    SUBCASE("INSUFFICIENT_SCOPE without write:insurance") {
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "create_insurance_policy", policy_args());
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:insurance"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "create_insurance_policy", policy_args());
        const syndic::CallerContext writer{fx.syndicate, "key-writer", {"write:insurance"}, syndic::Role::member};
        CHECK(fx.call_as(writer, "create_insurance_policy", policy_args())["insurer"] == "Intact Assurance");
    }
    SUBCASE("each syndicate has its own policies") {
        const auto theirs = fx.call_as(fx.other_admin, "create_insurance_policy", policy_args());
        CHECK(list(fx)["data"].empty());
        const auto ours = policy(fx);
        CHECK(numbers_of(list(fx)) == std::vector<std::string>{"PRP-2026-001"});
        CHECK(list(fx)["data"][0]["id"] == ours["id"]);
        CHECK(ours["id"] != theirs["id"]);
    }
    SUBCASE("the creation is in the audit trail as an insurance-policy") {
        fx.clock.advance(std::chrono::minutes(5));
        const auto p = policy(fx, {{"premiumCents", 4875000}});
        const auto events = fx.call("list_audit_events", {{"recordId", p["id"]}});
        REQUIRE(events["data"].size() == 1);
        const auto& e = events["data"][0];
        CHECK(e["recordType"] == "insurance-policy");
        CHECK(e["action"] == "create");
        CHECK(e["tool"] == "create_insurance_policy");
        CHECK(e["occurredAt"] == "2026-11-21T10:05:00-05:00");
        CHECK(e["changes"]["insurer"] == json{{"before", nullptr}, {"after", "Intact Assurance"}});
        CHECK(e["changes"]["premiumCents"] == json{{"before", nullptr}, {"after", 4875000}});
        CHECK(fx.call("list_audit_events", {{"recordType", "insurance-policy"}})["pagination"]["total"] == 1);
    }
}

TEST_CASE("update_insurance_policy") {
    Fixture fx;
    const auto p = policy(fx, {{"broker", "BFL Canada"},
                               {"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 1000}, {"deductibleCents", 100}}})},
                               {"premiumCents", 4875000},
                               {"lastAppraisalDate", "2023-03-15"},
                               {"notes", "Voir le courtier"}});
    const auto update = [&](json args) {
        args["id"] = p["id"];
        return fx.call("update_insurance_policy", args);
    };
    const auto with_id = [&](json args) {
        args["id"] = p["id"];
        return args;
    };

    SUBCASE("happy path: the fields given change, the others stay") {
        fx.clock.advance(std::chrono::hours(1));
        const auto u = update({{"insurer", " Desjardins "}, {"premiumCents", 5100000}});
        CHECK(u["insurer"] == "Desjardins");
        CHECK(u["premiumCents"] == 5100000);
        CHECK(u["broker"] == "BFL Canada");
        CHECK(u["policyNumber"] == p["policyNumber"]);
        CHECK(u["startDate"] == "2026-06-01");
        CHECK(u["endDate"] == "2027-06-01");
        CHECK(u["coverages"] == p["coverages"]);
        CHECK(u["lastAppraisalDate"] == "2023-03-15");
        CHECK(u["notes"] == "Voir le courtier");
        CHECK(u["createdAt"] == shown_now);
        CHECK(u["updatedAt"] == "2026-11-21T11:00:00-05:00");
        CHECK(listed(fx, p) == u);
        // No field: nothing changes.
        CHECK(fx.call("update_insurance_policy", {{"id", p["id"]}}) == u);
    }
    SUBCASE("null clears the optional fields") {
        const auto u = update({{"broker", nullptr}, {"premiumCents", nullptr}, {"notes", nullptr}, {"lastAppraisalDate", nullptr}});
        CHECK(u["broker"].is_null());
        CHECK(u["premiumCents"].is_null());
        CHECK(u["notes"].is_null());
        CHECK(u["lastAppraisalDate"].is_null());
        // A property policy without appraisal is now flagged.
        CHECK(u["appraisalDueBy"].is_null());
        CHECK(u["appraisalOutdated"] == true);
        CHECK(u["insurer"] == "Intact Assurance");
    }
    SUBCASE("coverages replace the whole list") {
        const auto u = update({{"coverages", json::array({{{"peril", "Séisme"}, {"amountCents", 5000}},
                                                          {{"peril", "Refoulement d'égout"}, {"amountCents", 2500}, {"deductibleCents", 1000}}})}});
        CHECK(u["coverages"] == json::array({{{"peril", "Séisme"}, {"amountCents", 5000}, {"deductibleCents", 0}},
                                              {{"peril", "Refoulement d'égout"}, {"amountCents", 2500}, {"deductibleCents", 1000}}}));
        CHECK(update({{"coverages", json::array()}})["coverages"] == json::array());
        // The peril that was there before may come back: only the new list is compared.
        CHECK(update({{"coverages", json::array({{{"peril", "Incendie"}, {"amountCents", 1}}})}})["coverages"].size() == 1);
    }
    SUBCASE("a new appraisal, a renewal date pushed back, a change of kind: the flags follow") {
        const auto old = update({{"lastAppraisalDate", "2020-01-01"}});
        CHECK(old["appraisalDueBy"] == "2025-01-01");
        CHECK(old["appraisalOutdated"] == true);
        const auto fresh = update({{"lastAppraisalDate", "2026-11-21"}});
        CHECK(fresh["appraisalDueBy"] == "2031-11-21");
        CHECK(fresh["appraisalOutdated"] == false);

        const auto soon = update({{"endDate", "2027-01-15"}});
        CHECK(soon["expiringSoon"] == true);
        CHECK(update({{"endDate", "2027-06-01"}})["expiringSoon"] == false);
        CHECK(update({{"startDate", "2027-01-01"}})["status"] == "upcoming");

        const auto liability = update({{"kind", "civil-liability"}});
        CHECK(liability["kind"] == "civil-liability");
        CHECK(liability["appraisalDueBy"].is_null());
        CHECK(liability["appraisalOutdated"] == false);
    }
    SUBCASE("INVALID_DATE_RANGE, at the date that was given") {
        // Only the start, moved past the end.
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "update_insurance_policy", with_id({{"startDate", "2027-06-01"}}));
        CHECK(fx.error("update_insurance_policy", with_id({{"startDate", "2027-07-01"}})).field() == "/startDate");
        // Only the end, moved before the start.
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "update_insurance_policy", with_id({{"endDate", "2026-06-01"}}));
        CHECK(fx.error("update_insurance_policy", with_id({{"endDate", "2026-01-01"}})).field() == "/endDate");
        // Both: the end is at fault.
        CHECK(fx.error("update_insurance_policy", with_id({{"startDate", "2028-01-01"}, {"endDate", "2027-01-01"}})).field() ==
              "/endDate");
        // An appraisal in the future.
        CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "update_insurance_policy", with_id({{"lastAppraisalDate", "2026-11-22"}}));
        CHECK(fx.error("update_insurance_policy", with_id({{"lastAppraisalDate", "2026-11-22"}})).field() ==
              "/lastAppraisalDate");
        // A whole new period, both dates moved together, is accepted.
        const auto renewed = update({{"startDate", "2027-06-01"}, {"endDate", "2028-06-01"}});
        CHECK(renewed["startDate"] == "2027-06-01");
        CHECK(renewed["status"] == "upcoming");
    }
    SUBCASE("DUPLICATE_PERIL") {
        CHECK_REFUSED(fx, "DUPLICATE_PERIL", "update_insurance_policy",
                      with_id({{"coverages", json::array({{{"peril", "Séisme"}, {"amountCents", 1}},
                                                          {{"peril", "SEISME"}, {"amountCents", 2}}})}}));
        CHECK(fx.error("update_insurance_policy", with_id({{"coverages", json::array({{{"peril", "Séisme"}, {"amountCents", 1}},
                                                                                       {{"peril", " séisme"}, {"amountCents", 2}}})}}))
                  .field() == "/coverages/1/peril");
        CHECK(listed(fx, p)["coverages"] == p["coverages"]);
    }
    SUBCASE("INSURANCE_POLICY_NOT_FOUND: unknown, another syndicate's, or deleted") {
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "update_insurance_policy", (json{{"id", unknown_id}, {"notes", "x"}}));
        CHECK(fx.error("update_insurance_policy", {{"id", unknown_id}, {"notes", "x"}}).field() == "/id");
        // Syndicate B cannot change A's policy, nor learn that it exists.
        CHECK_REFUSED_AS(fx, fx.other_admin, "INSURANCE_POLICY_NOT_FOUND", "update_insurance_policy", with_id({{"notes", "B"}}));
        CHECK(listed(fx, p)["notes"] == "Voir le courtier");
        CHECK(fx.call_as(fx.other_admin, "list_insurance_policies")["data"].empty());
        // Nor can A change B's.
        const auto theirs = fx.call_as(fx.other_admin, "create_insurance_policy", policy_args());
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "update_insurance_policy", (json{{"id", theirs["id"]}, {"notes", "A"}}));
        CHECK(fx.call_as(fx.other_admin, "list_insurance_policies")["data"][0]["notes"].is_null());
        fx.call("delete_insurance_policy", {{"id", p["id"]}});
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "update_insurance_policy", with_id({{"notes", "after"}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", (json{{"notes", "no id"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"insurer", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"kind", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"endDate", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"coverages", nullptr}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"endDate", "2027-02-30"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"kind", "flood"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"status", "expired"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_insurance_policy", with_id({{"expiringSoon", false}}));
        CHECK(has_error_on(fx.error("update_insurance_policy", with_id({{"insurer", nullptr}})), "/insurer"));
        CHECK(has_error_on(fx.error("update_insurance_policy", with_id({{"endDate", "2027-02-30"}})), "/endDate"));
        CHECK(has_error_on(fx.error("update_insurance_policy", (json{{"notes", "no id"}})), "/id"));
    }
    SUBCASE("INSUFFICIENT_SCOPE without write:insurance") {
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "update_insurance_policy", with_id({{"notes", "x"}}));
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:insurance"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "update_insurance_policy", with_id({{"notes", "x"}}));
    }
    SUBCASE("the update is in the audit trail, with only what changed") {
        update({{"insurer", "Desjardins"}, {"broker", "BFL Canada"}});
        const auto events = fx.call("list_audit_events", {{"recordId", p["id"]}, {"action", "update"}});
        REQUIRE(events["data"].size() == 1);
        CHECK(events["data"][0]["recordType"] == "insurance-policy");
        CHECK(events["data"][0]["changes"] == json{{"insurer", {{"before", "Intact Assurance"}, {"after", "Desjardins"}}}});
    }
}

TEST_CASE("delete_insurance_policy") {
    Fixture fx;
    const auto a = policy(fx, {{"policyNumber", "A"}});
    const auto b = policy(fx, {{"policyNumber", "B"}, {"kind", "civil-liability"}, {"endDate", "2027-01-01"}});

    SUBCASE("happy path: archived, gone from the list, then unknown") {
        fx.clock.advance(std::chrono::hours(2));
        const auto gone = fx.call("delete_insurance_policy", {{"id", b["id"]}});
        CHECK(gone["id"] == b["id"]);
        CHECK(gone["policyNumber"] == "B");
        CHECK(gone["kind"] == "civil-liability");
        CHECK(gone["deletedAt"] == "2026-11-21T12:00:00-05:00");
        const auto l = list(fx);
        CHECK(numbers_of(l) == std::vector<std::string>{"A"});
        CHECK(l["pagination"]["total"] == 1);
        CHECK(list(fx, {{"expiringSoon", true}})["data"].empty());
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "delete_insurance_policy", (json{{"id", b["id"]}}));
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "update_insurance_policy", (json{{"id", b["id"]}, {"notes", "x"}}));
        // Archived, not erased: the trail has it.
        const auto events = fx.call("list_audit_events", {{"recordId", b["id"]}});
        REQUIRE(events["data"].size() == 2);
        CHECK(events["data"][0]["action"] == "archive");
        CHECK(events["data"][0]["tool"] == "delete_insurance_policy");
        CHECK(events["data"][0]["recordType"] == "insurance-policy");
    }
    SUBCASE("INSURANCE_POLICY_NOT_FOUND: unknown, or another syndicate's") {
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "delete_insurance_policy", (json{{"id", unknown_id}}));
        CHECK(fx.error("delete_insurance_policy", {{"id", unknown_id}}).field() == "/id");
        CHECK_REFUSED_AS(fx, fx.other_admin, "INSURANCE_POLICY_NOT_FOUND", "delete_insurance_policy", (json{{"id", a["id"]}}));
        CHECK(list(fx)["pagination"]["total"] == 2);
        const auto theirs = fx.call_as(fx.other_admin, "create_insurance_policy", policy_args());
        CHECK_REFUSED(fx, "INSURANCE_POLICY_NOT_FOUND", "delete_insurance_policy", (json{{"id", theirs["id"]}}));
        CHECK(fx.call_as(fx.other_admin, "list_insurance_policies")["pagination"]["total"] == 1);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_insurance_policy", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_insurance_policy", (json{{"id", 12}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_insurance_policy", (json{{"id", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "delete_insurance_policy", (json{{"id", a["id"]}, {"force", true}}));
        CHECK(has_error_on(fx.error("delete_insurance_policy", json::object()), "/id"));
    }
    SUBCASE("INSUFFICIENT_SCOPE without write:insurance") {
        const syndic::CallerContext co_owners{fx.syndicate, "key-x", {"read:co-owners"}, syndic::Role::member};
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "delete_insurance_policy", (json{{"id", a["id"]}}));
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:insurance"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "delete_insurance_policy", (json{{"id", a["id"]}}));
        CHECK(list(fx)["pagination"]["total"] == 2);
    }
}

}

}  // namespace insurance_test
