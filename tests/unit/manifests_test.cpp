// tools/manifests: each module declares itself once (schemas/<module>/module.json, schemas/
// platform.json). Every code the program names is declared there with its status; the start-up
// checks refuse a broken set naming the file; the instructions, consent texts, OpenAPI error
// tables, REST statuses and field codes come from them.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <tuple>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "http/openapi.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "http/pages.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"
#include "tools/field_codes.hpp"
#include "tools/manifests.hpp"
#include "tools/registry.hpp"
#include "tools/wire_error.hpp"

#include "source_paths.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace manifests_test {

using namespace syndic;
using nlohmann::json;

namespace {

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string platform_text = R"({"instructions": "The platform.", "errors": {
    "VALIDATION_FAILED": {"status": 400, "description": "Bad arguments."},
    "NOT_AUTHENTICATED": {"status": 401, "description": "No credentials."}}})";
const std::string units_text = R"({"module": "units", "title": "Units", "default": true, "instructions": "Units.",
    "scopes": {"read:units": {"fr": "consulter les unités", "en": "read units"}},
    "errors": {"UNIT_NOT_FOUND": {"status": 404, "description": "No such unit."}}})";

std::string logic_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_SUITE("manifests") {

TEST_CASE("every code core/error.hpp names and every code the sources throw is declared in a manifest") {
    const std::filesystem::path src = std::filesystem::path(syndic::test::source_root()) / "src";
    const std::regex constant(R"re(inline constexpr const char\* \w+ = "([A-Z0-9_]+)";)re");
    const auto header = read_text(src / "core/error.hpp");
    int constants = 0;
    for (std::sregex_iterator it(header.begin(), header.end(), constant), end; it != end; ++it, ++constants)
        CHECK_MESSAGE(find_error((*it)[1].str()) != nullptr, std::string((*it)[1].str() + " (core/error.hpp) is declared in no manifest"));
    CHECK(constants > 40);

    // A code spelled out where an error is built: DomainError("X", ...), jsonrpc::Error(..., "X"), refuse(..., "X", ...).
    const std::regex thrown(R"re((DomainError|Error|refuse)\([^;]*?"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)")re");
    int literals = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".hpp") continue;
        const auto text = read_text(entry.path());
        for (std::sregex_iterator it(text.begin(), text.end(), thrown), end; it != end; ++it, ++literals)
            CHECK_MESSAGE(find_error((*it)[2].str()) != nullptr,
                          std::string((*it)[2].str() + " (" + entry.path().filename().string() + ") is declared in no manifest"));
    }
    CHECK(literals > 5);

    // In a module's folder every code-shaped string is a code, wherever it is written (a
    // RecordTable's not-found code, a figure table): each one is declared. The names of the
    // program's environment variables (SYNDIC_*) are not codes.
    const std::regex code_shaped(R"re("([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)")re");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(src / "modules")) {
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".hpp") continue;
        const auto text = read_text(entry.path());
        for (std::sregex_iterator it(text.begin(), text.end(), code_shaped), end; it != end; ++it)
            if ((*it)[1].str().rfind("SYNDIC_", 0) != 0)
                CHECK_MESSAGE(find_error((*it)[1].str()) != nullptr,
                              std::string((*it)[1].str() + " (" + entry.path().filename().string() + ") is declared in no manifest"));
    }
}

TEST_CASE("the embedded manifests: one per module with tools, each code once, each scope with its texts") {
    const ToolRegistry registry(all_tool_handlers());
    for (const auto& module : registry.all_modules()) {
        const auto* m = find_module_manifest(module);
        REQUIRE_MESSAGE(m != nullptr, module);
        CHECK(m->file == module + "/module.json");
        CHECK_FALSE(m->title.empty());
        CHECK_FALSE(m->instructions.empty());
    }
    CHECK(module_manifests().size() == registry.all_modules().size());
    for (const auto& scope : registry.all_scopes()) {
        CAPTURE(scope);
        REQUIRE(find_scope_text(scope) != nullptr);
        CHECK(http::scope_description("fr", scope) == find_scope_text(scope)->fr);
        CHECK(http::scope_description("en", scope) == find_scope_text(scope)->en);
        CHECK(http::scope_description("en", scope) != scope);
    }
    CHECK(http::scope_description("en", "read:audit").find("audit trail") != std::string::npos);
    CHECK(platform_manifest().id.empty());
    CHECK(module_settings(*find_module_manifest("water-heaters"))["waterHeaterReplacementYears"]["default"] == 10);
    // ... and insurance's SYNDIC_DEFAULT_EXPIRING_SOON_DAYS (src/modules/insurance/insurance.cpp).
    CHECK(module_settings(*find_module_manifest("insurance"))["policyExpiringSoonDays"]["default"] == 60);
}

TEST_CASE("REST statuses are the manifests' own; a code none declares is the server's fault") {
    for (const auto* m : [] {
             std::vector<const Manifest*> all{&platform_manifest()};
             for (const auto& module : module_manifests()) all.push_back(&module);
             return all;
         }())
        for (const auto& e : m->errors) CHECK_MESSAGE(http_status(e.code) == e.status, e.code);
    CHECK(http_status("UNIT_NOT_FOUND") == 404);
    CHECK(http_status("CO_OWNER_FRACTION_EXCEEDS_UNIT") == 422);
    CHECK(http_status("HEADERS_TOO_LARGE") == 431);
    // No spelling rule: a made-up *_NOT_FOUND or DUPLICATE_* is not 404 or 409.
    CHECK(http_status("GHOST_NOT_FOUND") == 500);
    CHECK(http_status("DUPLICATE_GHOST") == 500);
}

TEST_CASE("a manifest that is not well formed is refused, naming its file") {
    CHECK(parse_manifest("units/module.json", units_text).id == "units");
    CHECK(parse_manifest("units/module.json", units_text).errors.at(0).status == 404);
    auto broken = [](const std::string& file, const std::string& text) {
        return logic_error_of([&] { parse_manifest(file, text); });
    };
    // "module" differs from its folder.
    CHECK(broken("lots/module.json", units_text).find("schemas/lots/module.json: \"module\" is 'units' but the folder is 'lots'") == 0);
    // A code without a status.
    auto no_status = json::parse(units_text);
    no_status["errors"]["UNIT_NOT_FOUND"].erase("status");
    CHECK(broken("units/module.json", no_status.dump()) == "schemas/units/module.json: errors.UNIT_NOT_FOUND has no HTTP status");
    auto bad_status = json::parse(units_text);
    bad_status["errors"]["UNIT_NOT_FOUND"]["status"] = 200;
    CHECK(broken("units/module.json", bad_status.dump()).find("status must be 400..599") != std::string::npos);
    auto no_english = json::parse(units_text);
    no_english["scopes"]["read:units"].erase("en");
    CHECK(broken("units/module.json", no_english.dump()).find("scopes.read:units") != std::string::npos);
    auto unknown_key = json::parse(units_text);
    unknown_key["error"] = json::object();
    CHECK(broken("units/module.json", unknown_key.dump()).find("unknown key 'error'") != std::string::npos);
    CHECK(broken("units/module.json", R"({"module": "units"})").find("schemas/units/module.json: ") == 0);
    CHECK(broken("platform.json", units_text).find("schemas/platform.json: ") == 0);
}

TEST_CASE("a manifest's dependsOn is kept, a list of other modules' ids") {
    CHECK(parse_manifest("units/module.json", units_text).depends_on.empty());
    auto uses = json::parse(units_text);
    uses["dependsOn"] = json::array({"governance", "co-owners"});
    CHECK(parse_manifest("units/module.json", uses.dump()).depends_on == std::vector<std::string>{"governance", "co-owners"});
    auto broken = [](const std::string& file, const std::string& text) {
        return logic_error_of([&] { parse_manifest(file, text); });
    };
    uses["dependsOn"] = "co-owners";
    CHECK(broken("units/module.json", uses.dump()) == "schemas/units/module.json: 'dependsOn' must be an array of module ids");
    uses["dependsOn"] = json::array({"units"});
    CHECK(broken("units/module.json", uses.dump()) == "schemas/units/module.json: dependsOn names the module itself");
    uses["dependsOn"] = json::array({"co-owners", "co-owners"});
    CHECK(broken("units/module.json", uses.dump()) == "schemas/units/module.json: dependsOn names co-owners twice");
    auto platform = json::parse(platform_text);
    platform["dependsOn"] = json::array();
    CHECK(broken("platform.json", platform.dump()) ==
          "schemas/platform.json: 'dependsOn' belongs in a module's manifest");
    // The embedded manifests keep theirs: the meetings ask governance.
    const auto* meetings = find_module_manifest("meetings");
    REQUIRE(meetings);
    CHECK(std::count(meetings->depends_on.begin(), meetings->depends_on.end(), "governance") == 1);
}

TEST_CASE("the start-up checks refuse a broken set of manifests, naming the file") {
    const auto platform = parse_manifest("platform.json", platform_text);
    const auto units = parse_manifest("units/module.json", units_text);
    const ToolFacts get_unit{"units/get_unit.json", "units", "read:units", {}};
    CHECK(logic_error_of([&] { check_manifests({units}, platform, {get_unit}); }).empty());

    // A tool's scope with no consent text.
    const ToolFacts write{"units/create_unit.json", "units", "write:units", {}};
    CHECK(logic_error_of([&] { check_manifests({units}, platform, {get_unit, write}); }) ==
          "schemas/units/create_unit.json: requiredScope write:units has no consent texts in any manifest "
          "(\"scopes\" of schemas/units/module.json)");
    // A code declared twice, in two manifests.
    auto twice = json::parse(units_text);
    twice["errors"]["VALIDATION_FAILED"] = {{"status", 400}, {"description", "Again."}};
    CHECK(logic_error_of([&] { check_manifests({parse_manifest("units/module.json", twice.dump())}, platform, {}); }) ==
          "schemas/units/module.json: code VALIDATION_FAILED is already declared in schemas/platform.json");
    // A module with tools and no manifest.
    const ToolFacts lot{"lots/get_lot.json", "lots", "read:units", {}};
    CHECK(logic_error_of([&] { check_manifests({units}, platform, {lot}); }) ==
          "schemas/lots/get_lot.json: module 'lots' has tools but no schemas/lots/module.json");
    // A module with two manifests.
    CHECK(logic_error_of([&] { check_manifests({units, units}, platform, {}); }).find("has two manifests") != std::string::npos);
    // A field code no manifest declares.
    const ToolFacts coded{"units/get_unit.json", "units", "read:units", {"UNIT_NUMBER_INVALID"}};
    CHECK(logic_error_of([&] { check_manifests({units}, platform, {coded}); }) ==
          "schemas/units/get_unit.json: x-error-code UNIT_NUMBER_INVALID is declared in no manifest");
    const ToolFacts declared{"units/get_unit.json", "units", "read:units", {"UNIT_NOT_FOUND"}};
    CHECK(logic_error_of([&] { check_manifests({units}, platform, {declared}); }).empty());
}

TEST_CASE("a not-found code names its records: one code a table, and the one refusal of an id") {
    auto declared = json::parse(units_text);
    declared["errors"]["UNIT_NOT_FOUND"]["record"] = {{"table", "units"}, {"noun", "unit"}};
    const auto units = parse_manifest("units/module.json", declared.dump());
    CHECK(units.errors.at(0).record_table == "units");
    CHECK(units.errors.at(0).record_noun == "unit");
    CHECK(units.errors.at(0).record_active_noun.empty());
    auto not_404 = declared;
    not_404["errors"]["UNIT_NOT_FOUND"]["status"] = 409;
    CHECK(logic_error_of([&] { parse_manifest("units/module.json", not_404.dump()); }) ==
          "schemas/units/module.json: errors.UNIT_NOT_FOUND: a code for an id naming no record answers 404");
    auto no_noun = declared;
    no_noun["errors"]["UNIT_NOT_FOUND"]["record"].erase("noun");
    CHECK(logic_error_of([&] { parse_manifest("units/module.json", no_noun.dump()); }).find("record: needs a non-empty string 'noun'") !=
          std::string::npos);
    auto twice = declared;
    twice["errors"]["LOT_NOT_FOUND"] = {{"status", 404}, {"description", "No lot."}, {"record", {{"table", "units"}, {"noun", "lot"}}}};
    CHECK(logic_error_of([&] {
              check_manifests({parse_manifest("units/module.json", twice.dump())}, parse_manifest("platform.json", platform_text), {});
          }) == "schemas/units/module.json: UNIT_NOT_FOUND and LOT_NOT_FOUND are both the not-found code of the records of units");

    // Every embedded record is a table of the schema whose rows are found by id and syndicate.
    auto db = Database::open(":memory:");
    std::vector<const Manifest*> all{&platform_manifest()};
    for (const auto& m : module_manifests()) all.push_back(&m);
    int records = 0;
    for (const auto* m : all)
        for (const auto& e : m->errors) {
            if (e.record_table.empty()) continue;
            CAPTURE(e.code);
            ++records;
            std::set<std::string> columns;
            SQLite::Statement q(db->sql(), "SELECT name FROM pragma_table_info(?)");
            q.bind(1, e.record_table);
            while (q.executeStep()) columns.insert(q.getColumn(0).getString());
            CHECK(columns.count("id") == 1);
            CHECK(columns.count("syndicate_id") == 1);
            CHECK(find_record_error(e.record_table) == &e);
        }
    CHECK(records >= 15);

    // The refusal: the table's code and noun; "active" where the manifest says how.
    const auto unit = record_not_found("units", "u-1", "/unitId", RecordState::active);
    CHECK(unit.code() == "UNIT_NOT_FOUND");
    CHECK(unit.detail() == "No unit with id u-1 in this syndicate.");
    CHECK(unit.field() == "/unitId");
    CHECK(record_not_found("co_owners", "c-1", "/id").detail() == "No co-owner with id c-1 in this syndicate.");
    CHECK(record_not_found("co_owners", "c-1", "/id", RecordState::active).detail() ==
          "No active co-owner with id c-1 in this syndicate.");
    CHECK(record_not_found("documents", "d-1", "/id").code() == "DOCUMENT_NOT_FOUND");  // platform.json's
    CHECK(logic_error_of([] { record_not_found("lots", "l-1", "/id"); }) ==
          "no manifest declares the not-found code of the records of lots");
}

TEST_CASE("initialize's instructions: the platform's text and those of the modules served only") {
    const ToolRegistry all(all_tool_handlers());
    const auto text = server_instructions(all);
    CHECK(text.rfind(platform_manifest().instructions, 0) == 0);
    for (const auto& m : module_manifests()) CHECK_MESSAGE(text.find(m.instructions) != std::string::npos, m.id);

    const ToolRegistry units(all_tool_handlers(), {"units"});
    const auto served = server_instructions(units);
    CHECK(served == platform_manifest().instructions + "\nUnits: " + find_module_manifest("units")->instructions);
    CHECK(served.find(find_module_manifest("meetings")->instructions) == std::string::npos);

    // What initialize answers is that text.
    auto db = Database::open(":memory:");
    const SystemClock clock;
    McpServer server(units, [&]() -> Database& { return *db; }, clock, {}, [](const std::string&) {});
    jsonrpc::Dispatcher dispatcher;
    server.attach(dispatcher);
    const auto answer = dispatcher.handle(
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    REQUIRE(answer.has_value());
    CHECK(json::parse(*answer)["result"]["instructions"].get<std::string>() == served);
}

TEST_CASE("the OpenAPI error responses list each code of the manifests under its status") {
    const ToolRegistry registry(all_tool_handlers());
    const auto doc = openapi_document(registry, "http://127.0.0.1:8080/api");
    const auto& responses = doc["components"]["responses"];
    std::set<std::string> listed;
    for (const auto& [name, response] : responses.items())
        for (const auto& code : response["x-error-codes"]) {
            const auto* declared = find_error(code.get<std::string>());
            REQUIRE(declared != nullptr);
            CHECK(response["description"].get<std::string>().find("`" + declared->code + "`: " + declared->description) !=
                  std::string::npos);
            listed.insert(declared->code);
        }
    for (const auto* code : {"UNIT_NOT_FOUND", "DUPLICATE_NEQ", "NOTICE_PERIOD_TOO_SHORT", "INVALID_RBQ_LICENCE", "STORAGE_FULL"})
        CHECK_MESSAGE(listed.count(code), code);
    CHECK_FALSE(listed.count("UNKNOWN_TOOL"));  // a JSON-RPC message, not an HTTP answer
}

TEST_CASE("codes tied to fields come from the schema's x-error-code, whatever the field's name") {
    const json schema = json::parse(R"({"type": "object", "properties": {
        "neq": {"type": "string", "pattern": "^[0-9]{10}$", "maxLength": 10, "x-error-code": "INVALID_NEQ"},
        "rows": {"type": "array", "items": {"type": "object", "properties": {
            "share": {"type": "number", "minimum": 0, "maximum": 100, "x-error-code": "FRACTION_OUT_OF_RANGE"}}}},
        "email": {"type": ["string", "null"]}}})");
    CHECK(field_error_code(schema, "/neq", "12") == "INVALID_NEQ");
    CHECK(field_error_code(schema, "/rows/3/share", 101) == "FRACTION_OUT_OF_RANGE");
    // A value of a type the property does not allow stays VALIDATION_FAILED; so does a field with no code.
    CHECK(field_error_code(schema, "/neq", 12) == std::nullopt);
    CHECK(field_error_code(schema, "/rows/3/share", "x") == std::nullopt);
    CHECK(field_error_code(schema, "/email", "not an address") == std::nullopt);
    CHECK(field_error_codes(schema) == std::vector<std::string>{"INVALID_NEQ", "FRACTION_OUT_OF_RANGE"});

    // The tool schemas carry it where the field is defined, and tools/list does not show it.
    const ToolRegistry registry(all_tool_handlers());
    for (const auto& [tool, args, code] : std::vector<std::tuple<std::string, json, std::string>>{
             {"create_co_owner", {{"firstName", "A"}, {"lastName", "B"}, {"unitId", "u"}, {"email", "nope"}}, "INVALID_EMAIL"},
             {"create_contractor", {{"name", "A"}, {"email", "nope"}}, "INVALID_EMAIL"},
             {"create_unit", {{"number", "1"}, {"type", "residential"}, {"fractionPercent", 120}}, "FRACTION_OUT_OF_RANGE"}}) {
        CAPTURE(tool);
        try {
            registry.check_arguments(tool, args);
            FAIL("accepted");
        } catch (const DomainError& e) {
            CHECK(e.code() == code);
            CHECK(e.detail() == find_error(code)->description);
        }
    }
    CHECK(registry.descriptors().dump().find("x-error-code") == std::string::npos);
    CHECK(registry.schema_document("create_unit").dump().find("x-error-code") != std::string::npos);
}

}

}  // namespace manifests_test
