// The administration module's settings (catalogue section 4.2): get_settings shows every setting
// the modules declare except those another tool owns (the quorum: get_declaration), with the
// defaults named; update_settings changes some and leaves the others, checks e-mail and NEQ, is
// for admins, emits one settings.updated when something changed, and each setting takes effect
// where it is used (a tank's replaceBy, a policy's expiringSoon, a new co-owner's language, the
// From: of the e-mail).
#include "fixture.hpp"
#include "source_paths.hpp"

#include <SQLiteCpp/Statement.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "storage/settings.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace settings_tools_test {

using namespace syndic::test;

namespace {

int settings_events(Fixture& fx, const std::string& syndicate) {
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM events WHERE syndicate_id = ? AND type = 'settings.updated'");
    q.bind(1, syndicate);
    q.executeStep();
    return q.getColumn(0).getInt();
}

}  // namespace

TEST_SUITE("administration-settings") {

TEST_CASE("get_settings: the declared settings with their defaults; the quorum is the declaration's") {
    Fixture fx;
    const auto s = fx.call("get_settings");
    CHECK(s["syndicateName"] == "Syndicat A");
    CHECK(s["defaultLanguage"] == "fr");
    CHECK(s["waterHeaterReplacementYears"] == 10);
    CHECK(s["policyExpiringSoonDays"] == 60);
    CHECK(s["mailFrom"].is_null());
    CHECK(s["updatedAt"].is_null());
    CHECK_FALSE(s.contains("requiredQuorumPercent"));
    CHECK(s["reservationGraceDays"] == 30);
    CHECK(s["assessmentFrequency"] == "monthly");
    CHECK(s["defaults"].size() == 18);
    // A member may read them (read:administration), not change them.
    CHECK(fx.call_as(fx.member, "get_settings")["syndicateName"] == "Syndicat A");
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "update_settings", (json{{"defaultLanguage", "en"}}));
}

TEST_CASE("update_settings changes what is given, leaves the rest, and says when") {
    Fixture fx;
    const auto s = fx.call("update_settings", {{"syndicateName", "  Les Jardins  "}, {"neq", "1171-234 567"},
                                               {"mailFrom", "syndicat@example.ca"}, {"defaultLanguage", "en"}});
    CHECK(s["syndicateName"] == "Les Jardins");
    CHECK(s["neq"] == "1171234567");
    CHECK(s["mailFrom"] == "syndicat@example.ca");
    CHECK(s["defaultLanguage"] == "en");
    CHECK(s["waterHeaterReplacementYears"] == 10);
    CHECK(s["updatedAt"] == "2026-11-21T10:00:00-05:00");
    CHECK(s["defaults"] == json{"address", "assessmentDueDay", "assessmentFrequency", "constructionInflationPercent", "holdbackPercent", "legalName", "paymentInstructions", "policyExpiringSoonDays", "portalUrl",
                                  "requestSlaHighDays", "requestSlaLowDays", "requestSlaNormalDays", "requestSlaUrgentDays", "reservationGraceDays",
                                  "waterHeaterReplacementYears"});
    CHECK(fx.call("get_settings") == s);
    CHECK(settings_events(fx, fx.syndicate) == 1);
    // Nothing changes: no event. null clears a setting back to its default.
    fx.call("update_settings", {{"defaultLanguage", "en"}});
    CHECK(settings_events(fx, fx.syndicate) == 1);
    const auto cleared = fx.call("update_settings", {{"mailFrom", nullptr}});
    CHECK(cleared["mailFrom"].is_null());
    CHECK(cleared["defaults"].size() == 16);
    CHECK(settings_events(fx, fx.syndicate) == 2);
    // The other syndicate keeps its own.
    CHECK(fx.call_as(fx.other_admin, "get_settings")["syndicateName"] == "Syndicat B");
    CHECK(fx.call_as(fx.other_admin, "get_settings")["defaultLanguage"] == "fr");
}

TEST_CASE("update_settings refusals change nothing") {
    Fixture fx;
    CHECK_REFUSED(fx, "INVALID_EMAIL", "update_settings", (json{{"mailFrom", "syndicat at example"}}));
    CHECK_REFUSED(fx, "INVALID_NEQ", "update_settings", (json{{"neq", "12345"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_settings", (json{{"waterHeaterReplacementYears", 31}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_settings", (json{{"defaultLanguage", "es"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_settings", (json{{"requiredQuorumPercent", 60}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_settings", (json{{"legalName", "   "}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_settings", json::object());
    // A good field beside a bad one: nothing written.
    CHECK_REFUSED(fx, "INVALID_EMAIL", "update_settings", (json{{"syndicateName", "X"}, {"mailFrom", "bad"}}));
    CHECK(settings_events(fx, fx.syndicate) == 0);
}

TEST_CASE("each setting takes effect where it is used") {
    Fixture fx;
    // waterHeaterReplacementYears: every tank's replaceBy moves at once.
    const auto unit = fx.unit("101", 10);
    const auto tank = fx.call("create_water_heater", {{"unitId", unit["id"]}, {"manufactureDate", "2018-05-01"}});
    CHECK(tank["replaceBy"] == "2028-05-01");
    fx.call("update_settings", {{"waterHeaterReplacementYears", 12}});
    CHECK(record_with_id(fx.call("list_water_heaters"), tank["id"])["replaceBy"] == "2030-05-01");

    // policyExpiringSoonDays: a policy ending in 50 days is flagged at 60, not at 30.
    const auto policy = fx.call("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"},
                                                             {"policyNumber", "P-1"}, {"startDate", "2026-01-10"},
                                                             {"endDate", "2027-01-10"}});
    CHECK(policy["expiringSoon"] == true);
    fx.call("update_settings", {{"policyExpiringSoonDays", 30}});
    CHECK(record_with_id(fx.call("list_insurance_policies"), policy["id"])["expiringSoon"] == false);

    // defaultLanguage: a new co-owner's language when none is given.
    CHECK(fx.co_owner(unit["id"], "Jean", "Roy")["language"] == "fr");
    fx.call("update_settings", {{"defaultLanguage", "en"}});
    CHECK(fx.co_owner(unit["id"], "Ann", "Smith")["language"] == "en");
    CHECK(fx.co_owner(unit["id"], "Luc", "Roy", {{"language", "fr"}})["language"] == "fr");
}

TEST_CASE("the settings tools' schema lists exactly the settings get_settings shows") {
    std::ifstream in(syndic::test::source_root() + "/schemas/administration/records/settings_fields.json");
    std::stringstream text;
    text << in.rdbuf();
    std::set<std::string> in_schema, declared{"syndicateName"};
    const auto fields = json::parse(text.str());
    for (const auto& [name, _] : fields.items()) in_schema.insert(name);
    for (const auto& d : syndic::setting_declarations())
        if (d.shown_by.empty()) declared.insert(d.name);
    CHECK(in_schema == declared);
}

}  // TEST_SUITE

}  // namespace settings_tools_test
