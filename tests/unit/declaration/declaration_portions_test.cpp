// list_common_portions and set_common_portion (catalogue §3.1): general and restricted portions,
// the units entitled to a restricted one (art. 1064), the amendment a change of them needs, the
// archive guard, and get_unit's restrictedCommonPortions.
#include "declaration/declaration_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace declaration_portions_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

std::vector<std::string> names(const json& page) {
    std::vector<std::string> out;
    for (const auto& p : page["data"]) out.push_back(p["name"]);
    return out;
}

// A passed amendment of the constituting act (absolute majority, art. 1097).
std::string constituting_amendment(DeclarationFixture& fx) {
    return fx.call("record_declaration_amendment", {{"part", "constituting-act"}, {"summary", "Terrasses"},
                                                    {"resolutionId", fx.resolution_id("absolute")}})["id"];
}

}  // namespace

TEST_SUITE("declaration") {

TEST_CASE("general and restricted portions; a unit's usable portions") {
    DeclarationFixture fx;
    const auto u101 = fx.unit("101", 50);
    const auto u102 = fx.unit("102", 50);
    const auto hall = fx.call("set_common_portion", {{"name", "Hall d'entrée"}, {"kind", "general"}, {"description", "Le hall."}});
    CHECK(hall["kind"] == "general");
    CHECK(hall["unitIds"].empty());
    CHECK(hall["ordinaryCostsTo"] == "all");
    CHECK(hall["majorCostsTo"] == "all");
    CHECK(fx.events_of(hall["id"]) == std::vector<std::string>{"common_portion.created"});
    fx.call("set_common_portion", {{"id", hall["id"]}, {"description", "Le hall et le vestibule."}});
    CHECK(fx.events_of(hall["id"]) == std::vector<std::string>{"common_portion.created", "common_portion.updated"});
    const auto terrace = fx.call("set_common_portion", {{"name", "Terrasse du 101"}, {"kind", "restricted"},
                                                        {"unitIds", json::array({u101["id"]})}, {"initial", true}});
    CHECK(terrace["unitIds"] == json::array({u101["id"]}));
    CHECK(terrace["ordinaryCostsTo"] == "users");  // art. 1064
    CHECK(terrace["majorCostsTo"] == "users");
    CHECK(names(fx.call("list_common_portions")) == std::vector<std::string>{"Hall d'entrée", "Terrasse du 101"});
    CHECK(names(fx.call("list_common_portions", {{"kind", "restricted"}})) == std::vector<std::string>{"Terrasse du 101"});
    CHECK(names(fx.call("list_common_portions", {{"unitId", u101["id"]}})) ==
          std::vector<std::string>{"Hall d'entrée", "Terrasse du 101"});
    CHECK(names(fx.call("list_common_portions", {{"unitId", u102["id"]}})) == std::vector<std::string>{"Hall d'entrée"});
    CHECK(fx.call("get_declaration")["counts"]["restrictedPortions"] == 1);
    // get_unit names the restricted portions the unit may use.
    CHECK(fx.call("get_unit", {{"id", u101["id"]}})["restrictedCommonPortions"] ==
          json::array({json{{"id", terrace["id"]}, {"name", "Terrasse du 101"}}}));
    CHECK(fx.call("get_unit", {{"id", u102["id"]}})["restrictedCommonPortions"].empty());
    // The major costs of a restricted portion may go to all, as the declaration chooses.
    const auto roof = fx.call("set_common_portion", {{"name", "Toit-terrasse"}, {"kind", "restricted"}, {"majorCostsTo", "all"},
                                                     {"unitIds", json::array({u102["id"]})}, {"initial", true}});
    CHECK(roof["ordinaryCostsTo"] == "users");
    CHECK(roof["majorCostsTo"] == "all");
}

TEST_CASE("restricted needs at least one unit; general has none") {
    DeclarationFixture fx;
    const auto u = fx.unit("101", 100);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_common_portion", json({{"name", "Terrasse"}, {"kind", "restricted"}, {"initial", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_common_portion",
                  json({{"name", "Terrasse"}, {"kind", "restricted"}, {"unitIds", json::array()}, {"initial", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_common_portion",
                  json({{"name", "Hall"}, {"kind", "general"}, {"unitIds", json::array({u["id"]})}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_common_portion", json({{"name", "Hall"}, {"kind", "general"}, {"majorCostsTo", "users"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_common_portion", json({{"kind", "general"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_common_portion", json({{"name", "Hall"}, {"kind", "private"}}));
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "set_common_portion",
                  json({{"name", "Terrasse"}, {"kind", "restricted"}, {"unitIds", json::array({ghost})}, {"initial", true}}));
}

TEST_CASE("changing who may use a restricted portion needs an amendment of the constituting act") {
    DeclarationFixture fx;
    const auto u101 = fx.unit("101", 50);
    const auto u102 = fx.unit("102", 50);
    // A new restricted portion outside the registered original changes the constituting act.
    const json fresh = {{"name", "Jardin"}, {"kind", "restricted"}, {"unitIds", json::array({u101["id"]})}};
    CHECK_REFUSED(fx, "AMENDMENT_REQUIRED", "set_common_portion", fresh);
    const auto p = fx.call("set_common_portion", {{"name", "Terrasse"}, {"kind", "restricted"},
                                                  {"unitIds", json::array({u101["id"]})}, {"initial", true}});
    const json widen = {{"id", p["id"]}, {"unitIds", json::array({u101["id"], u102["id"]})}};
    CHECK_REFUSED(fx, "AMENDMENT_REQUIRED", "set_common_portion", widen);
    json with = widen;
    with["amendmentId"] = ghost;
    CHECK_REFUSED(fx, "AMENDMENT_NOT_FOUND", "set_common_portion", with);
    // An amendment of the by-laws does not change the constituting act.
    with["amendmentId"] = fx.call("record_declaration_amendment", {{"part", "by-laws"}, {"summary", "Bruit"},
                                                                   {"resolutionId", fx.resolution_id()}})["id"];
    CHECK_REFUSED(fx, "AMENDMENT_REQUIRED", "set_common_portion", with);
    with["amendmentId"] = constituting_amendment(fx);
    const auto changed = fx.call("set_common_portion", with);
    CHECK(changed["unitIds"].size() == 2);
    CHECK(changed["amendmentId"] == with["amendmentId"]);
    // The same units in another order, a new description or name: no amendment needed.
    CHECK(fx.call("set_common_portion", {{"id", p["id"]}, {"unitIds", json::array({u102["id"], u101["id"]})},
                                         {"description", "Côté sud"}})["description"] == "Côté sud");
    // Admins transcribing the registered declaration need none.
    CHECK(fx.call("set_common_portion", {{"id", p["id"]}, {"unitIds", json::array({u102["id"]})}, {"initial", true}})["unitIds"] ==
          json::array({u102["id"]}));
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "set_common_portion",
                     json({{"id", p["id"]}, {"unitIds", json::array({u101["id"]})}, {"initial", true}}));
    // A restricted portion made general frees its users: that too is the constituting act.
    CHECK_REFUSED(fx, "AMENDMENT_REQUIRED", "set_common_portion", json({{"id", p["id"]}, {"kind", "general"}, {"unitIds", json::array()}}));
}

TEST_CASE("DUPLICATE_COMMON_PORTION: names are unique, case and accents ignored") {
    DeclarationFixture fx;
    const auto a = fx.call("set_common_portion", {{"name", "Salle d'exercice"}, {"kind", "general"}});
    CHECK_REFUSED(fx, "DUPLICATE_COMMON_PORTION", "set_common_portion", json({{"name", "SALLE D'EXERCICE"}, {"kind", "general"}}));
    const auto b = fx.call("set_common_portion", {{"name", "Piscine"}, {"kind", "general"}});
    CHECK_REFUSED(fx, "DUPLICATE_COMMON_PORTION", "set_common_portion", json({{"id", b["id"]}, {"name", "Salle d'exercice"}}));
    // Its own name again is no duplicate; an archived portion's name is free.
    CHECK(fx.call("set_common_portion", {{"id", a["id"]}, {"name", "Salle d'exercice"}})["id"] == a["id"]);
    fx.call("set_common_portion", {{"id", a["id"]}, {"archive", true}});
    CHECK(fx.call("set_common_portion", {{"name", "Salle d'exercice"}, {"kind", "general"}})["id"] != a["id"]);
}

TEST_CASE("archive: hidden, not found to writes, and refused while a record uses the portion") {
    DeclarationFixture fx;
    fx.unit("101", 100);
    const auto u = fx.unit("R-1", 0, "storage");
    const auto p = fx.call("set_common_portion", {{"name", "Terrasse"}, {"kind", "restricted"},
                                                  {"unitIds", json::array({u["id"]})}, {"initial", true}});
    // A later module's table pointing at common portions (a logbook component, a reservable space).
    fx.db->sql().exec("CREATE TABLE spaces (id TEXT PRIMARY KEY, syndicate_id TEXT, common_portion_id TEXT "
                      "REFERENCES common_portions(id), deleted_at TEXT)");
    SQLite::Statement q(fx.db->sql(), "INSERT INTO spaces VALUES ('s1', ?, ?, NULL)");
    q.bind(1, fx.syndicate);
    q.bind(2, p["id"].get<std::string>());
    q.exec();
    CHECK_REFUSED(fx, "COMMON_PORTION_IN_USE", "set_common_portion", json({{"id", p["id"]}, {"archive", true}}));
    // A unit the declaration names as a portion's user is in use.
    CHECK_REFUSED(fx, "UNIT_IN_USE", "delete_unit", json({{"id", u["id"]}}));
    fx.db->sql().exec("UPDATE spaces SET deleted_at = '2026-11-21T15:00:00.000Z'");
    const auto archived = fx.call("set_common_portion", {{"id", p["id"]}, {"archive", true}});
    CHECK(archived.contains("deletedAt"));
    CHECK(archived["unitIds"].empty());
    CHECK(fx.call("list_common_portions")["data"].empty());
    CHECK(fx.call("list_common_portions", {{"includeArchived", true}})["data"].size() == 1);
    CHECK(fx.call("get_unit", {{"id", u["id"]}})["restrictedCommonPortions"].empty());
    CHECK_REFUSED(fx, "COMMON_PORTION_NOT_FOUND", "set_common_portion", json({{"id", p["id"]}, {"name", "Autre"}}));
    CHECK_REFUSED(fx, "COMMON_PORTION_NOT_FOUND", "set_common_portion", json({{"id", ghost}, {"archive", true}}));
    CHECK(fx.error_as(fx.other_admin, "set_common_portion", {{"id", p["id"]}, {"name", "X"}}).code() == "COMMON_PORTION_NOT_FOUND");
    // The unit is free to go once no portion names it.
    fx.call("delete_unit", {{"id", u["id"]}});
}

}

}  // namespace declaration_portions_test
