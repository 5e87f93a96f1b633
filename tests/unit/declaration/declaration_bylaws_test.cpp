// list_bylaws and set_bylaw (catalogue §3.1): the registered original (initial, admins), changes
// by a passed resolution of the co-owners (art. 1096), versions readable with asOf, repeal,
// penalties only when the declaration allows them, one article in force per number.
#include "declaration/declaration_fixture.hpp"

#include "storage/migration_catalogue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace declaration_bylaws_test {

using namespace syndic::test;

namespace {

json article(DeclarationFixture& fx, const std::string& number, const std::string& title, const std::string& text,
             json extra = json::object()) {
    json args = {{"article", number}, {"title", title}, {"text", text}, {"category", "noise"}, {"initial", true}};
    args.update(extra);
    return fx.call("set_bylaw", args);
}

std::vector<std::string> articles(const json& page) {
    std::vector<std::string> out;
    for (const auto& b : page["data"]) out.push_back(b["article"]);
    return out;
}

}  // namespace

TEST_SUITE("declaration") {

TEST_CASE("initial by-laws: admins transcribe them with no resolution, in article order") {
    DeclarationFixture fx;
    fx.call("update_declaration", {{"registeredOn", "2005-06-01"}});
    const auto b = article(fx, "4.10", "Bruit", "Silence après 23 h.");
    CHECK(b["status"] == "active");
    CHECK(b["adoptedByResolutionId"].is_null());
    CHECK(b["effectiveFrom"] == "2005-06-01");  // the registration's day
    CHECK(b["supersedesId"].is_null());
    article(fx, "4.2", "Animaux", "Les chiens sont tenus en laisse.", {{"category", "pets"}});
    article(fx, "10.1", "Stationnement", "Aucun véhicule récréatif.", {{"category", "parking"}});
    CHECK(articles(fx.call("list_bylaws")) == std::vector<std::string>{"4.2", "4.10", "10.1"});
    CHECK(fx.call("get_declaration")["counts"]["bylaws"] == 3);
    // initial is for admins; so is nothing else here.
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "set_bylaw",
                     json({{"article", "5"}, {"title", "T"}, {"text", "X"}, {"category", "use"}, {"initial", true}}));
    // The original was adopted by no resolution.
    const auto r1 = fx.resolution_id();
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_bylaw",
                  json({{"article", "5"}, {"title", "T"}, {"text", "X"}, {"category", "use"}, {"initial", true},
                        {"resolutionId", r1}}));
}

TEST_CASE("initial corrects a transcription in place; never repeals; not once a resolution changed the article") {
    DeclarationFixture fx;
    fx.call("update_declaration", {{"registeredOn", "2005-06-01"}});
    const auto b = article(fx, "4.2", "Bruit", "Silence après 23 h.");
    // A correction of the registered text: the same version, in force from the registration.
    const auto fixed = fx.call("set_bylaw", {{"id", b["id"]}, {"text", "Silence après 22 h."}, {"initial", true}});
    CHECK(fixed["id"] == b["id"]);
    CHECK(fixed["text"] == "Silence après 22 h.");
    CHECK(fixed["effectiveFrom"] == "2005-06-01");
    CHECK(fixed["supersedesId"].is_null());
    CHECK(fx.call("list_bylaws", {{"status", "all"}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_bylaws", {{"asOf", "2005-06-01"}})["data"][0]["text"] == "Silence après 22 h.");
    // The reported bug: an initial repeal, backdated to the registration day. Refused.
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "set_bylaw", json({{"id", b["id"]}, {"repeal", true}, {"initial", true}}));
    CHECK(fx.error("set_bylaw", {{"id", b["id"]}, {"repeal", true}, {"initial", true}}).field() == "/initial");
    // Once the co-owners changed it, initial no longer may: neither the new version nor an old one.
    const auto v2 = fx.call("set_bylaw", {{"id", b["id"]}, {"text", "Silence après 21 h."}, {"resolutionId", fx.resolution_id()}});
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "set_bylaw", json({{"id", v2["id"]}, {"text", "Autre."}, {"initial", true}}));
    CHECK_REFUSED(fx, "BYLAW_NOT_FOUND", "set_bylaw", json({{"id", b["id"]}, {"text", "Autre."}, {"initial", true}}));
    // A version adopted on a resolution is itself resolution-based, even the first of its article.
    const auto adopted = fx.call("set_bylaw", {{"article", "7"}, {"title", "Piscine"}, {"text", "9 h à 21 h."},
                                               {"category", "amenities"}, {"resolutionId", fx.resolution_id()}});
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "set_bylaw", json({{"id", adopted["id"]}, {"text", "Autre."}, {"initial", true}}));
    // A member cannot transcribe, even a correction.
    const auto other = article(fx, "5", "Animaux", "En laisse.");
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "set_bylaw", json({{"id", other["id"]}, {"text", "X"}, {"initial", true}}));
}

TEST_CASE("a version ends the day before the change takes effect, never before it began (INVALID_DATE_RANGE)") {
    DeclarationFixture fx;
    fx.call("update_declaration", {{"registeredOn", "2005-06-01"}});
    const auto b = article(fx, "4.2", "Bruit", "Silence après 23 h.");
    // A deposit on or before the day the version took effect would end it before it began.
    const auto r1 = fx.resolution_id();
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "set_bylaw",
                  json({{"id", b["id"]}, {"text", "X"}, {"resolutionId", r1}, {"depositedOn", "2005-06-01"}}));
    const auto e = fx.error("set_bylaw", {{"id", b["id"]}, {"repeal", true}, {"resolutionId", fx.resolution_id()},
                                          {"depositedOn", "2004-01-01"}});
    CHECK(e.code() == "INVALID_DATE_RANGE");
    CHECK(e.field() == "/depositedOn");
    // The day after is the first a change may take effect: the old version was in force one day.
    const auto v2 = fx.call("set_bylaw", {{"id", b["id"]}, {"text", "Silence après 22 h."}, {"resolutionId", fx.resolution_id()},
                                          {"depositedOn", "2005-06-02"}});
    const auto v1 = fx.call("list_bylaws", {{"asOf", "2005-06-01"}})["data"][0];
    CHECK(v1["id"] == b["id"]);
    CHECK(v1["endedOn"] == "2005-06-01");
    CHECK(fx.call("list_bylaws", {{"asOf", "2005-06-02"}})["data"][0]["id"] == v2["id"]);
    // Without a deposit, the decision's day sets the change, and the refusal names the resolution.
    const auto later = fx.call("set_bylaw", {{"id", v2["id"]}, {"text", "Silence après 20 h."}, {"resolutionId", fx.resolution_id()},
                                             {"depositedOn", "2026-12-20"}});
    const auto r2 = fx.resolution_id();  // decided 2026-12-15, before the deposit of 2026-12-20
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "set_bylaw", json({{"id", later["id"]}, {"repeal", true}, {"resolutionId", r2}}));
    CHECK(fx.error("set_bylaw", {{"id", later["id"]}, {"repeal", true}, {"resolutionId", r2}}).field() == "/resolutionId");
}

TEST_CASE("declaration 003: versions ended as the old code wrote them answer every day as before") {
    DeclarationFixture fx;
    // As the old code wrote them: endedOn the first day out of force. Article 1 amended on
    // 2026-12-20; article 2 corrected the day it was transcribed (never in force); article 3
    // repealed on 2026-12-15.
    const std::vector<std::string> rows = {
        "('v1', '1', 'superseded', '2005-06-01', '2026-12-20', NULL)", "('v2', '1', 'active', '2026-12-20', NULL, 'v1')",
        "('w1', '2', 'superseded', '2005-06-01', '2005-06-01', NULL)", "('w2', '2', 'active', '2005-06-01', NULL, 'w1')",
        "('x1', '3', 'repealed', '2005-06-01', '2026-12-15', NULL)"};
    for (const auto& row : rows)
        fx.db->sql().exec(
            "INSERT INTO bylaws (id, article, status, effective_from, ended_on, supersedes_id, syndicate_id, title, text, "
            "category, search_text, sort_key, created_at, updated_at) SELECT r.*, '" + fx.syndicate +
            "', 'T', 'X', 'other', 'x', r.column2, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM (VALUES " +
            row + ") r");
    const auto in_force = [&](const std::string& day) {
        std::vector<std::string> ids;
        const auto page = fx.call("list_bylaws", {{"asOf", day}});
        for (const auto& b : page["data"]) ids.push_back(b["id"]);
        return ids;
    };
    for (const auto& m : syndic::embedded_migration_plan())
        if (m.key == syndic::MigrationKey{"declaration", 3}) fx.db->sql().exec(std::string(m.sql));
    CHECK(in_force("2005-06-01") == std::vector<std::string>{"v1", "w2", "x1"});
    CHECK(in_force("2026-12-14") == std::vector<std::string>{"v1", "w2", "x1"});
    CHECK(in_force("2026-12-15") == std::vector<std::string>{"v1", "w2"});
    CHECK(in_force("2026-12-19") == std::vector<std::string>{"v1", "w2"});
    CHECK(in_force("2026-12-20") == std::vector<std::string>{"v2", "w2"});
    const auto all = fx.call("list_bylaws", {{"status", "all"}})["data"];
    CHECK(record_with_id(json{{"data", all}}, "v1")["endedOn"] == "2026-12-19");
    CHECK(record_with_id(json{{"data", all}}, "w1")["endedOn"] == "2005-05-31");  // never in force, as before
}

TEST_CASE("list_bylaws filters by category and searches title and text, accents ignored") {
    DeclarationFixture fx;
    article(fx, "1", "Bruit", "Silence après 23 h.");
    article(fx, "2", "Animaux", "Chiens tenus en laisse.", {{"category", "pets"}});
    CHECK(articles(fx.call("list_bylaws", {{"category", "pets"}})) == std::vector<std::string>{"2"});
    CHECK(articles(fx.call("list_bylaws", {{"search", "APRES"}})) == std::vector<std::string>{"1"});
    CHECK(articles(fx.call("list_bylaws", {{"search", "chiens"}})) == std::vector<std::string>{"2"});
    CHECK(fx.call("list_bylaws", {{"search", "piscine"}})["pagination"]["total"] == 0);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_bylaws", json({{"category", "music"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_bylaws", json({{"asOf", "2026-02-30"}}));
}

TEST_CASE("a change needs a passed resolution of the co-owners, at least simple (art. 1096)") {
    DeclarationFixture fx;
    const json fields = {{"article", "7"}, {"title", "Piscine"}, {"text", "Ouverte de 9 h à 21 h."}, {"category", "amenities"}};
    CHECK_REFUSED(fx, "RESOLUTION_REQUIRED", "set_bylaw", fields);
    json with = fields;
    with["resolutionId"] = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "set_bylaw", with);
    with["resolutionId"] = fx.resolution_id("simple", "pending");
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "set_bylaw", with);
    with["resolutionId"] = fx.resolution_id("simple", "rejected");
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "set_bylaw", with);
    with["resolutionId"] = fx.resolution_id("simple", "passed", "board");
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "set_bylaw", with);
    // A member may change the by-laws on the co-owners' decision.
    with["resolutionId"] = fx.resolution_id("simple");
    const auto b = fx.call_as(fx.member, "set_bylaw", with);
    CHECK(b["adoptedByResolutionId"] == with["resolutionId"]);
    CHECK(b["effectiveFrom"] == "2026-12-15");  // the decision's day, until the deposit is known
    with["article"] = "8";
    with["depositedOn"] = "2026-12-20";
    with["resolutionId"] = fx.resolution_id("absolute");  // stronger than needed
    const auto deposited = fx.call("set_bylaw", with);
    CHECK(deposited["depositedOn"] == "2026-12-20");
    CHECK(deposited["effectiveFrom"] == "2026-12-20");  // in force from its deposit
}

TEST_CASE("an amendment is a new version; the old one stays readable with asOf") {
    DeclarationFixture fx;
    fx.call("update_declaration", {{"registeredOn", "2005-06-01"}});
    const auto v1 = article(fx, "4.2", "Bruit", "Silence après 23 h.");
    const auto v2 = fx.call("set_bylaw", {{"id", v1["id"]}, {"text", "Silence après 22 h."}, {"resolutionId", fx.resolution_id()},
                                          {"depositedOn", "2026-12-20"}});
    CHECK(v2["id"] != v1["id"]);
    CHECK(v2["supersedesId"] == v1["id"]);
    CHECK(v2["title"] == "Bruit");  // unchanged fields carry over
    CHECK(v2["text"] == "Silence après 22 h.");
    auto page = fx.call("list_bylaws");
    REQUIRE(page["data"].size() == 1);
    CHECK(page["data"][0]["id"] == v2["id"]);
    // On a day before the amendment took effect, the old text was in force.
    page = fx.call("list_bylaws", {{"asOf", "2026-12-19"}});
    REQUIRE(page["data"].size() == 1);
    CHECK(page["data"][0]["text"] == "Silence après 23 h.");
    CHECK(page["data"][0]["status"] == "superseded");
    CHECK(page["data"][0]["endedOn"] == "2026-12-19");  // its last day in force
    CHECK(fx.call("list_bylaws", {{"asOf", "2026-12-20"}})["data"][0]["id"] == v2["id"]);
    CHECK(fx.call("list_bylaws", {{"asOf", "2000-01-01"}})["data"].empty());
    CHECK(fx.call("list_bylaws", {{"status", "all"}})["pagination"]["total"] == 2);
    // A superseded version is no longer a target.
    CHECK_REFUSED(fx, "BYLAW_NOT_FOUND", "set_bylaw", json({{"id", v1["id"]}, {"text", "X"}, {"initial", true}}));
}

TEST_CASE("repeal ends the article in force") {
    DeclarationFixture fx;
    const auto b = article(fx, "3", "Barbecue", "Interdit sur les balcons.");
    const auto r = fx.call("set_bylaw", {{"id", b["id"]}, {"repeal", true}, {"resolutionId", fx.resolution_id()}});
    CHECK(r["status"] == "repealed");
    CHECK(r["endedOn"] == "2026-12-14");  // the day before the decision took effect
    CHECK(fx.call("list_bylaws")["data"].empty());
    CHECK(fx.call("list_bylaws", {{"status", "repealed"}})["data"].size() == 1);
    const auto r2 = fx.resolution_id();
    CHECK_REFUSED(fx, "BYLAW_NOT_FOUND", "set_bylaw", json({{"id", b["id"]}, {"repeal", true}, {"resolutionId", r2}}));
    const auto r3 = fx.resolution_id();
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_bylaw", json({{"repeal", true}, {"resolutionId", r3}}));
    // Its number is free again.
    CHECK(article(fx, "3", "Barbecue", "Permis au gaz.")["status"] == "active");
}

TEST_CASE("set_bylaw tells subscribers: bylaw.adopted, bylaw.amended, bylaw.repealed (catalogue §6)") {
    DeclarationFixture fx;
    const auto events = [&fx](const json& id) { return fx.events_of(id.get<std::string>()); };
    const auto v1 = article(fx, "5", "Piscine", "Ouverte de 9 h à 21 h.");
    CHECK(events(v1["id"]) == std::vector<std::string>{"bylaw.adopted"});
    const auto v2 = fx.call("set_bylaw", {{"id", v1["id"]}, {"text", "Ouverte de 8 h à 22 h."}, {"resolutionId", fx.resolution_id()}});
    CHECK(events(v2["id"]) == std::vector<std::string>{"bylaw.amended"});
    CHECK(events(v1["id"]) == std::vector<std::string>{"bylaw.adopted"});  // superseded: the article's history, no event
    const auto other = article(fx, "6", "Barbecue", "Interdit sur les balcons.");
    fx.call("set_bylaw", {{"id", other["id"]}, {"repeal", true}, {"resolutionId", fx.resolution_id()}});
    CHECK(events(other["id"]) == std::vector<std::string>{"bylaw.adopted", "bylaw.repealed"});
}

TEST_CASE("DUPLICATE_BYLAW_ARTICLE: one article in force per number") {
    DeclarationFixture fx;
    const auto a = article(fx, "4.2", "Bruit", "Silence.");
    CHECK_REFUSED(fx, "DUPLICATE_BYLAW_ARTICLE", "set_bylaw",
                  json({{"article", "4.2"}, {"title", "Autre"}, {"text", "Autre."}, {"category", "other"}, {"initial", true}}));
    const auto b = article(fx, "4.3", "Animaux", "Laisse.");
    CHECK_REFUSED(fx, "DUPLICATE_BYLAW_ARTICLE", "set_bylaw", json({{"id", b["id"]}, {"article", "4.2"}, {"initial", true}}));
    // Renumbering the transcription to a free number corrects it.
    CHECK(fx.call("set_bylaw", {{"id", a["id"]}, {"article", "4.1"}, {"initial", true}})["article"] == "4.1");
}

TEST_CASE("PENALTIES_NOT_ALLOWED unless the declaration provides for penalties") {
    DeclarationFixture fx;
    const json fields = {{"article", "9"}, {"title", "Déchets"}, {"text", "Au conteneur."}, {"category", "use"},
                         {"initial", true}, {"penaltyCents", 10000}};
    CHECK_REFUSED(fx, "PENALTIES_NOT_ALLOWED", "set_bylaw", fields);
    fx.call("update_declaration", {{"penaltiesAllowed", true}});
    CHECK(fx.call("set_bylaw", fields)["penaltyCents"] == 10000);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_bylaw", json({{"article", "10"}, {"title", "T"}, {"text", "X"},
                                                              {"category", "use"}, {"initial", true}, {"penaltyCents", -1}}));
}

TEST_CASE("a new article needs its fields; unknown ids are BYLAW_NOT_FOUND") {
    DeclarationFixture fx;
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_bylaw", json({{"title", "T"}, {"text", "X"}, {"category", "use"}, {"initial", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_bylaw", json({{"article", "1"}, {"title", "T"}, {"text", "X"}, {"initial", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_bylaw", json({{"article", "1"}, {"title", " "}, {"text", "X"}, {"category", "use"}, {"initial", true}}));
    CHECK_REFUSED(fx, "BYLAW_NOT_FOUND", "set_bylaw", json({{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"text", "X"}, {"initial", true}}));
    const auto b = article(fx, "1", "Bruit", "Silence.");
    CHECK(fx.error_as(fx.other_admin, "set_bylaw", {{"id", b["id"]}, {"text", "X"}, {"initial", true}}).code() == "BYLAW_NOT_FOUND");
}

}

}  // namespace declaration_bylaws_test
