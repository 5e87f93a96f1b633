// Rules read from the schema rather than kept by hand (decisions: "Settings home, references and
// migrations"): the references to a record found from the foreign keys (live_references, and
// delete_unit's guard built on it); every id argument declaring the table it names (x-references,
// "Seeds and x-references"). The migrations' numbering: migration_order_test.cpp.
#include "fixture.hpp"
#include "id_arguments.hpp"
#include "tenant_rows.hpp"

#include "storage/references.hpp"

#include <set>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace schema_rules_test {

using namespace syndic;
using namespace syndic::test;

TEST_SUITE("schema-rules") {

TEST_CASE("live_references: every column whose foreign key points at the table, live rows of the syndicate only") {
    Fixture fx;
    const auto unit = fx.unit("101", 10);
    const auto id = unit["id"].get<std::string>();
    CHECK(live_references(*fx.db, "units", id, fx.syndicate).empty());
    const auto owner = fx.co_owner(id, "Marie", "Tremblay");
    fx.co_owner(id, "Jean", "Roy");
    auto refs = live_references(*fx.db, "units", id, fx.syndicate);
    REQUIRE(refs.size() == 1);
    CHECK(refs[0].table == "co_owners");
    CHECK(refs[0].column == "unit_id");
    CHECK(refs[0].count == 2);
    // Archived rows are not a use; another syndicate's rows are not counted for this one.
    fx.call("delete_co_owner", {{"id", owner["id"]}});
    CHECK(live_references(*fx.db, "units", id, fx.syndicate).at(0).count == 1);
    CHECK(live_references(*fx.db, "units", id, fx.other_syndicate).empty());
}

TEST_CASE("delete_unit: a new table referencing units refuses the deletion without an edit to units.cpp") {
    Fixture fx;
    fx.unit("100", 100);  // the fractions still sum to 100 once unit 101 is gone
    const auto unit = fx.unit("101", 0);
    const auto id = unit["id"].get<std::string>();
    // A module that does not exist yet: its table keeps an archive column and its syndicate.
    fx.db->sql().exec(
        "CREATE TABLE parking_permits (id TEXT PRIMARY KEY, syndicate_id TEXT NOT NULL REFERENCES syndicates(id), "
        "unit_id TEXT REFERENCES units(id), deleted_at TEXT) STRICT");
    fx.db->sql().exec("INSERT INTO parking_permits VALUES ('p1', '" + fx.syndicate + "', '" + id + "', NULL)");
    const auto e = fx.error("delete_unit", {{"id", id}});
    CHECK(e.code() == "UNIT_IN_USE");
    CHECK(e.field() == "/id");
    CHECK(e.detail() == "Unit 101 still has 1 record(s) in parking_permits referring to it; delete or move them first.");
    CHECK(figure(e, "activeParkingPermits") == 1);
    CHECK_REFUSED(fx, "UNIT_IN_USE", "delete_unit", (json{{"id", id}}));
    // Archived, the permit no longer holds the unit.
    fx.db->sql().exec("UPDATE parking_permits SET deleted_at = '2026-11-21T15:00:00.000Z'");
    CHECK(fx.call("delete_unit", {{"id", id}})["deletedAt"].is_string());
}

TEST_CASE("delete_unit: today's references answer as before") {
    Fixture fx;
    const auto unit = fx.unit("101", 10);
    fx.co_owner(unit["id"].get<std::string>(), "Marie", "Tremblay");
    const auto e = fx.error("delete_unit", {{"id", unit["id"]}});
    CHECK(e.detail() == "Unit 101 still has 1 active co-owner(s); archive or move them first.");
    CHECK(figure(e, "activeCoOwners") == 1);
    CHECK(e.figures().size() == 1);
}

// What is wrong with the x-references of one id argument ("" when nothing): it must be declared,
// and be a table of the syndicate's records, null (no table), or {"kindFrom": "<a string sibling>"}.
std::string reference_fault(const json& input_schema, const id_arguments::IdPath& p, const std::set<std::string>& tables) {
    if (!p.declared) return "declares no x-references (a tenant table, or null)";
    if (p.reference.is_null()) return "";
    if (p.reference.is_string())
        return tables.count(p.table()) ? "" : "names " + p.reference.dump() + ", which is no table of a syndicate's records";
    const auto sibling = p.kind_from();
    if (sibling.empty() || p.reference.size() != 1) return "x-references " + p.reference.dump() + " is neither a table, null nor {\"kindFrom\": ...}";
    const auto whole = id_arguments::inlined(input_schema, input_schema);
    const auto& parent = id_arguments::parent_schema(whole, p);
    const auto props = parent.value("properties", json::object());
    if (!props.contains(sibling) || !id_arguments::accepts(props[sibling], "string"))
        return "kindFrom names " + sibling + ", which is no string argument beside it";
    return "";
}

std::vector<std::string> reference_faults(const json& input_schema, const std::string& tool, const std::set<std::string>& tables) {
    std::vector<std::string> out;
    for (const auto& p : id_arguments::id_paths(input_schema))
        if (const auto fault = reference_fault(input_schema, p, tables); !fault.empty())
            out.push_back(tool + " " + p.pointer() + ": " + fault);
    return out;
}

TEST_CASE("every id argument of every tool declares the table it names (x-references), so the sweep and seeds need no guess") {
    Fixture fx;
    const auto tenant = tenant_tables(*fx.db);
    const std::set<std::string> tables(tenant.begin(), tenant.end());
    std::vector<std::string> faults;
    int declared = 0;
    for (const auto& tool : fx.registry.tools()) {
        const auto& schema = fx.registry.schema_document(tool.name)["inputSchema"];
        for (const auto& fault : reference_faults(schema, tool.name, tables)) faults.push_back(fault);
        declared += static_cast<int>(id_arguments::id_paths(schema).size());
    }
    for (const auto& f : faults) MESSAGE(f);
    CHECK(faults.empty());
    CHECK(declared > 80);
    // The rule itself: each wrong form is found, nested ones too.
    const auto faulty = json::parse(R"({"type": "object", "properties": {
        "id": {"type": "string"},
        "unitId": {"type": "string", "x-references": "unit"},
        "recordId": {"type": "string", "x-references": {"kindFrom": "recordKind"}},
        "rows": {"type": "array", "items": {"type": "object", "properties": {"coOwnerId": {"type": "string"}}}},
        "keyId": {"type": "string", "x-references": null},
        "meetingId": {"type": "string", "x-references": "meetings"}}})");
    CHECK(reference_faults(faulty, "t", tables) ==
          std::vector<std::string>{"t /id: declares no x-references (a tenant table, or null)",
                                   "t /recordId: kindFrom names recordKind, which is no string argument beside it",
                                   "t /rows/0/coOwnerId: declares no x-references (a tenant table, or null)",
                                   "t /unitId: names \"unit\", which is no table of a syndicate's records"});
}

TEST_CASE("hosts never see x-references: the served descriptors drop it (tools/list's bytes stay as they were)") {
    Fixture fx;
    for (const auto& d : fx.registry.descriptors()) {
        CAPTURE(d["name"]);
        CHECK(d.dump().find("x-references") == std::string::npos);
    }
}

}  // TEST_SUITE

}  // namespace schema_rules_test
