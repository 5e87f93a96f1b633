// tools/: the pairing of schemas and handlers checked at start-up, the module subset, the shape
// of every descriptor, argument validation and its error codes, scope and role checks before
// validation, and the wire form of errors (JSON-RPC data, HTTP statuses).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "auth/credentials.hpp"
#include "tools/registry.hpp"
#include "tools/wire_error.hpp"

#include "catalogue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace registry_test {

using namespace syndic;
using namespace syndic::test;
using nlohmann::json;

namespace {


const std::vector<std::string> unit_tool_names = {"create_unit", "delete_unit", "get_unit", "list_units", "update_unit"};

// Set by the spy handler when it runs.
bool spy_ran = false;
json spy_handler(const ToolCall&) {
    spy_ran = true;
    return {{"data", json::array()}, {"pagination", {{"page", 1}, {"pageSize", 50}, {"total", 0}, {"totalPages", 0}}}};
}
json empty_handler(const ToolCall&) { return json::object(); }

// The real table with one handler replaced (or left out when `replacement` is null).
ToolTable table_with(const std::string& name, ToolHandler replacement) {
    const ToolTable all = all_tool_handlers();
    ToolTable table;
    for (const auto& [n, h] : all.entries()) {
        if (n != name) table.bind(n, h);
        else if (replacement) table.bind(n, replacement);
    }
    return table;
}

std::string logic_error_of(const ToolTable& table) {
    try {
        ToolRegistry r(table);
    } catch (const std::logic_error& e) {
        return e.what();
    }
    FAIL("expected the registry to refuse this table");
    return "";
}

struct Env {
    std::unique_ptr<Database> db = Database::open(":memory:");
    FixedClock clock{*parse_iso_instant("2026-11-21T15:00:00Z")};
    ToolRegistry registry{all_tool_handlers()};
    std::string syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    CallerContext admin{syndicate, "key-admin", {"*"}, Role::admin};

    DomainError error(const std::string& tool, const json& args, const CallerContext* who = nullptr) {
        try {
            registry.call(tool, args, who ? *who : admin, *db, clock);
        } catch (const DomainError& e) {
            return e;
        }
        FAIL("expected " << tool << " " << args.dump() << " to be refused");
        return DomainError("", "");
    }
};

bool has_error(const DomainError& e, const std::string& field) {
    return std::any_of(e.errors().begin(), e.errors().end(), [&](const FieldError& f) { return f.field == field; });
}

std::string errors_text(const DomainError& e) {
    std::string out;
    for (const auto& f : e.errors()) out += f.field + ": " + f.reason + "; ";
    return out;
}

const DomainError::Figure* figure(const DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key) return &v;
    return nullptr;
}

// Every key anywhere in a JSON document, for checks like "no $ref".
void collect_keys(const json& j, std::set<std::string>& keys) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            keys.insert(it.key());
            collect_keys(it.value(), keys);
        }
    } else if (j.is_array()) {
        for (const auto& v : j) collect_keys(v, keys);
    }
}

}  // namespace

TEST_SUITE("registry") {

// ---------------------------------------------------------------------------------------------
// The start-up check

TEST_CASE("start-up check: every schema has a handler and every handler a schema") {
    SUBCASE("the real table pairs up") {
        ToolRegistry registry(all_tool_handlers());
        // Which tools: the pinned catalogue's test below. Here, each has its descriptor.
        CHECK(registry.descriptors().size() == registry.tools().size());
        CHECK(registry.tools().size() == catalogue().size());
    }
    SUBCASE("a handler bound to a name without a schema") {
        auto table = all_tool_handlers();
        table.bind("list_spaceships", empty_handler);
        const auto what = logic_error_of(table);
        CHECK(what.find("list_spaceships") != std::string::npos);
    }
    SUBCASE("a schema without a handler names the schema") {
        const auto what = logic_error_of(table_with("get_unit", nullptr));
        CHECK(what.find("get_unit") != std::string::npos);
        const auto what2 = logic_error_of(table_with("rebalance_fractions", nullptr));
        CHECK(what2.find("rebalance_fractions") != std::string::npos);
    }
    SUBCASE("a handler bound twice") {
        auto table = all_tool_handlers();
        table.bind("get_unit", empty_handler);
        CHECK_THROWS_AS(ToolRegistry{table}, std::logic_error);
    }
    SUBCASE("an empty table") {
        CHECK_THROWS_AS(ToolRegistry{ToolTable{}}, std::logic_error);
    }
}

TEST_CASE("a module subset offers only that module's tools") {
    ToolRegistry units(all_tool_handlers(), {"units"});
    std::vector<std::string> names;
    for (const auto& d : units.descriptors()) names.push_back(d["name"]);
    std::sort(names.begin(), names.end());
    CHECK(names == unit_tool_names);
    CHECK(units.tools().size() == 5);
    for (const auto& t : units.tools()) CHECK(t.module == "units");
    CHECK(units.offers("list_units"));
    CHECK_FALSE(units.offers("list_co_owners"));
    CHECK_FALSE(units.offers("get_fraction_sum"));

    // Calling a tool the subset leaves out is like calling an unknown one.
    Env env;
    CHECK_THROWS_AS(units.call("list_co_owners", json::object(), env.admin, *env.db, env.clock), std::out_of_range);
    CHECK_NOTHROW(units.call("list_units", json::object(), env.admin, *env.db, env.clock));

    SUBCASE("two modules") {
        ToolRegistry two(all_tool_handlers(), {"units", "declaration"});
        CHECK(two.descriptors().size() == 14);
        CHECK(two.offers("rebalance_fractions"));
        CHECK_FALSE(two.offers("create_co_owner"));
    }
    SUBCASE("the catalogue still knows every module") {
        auto modules = units.all_modules();
        std::sort(modules.begin(), modules.end());
        CHECK(modules == catalogue_modules());
    }
    SUBCASE("an unknown module name is refused") {
        CHECK_THROWS_AS(ToolRegistry(all_tool_handlers(), {"spaceships"}), std::invalid_argument);
        CHECK_THROWS_AS(ToolRegistry(all_tool_handlers(), {"units", "Units"}), std::invalid_argument);
        CHECK_THROWS_AS(ToolRegistry(all_tool_handlers(), {"co_owners"}), std::invalid_argument);
    }
    SUBCASE("no modules means all") {
        ToolRegistry all(all_tool_handlers(), {});
        CHECK(all.descriptors().size() == catalogue().size());
    }
}

TEST_CASE("unknown tools throw std::out_of_range") {
    Env env;
    CHECK_THROWS_AS(env.registry.call("no_such_tool", json::object(), env.admin, *env.db, env.clock), std::out_of_range);
    CHECK_THROWS_AS(env.registry.check_arguments("no_such_tool", json::object()), std::out_of_range);
    CHECK_FALSE(env.registry.offers("no_such_tool"));
}

// ---------------------------------------------------------------------------------------------
// Descriptors

TEST_CASE("every descriptor is what hosts accept") {
    ToolRegistry registry(all_tool_handlers());
    static const std::regex name_rule("^[a-z0-9_]{1,64}$");
    const auto infos = registry.tools();
    REQUIRE(infos.size() == registry.descriptors().size());
    std::size_t i = 0;
    for (const auto& d : registry.descriptors()) {
        const std::string name = d.value("name", "");
        CAPTURE(name);
        CHECK(std::regex_match(name, name_rule));
        CHECK(infos[i++].name == name);  // tools() and descriptors() are in the same order

        // Exactly the keys tools/list serves.
        std::set<std::string> keys;
        for (auto it = d.begin(); it != d.end(); ++it) keys.insert(it.key());
        CHECK(keys == std::set<std::string>{"name", "title", "description", "inputSchema", "outputSchema", "annotations"});
        CHECK_FALSE(d["title"].get<std::string>().empty());
        CHECK(d["description"].get<std::string>().size() > 20);

        const auto& input = d["inputSchema"];
        REQUIRE(input.is_object());
        CHECK(input["type"] == "object");
        CHECK(input["properties"].is_object());
        for (const char* banned : {"oneOf", "anyOf", "allOf", "$ref"}) CHECK_MESSAGE(!input.contains(banned), banned);
        std::set<std::string> all_keys;
        collect_keys(input, all_keys);
        collect_keys(d["outputSchema"], all_keys);
        CHECK_MESSAGE(all_keys.count("$ref") == 0, "no $ref anywhere");
        CHECK_MESSAGE(all_keys.count("$embed") == 0, "shared records are resolved before serving");
        // Properties are inline objects.
        for (auto it = input["properties"].begin(); it != input["properties"].end(); ++it)
            CHECK_MESSAGE(it.value().is_object(), it.key());

        CHECK(d["outputSchema"]["type"] == "object");

        const auto& a = d["annotations"];
        for (const char* hint : {"readOnlyHint", "destructiveHint", "idempotentHint"}) {
            REQUIRE_MESSAGE(a.contains(hint), hint);
            CHECK_MESSAGE(a[hint].is_boolean(), hint);
        }
        // The hints agree with what the tool does.
        const bool reader = name.rfind("list_", 0) == 0 || name.rfind("get_", 0) == 0 || name == "calculate_quorum";
        CHECK(a["readOnlyHint"] == reader);
        if (name.rfind("delete_", 0) == 0) CHECK(a["destructiveHint"] == true);
        if (reader) CHECK(a["destructiveHint"] == false);
    }
}

TEST_CASE("scopes: read tools need read:, write tools write:") {
    ToolRegistry registry(all_tool_handlers());
    const auto scopes = registry.all_scopes();
    for (const char* s : {"read:co-owners", "write:co-owners", "write:declaration"})
        CHECK_MESSAGE(std::find(scopes.begin(), scopes.end(), s) != scopes.end(), s);
    for (const auto& t : registry.tools()) {
        CAPTURE(t.name);
        CHECK_FALSE(t.required_scope.empty());
        CHECK(std::find(scopes.begin(), scopes.end(), t.required_scope) != scopes.end());
        if (t.read_only) CHECK(t.required_scope.rfind("read:", 0) == 0);
        else CHECK(t.required_scope.rfind("write:", 0) == 0);
        if (t.module == "units") CHECK(t.required_scope.find(":co-owners") != std::string::npos);
    }
    for (const auto& t : registry.tools()) {
        if (t.name == "get_fraction_sum") CHECK(t.required_scope == "read:co-owners");
        if (t.name == "rebalance_fractions") CHECK(t.required_scope == "write:declaration");
        if (t.name == "delete_co_owner") CHECK(t.admin_only);
        if (t.name == "list_co_owners") CHECK_FALSE(t.admin_only);
    }
}

// ---------------------------------------------------------------------------------------------
// Validation

TEST_CASE("validation: VALIDATION_FAILED lists JSON Pointers") {
    Env env;
    SUBCASE("wrong type") {
        const auto e = env.error("list_units", {{"pageSize", "ten"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/pageSize");
        REQUIRE(e.errors().size() == 1);
        CHECK(e.errors()[0].field == "/pageSize");
        CHECK_FALSE(e.errors()[0].reason.empty());
        CHECK(e.detail().find("/pageSize") != std::string::npos);
    }
    SUBCASE("missing required") {
        const auto e = env.error("create_unit", {{"number", "101"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK_MESSAGE(has_error(e, "/type"), errors_text(e));
        CHECK(e.field() == "/type");
        const auto e2 = env.error("get_unit", json::object());
        CHECK(e2.code() == "VALIDATION_FAILED");
        CHECK_MESSAGE(has_error(e2, "/id"), errors_text(e2));
    }
    SUBCASE("unknown property") {
        const auto e = env.error("list_units", {{"colour", "red"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK_MESSAGE(has_error(e, "/colour"), errors_text(e));
    }
    SUBCASE("out of range, too long, not in the enum") {
        CHECK(has_error(env.error("list_units", {{"pageSize", 0}}), "/pageSize"));
        CHECK(has_error(env.error("list_units", {{"pageSize", 201}}), "/pageSize"));
        CHECK(has_error(env.error("list_units", {{"type", "castle"}}), "/type"));
        CHECK(has_error(env.error("create_unit", {{"number", std::string(51, '1')}, {"type", "apartment"}}), "/number"));
        CHECK(has_error(env.error("create_unit", {{"number", "   "}, {"type", "apartment"}}), "/number"));
    }
    SUBCASE("an array item") {
        const auto e = env.error("create_unit", {{"number", "P-1"}, {"type", "parking"}, {"linkedUnits", {"ok", 5}}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK_MESSAGE(has_error(e, "/linkedUnits/1"), errors_text(e));
    }
    SUBCASE("several faults are all listed") {
        const auto e = env.error("list_units", {{"pageSize", "ten"}, {"colour", "red"}, {"page", 0}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK_MESSAGE(has_error(e, "/pageSize"), errors_text(e));
        CHECK_MESSAGE(has_error(e, "/colour"), errors_text(e));
        CHECK_MESSAGE(has_error(e, "/page"), errors_text(e));
    }
    SUBCASE("arguments that are not an object") {
        const auto e = env.error("list_units", json::array());
        CHECK(e.code() == "VALIDATION_FAILED");
    }
    SUBCASE("valid arguments pass") {
        CHECK_NOTHROW(env.registry.check_arguments("list_units", {{"pageSize", 10}, {"type", "parking"}}));
        CHECK_NOTHROW(env.registry.check_arguments("list_units", json::object()));
    }
}

TEST_CASE("validation: a property name with a control character is shown escaped, never raw") {
    Env env;
    const auto e = env.error("list_units", {{std::string("fl\0or", 5), 1}});
    CHECK(e.code() == "VALIDATION_FAILED");
    CHECK(e.field() == "/fl\\u0000or");
    CHECK(e.detail().find('\0') == std::string::npos);
}

TEST_CASE("validation: the fields with codes of their own") {
    Env env;
    const auto unit = env.registry.call("create_unit", {{"number", "101"}, {"type", "apartment"}}, env.admin, *env.db,
                                        env.clock);
    const json person = {{"unitId", unit["id"]}, {"firstName", "Émilie"}, {"lastName", "Bélanger"}};
    SUBCASE("INVALID_EMAIL") {
        for (const char* bad : {"not-an-email", "a@b", "two@@example.com", "spaces in@example.com"}) {
            CAPTURE(bad);
            auto args = person;
            args["email"] = bad;
            const auto e = env.error("create_co_owner", args);
            CHECK(e.code() == "INVALID_EMAIL");
            CHECK(e.field() == "/email");
            CHECK(has_error(e, "/email"));
        }
        auto ok = person;
        ok["email"] = "emilie.belanger@example.ca";
        CHECK_NOTHROW(env.registry.check_arguments("create_co_owner", ok));
    }
    SUBCASE("an e-mail of the wrong type is a plain schema failure") {
        auto args = person;
        args["email"] = 42;
        CHECK(env.error("create_co_owner", args).code() == "VALIDATION_FAILED");
    }
    SUBCASE("FRACTION_OUT_OF_RANGE") {
        for (double bad : {100.000001, 150.0, -0.5}) {
            CAPTURE(bad);
            const auto e = env.error("create_unit", {{"number", "102"}, {"type", "apartment"}, {"fractionPercent", bad}});
            CHECK(e.code() == "FRACTION_OUT_OF_RANGE");
            CHECK(e.field() == "/fractionPercent");
            auto args = person;
            args["fractionPercent"] = bad;
            const auto e2 = env.error("create_co_owner", args);
            CHECK(e2.code() == "FRACTION_OUT_OF_RANGE");
            CHECK(e2.field() == "/fractionPercent");
        }
        CHECK_NOTHROW(env.registry.check_arguments("create_unit", {{"number", "102"}, {"type", "apartment"}, {"fractionPercent", 100}}));
        CHECK_NOTHROW(env.registry.check_arguments("create_unit", {{"number", "102"}, {"type", "apartment"}, {"fractionPercent", 0}}));
    }
    SUBCASE("a fraction of the wrong type is a plain schema failure") {
        const auto e = env.error("create_unit", {{"number", "102"}, {"type", "apartment"}, {"fractionPercent", "12"}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/fractionPercent");
    }
}

TEST_CASE("the handler runs only for an allowed caller with valid arguments") {
    ToolRegistry registry(table_with("list_units", spy_handler));
    Env env;
    CallerContext writer{env.syndicate, "k", {"write:co-owners"}, Role::admin};
    spy_ran = false;
    CHECK_THROWS_AS(registry.call("list_units", {{"pageSize", "ten"}}, env.admin, *env.db, env.clock), DomainError);
    CHECK_FALSE(spy_ran);
    CHECK_THROWS_AS(registry.call("list_units", json::object(), writer, *env.db, env.clock), DomainError);
    CHECK_FALSE(spy_ran);
    registry.call("list_units", json::object(), env.admin, *env.db, env.clock);
    CHECK(spy_ran);
}

TEST_CASE("scope and role checks come before validation") {
    Env env;
    CallerContext reader{env.syndicate, "k", {"read:co-owners"}, Role::admin};
    CallerContext no_scopes{env.syndicate, "k", {}, Role::admin};
    CallerContext member{env.syndicate, "k", {"*"}, Role::member};

    SUBCASE("INSUFFICIENT_SCOPE with requiredScope, even for invalid arguments") {
        const auto e = env.error("create_unit", {{"bogus", true}}, &reader);
        CHECK(e.code() == "INSUFFICIENT_SCOPE");
        const auto* scope = figure(e, "requiredScope");
        REQUIRE(scope != nullptr);
        REQUIRE(std::holds_alternative<std::string>(*scope));
        CHECK(std::get<std::string>(*scope) == "write:co-owners");
        CHECK(error_data(e)["requiredScope"] == "write:co-owners");

        const auto e2 = env.error("list_units", {{"pageSize", "ten"}}, &no_scopes);
        CHECK(e2.code() == "INSUFFICIENT_SCOPE");
        CHECK(error_data(e2)["requiredScope"] == "read:co-owners");

        const auto e3 = env.error("rebalance_fractions", {{"dryRun", "yes"}}, &reader);
        CHECK(e3.code() == "INSUFFICIENT_SCOPE");
        CHECK(error_data(e3)["requiredScope"] == "write:declaration");

        const auto e4 = env.error("get_fraction_sum", json::object(), &no_scopes);
        CHECK(error_data(e4)["requiredScope"] == "read:co-owners");
    }
    SUBCASE("ADMIN_REQUIRED, even for invalid arguments") {
        const auto e = env.error("delete_co_owner", json::object(), &member);
        CHECK(e.code() == "ADMIN_REQUIRED");
        const auto e2 = env.error("delete_co_owner", {{"id", "x"}}, &member);
        CHECK(e2.code() == "ADMIN_REQUIRED");
    }
    SUBCASE("the read scope is enough to read") {
        CHECK_NOTHROW(env.registry.call("list_units", json::object(), reader, *env.db, env.clock));
        CHECK_NOTHROW(env.registry.call("get_fraction_sum", json::object(), reader, *env.db, env.clock));
    }
}

TEST_CASE("outputs are checked against the outputSchema when asked") {
    ToolRegistry registry(table_with("get_fraction_sum", empty_handler));
    Env env;
    CHECK_NOTHROW(registry.call("get_fraction_sum", json::object(), env.admin, *env.db, env.clock));
    registry.set_check_outputs(true);
    CHECK_THROWS_AS(registry.call("get_fraction_sum", json::object(), env.admin, *env.db, env.clock), std::logic_error);
    // The real handler's result fits.
    env.registry.set_check_outputs(true);
    CHECK_NOTHROW(env.registry.call("get_fraction_sum", json::object(), env.admin, *env.db, env.clock));
}

// ---------------------------------------------------------------------------------------------
// Wire form

TEST_CASE("error_data carries detail, field, figures and errors") {
    auto e = DomainError("FRACTION_SUM_OUT_OF_RANGE", "The sum would be 105%.")
                 .at("/fractionPercent")
                 .with("currentSum", std::int64_t{100})
                 .with("resultingSum", 104.5)
                 .with("requiredScope", std::string("write:co-owners"))
                 .with("balanced", false)
                 .with_errors({{"/a", "is required"}, {"/b/0", "must be a string"}});
    const auto data = error_data(e);
    CHECK(data["detail"] == "The sum would be 105%.");
    CHECK(data["field"] == "/fractionPercent");
    CHECK(data["currentSum"] == 100);
    CHECK(data["currentSum"].is_number_integer());
    CHECK(data["resultingSum"] == 104.5);
    CHECK(data["requiredScope"] == "write:co-owners");
    CHECK(data["balanced"] == false);
    CHECK(data["errors"] == json::array({{{"field", "/a"}, {"reason", "is required"}},
                                         {{"field", "/b/0"}, {"reason", "must be a string"}}}));

    SUBCASE("only detail when nothing else applies") {
        const auto plain = error_data(DomainError("UNIT_NOT_FOUND", "No unit with id x."));
        CHECK(plain == json{{"detail", "No unit with id x."}});
    }
    SUBCASE("a real validation failure in wire form") {
        Env env;
        const auto v = env.error("list_units", {{"pageSize", "ten"}});
        const auto d = error_data(v);
        CHECK(d["field"] == "/pageSize");
        CHECK(d["detail"].is_string());
        REQUIRE(d["errors"].is_array());
        CHECK(d["errors"][0]["field"] == "/pageSize");
        CHECK(d["errors"][0]["reason"].is_string());
    }
}

TEST_CASE("http_status maps each code to its REST status") {
    CHECK(http_status("NOT_AUTHENTICATED") == 401);
    CHECK(http_status("INSUFFICIENT_SCOPE") == 403);
    CHECK(http_status("ADMIN_REQUIRED") == 403);
    for (const char* c : {"UNIT_NOT_FOUND", "CO_OWNER_NOT_FOUND", "MEETING_NOT_FOUND", "RESOLUTION_NOT_FOUND"})
        CHECK_MESSAGE(http_status(c) == 404, c);
    for (const char* c : {"DUPLICATE_PRIMARY", "DUPLICATE_UNIT_NUMBER", "LINK_CONFLICT", "UNIT_IN_USE",
                          "INVALID_STATUS_TRANSITION"})
        CHECK_MESSAGE(http_status(c) == 409, c);
    for (const char* c : {"FRACTION_SUM_OUT_OF_RANGE", "BULK_LIMIT_EXCEEDED", "NOTICE_PERIOD_TOO_SHORT"})
        CHECK_MESSAGE(http_status(c) == 422, c);
    for (const char* c : {"VALIDATION_FAILED", "INVALID_EMAIL", "FRACTION_OUT_OF_RANGE"})
        CHECK_MESSAGE(http_status(c) == 400, c);
    CHECK(http_status("RATE_LIMITED") == 429);
}

}

TEST_SUITE("registry") {

// Found by review: inputs that once crashed the process or slipped past the rules.
TEST_CASE("hostile arguments are refused with a code, never a crash") {
    Env env;
    const auto unit = env.registry.call("create_unit", {{"number", "1"}, {"type", "apartment"}}, env.admin, *env.db, env.clock);
    const json person = {{"firstName", "Paul"}, {"lastName", "Gauthier"}, {"unitId", unit["id"]}};
    auto with = [&](json extra) {
        json args = person;
        args.update(extra);
        return args;
    };
    SUBCASE("an e-mail that is an array or an object is VALIDATION_FAILED") {
        CHECK(env.error("create_co_owner", with({{"email", json::array({"a@b.ca", "c@d.ca"})}})).code() == "VALIDATION_FAILED");
        CHECK(env.error("create_co_owner", with({{"email", {{"a", 1}}}})).code() == "VALIDATION_FAILED");
    }
    SUBCASE("a 40,000-character e-mail is INVALID_EMAIL (its length is checked before its pattern)") {
        const auto e = env.error("create_co_owner", with({{"email", std::string(40000, 'a')}}));
        CHECK(e.code() == "INVALID_EMAIL");
        CHECK(e.field() == "/email");
    }
    SUBCASE("a 40,000-character name is VALIDATION_FAILED at its field") {
        const auto e = env.error("create_co_owner", with({{"lastName", std::string(40000, ' ')}}));
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/lastName");
    }
    SUBCASE("integers beyond 64 bits do not wrap around") {
        const auto e = env.error("create_unit", {{"number", "X"}, {"type", "storage"}, {"floor", 18446744073709551615ULL}});
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/floor");
    }
    SUBCASE("a page far beyond any register is refused instead of overflowing") {
        CHECK(env.error("list_units", {{"page", 9223372036854775807LL}}).code() == "VALIDATION_FAILED");
        CHECK(env.error("list_co_owners", {{"page", 1000001}}).code() == "VALIDATION_FAILED");
        CHECK(env.registry.call("list_units", {{"page", 1000000}}, env.admin, *env.db, env.clock)["data"].empty());
    }
    SUBCASE("names and searches made only of Unicode spaces are blank") {
        const auto nbsp = env.error("create_co_owner", with({{"firstName", "\xC2\xA0\xC2\xA0"}}));
        CHECK(nbsp.code() == "VALIDATION_FAILED");
        CHECK(nbsp.field() == "/firstName");
        CHECK(env.error("create_unit", {{"number", "\xE2\x80\x83"}, {"type", "storage"}}).code() == "VALIDATION_FAILED");
        CHECK(env.error("list_co_owners", {{"search", "\xE3\x80\x80"}}).code() == "VALIDATION_FAILED");
    }
    SUBCASE("a NUL character (U+0000) in any string is VALIDATION_FAILED at its field, and nothing is stored") {
        const auto e = env.error("create_co_owner", with({{"firstName", std::string("Pa\0ul", 5)}}));
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/firstName");
        CHECK(env.error("list_co_owners", {{"search", std::string("a\0", 2)}}).field() == "/search");
        CHECK(env.error("create_unit", {{"number", std::string(1, '\0')}, {"type", "storage"}}).field() == "/number");
        CHECK(env.registry.call("list_co_owners", json::object(), env.admin, *env.db, env.clock)["pagination"]["total"] == 0);
    }
    SUBCASE("a search for a sign that folds to nothing matches nothing") {
        env.registry.call("create_co_owner", person, env.admin, *env.db, env.clock);
        const auto found = env.registry.call("list_co_owners", {{"search", "\xC3\x97"}}, env.admin, *env.db, env.clock);
        CHECK(found["pagination"]["total"] == 0);
    }
}

}

TEST_SUITE("registry") {

TEST_CASE("an integral number written with a decimal point is an integer, as JSON Schema says") {
    Env env;
    const auto unit = env.registry.call("create_unit", {{"number", "2"}, {"type", "apartment"}, {"floor", 2.0}, {"bedrooms", 3.0}},
                                        env.admin, *env.db, env.clock);
    CHECK(unit["floor"] == 2);
    CHECK(unit["bedrooms"] == 3);
    const auto page = env.registry.call("list_units", {{"page", 1.0}, {"pageSize", 10.0}}, env.admin, *env.db, env.clock);
    CHECK(page["pagination"]["pageSize"] == 10);
    CHECK(env.error("list_units", {{"pageSize", 10.5}}).code() == "VALIDATION_FAILED");
}

}

// The contract pinned in one place: a tool renamed, moved to another module, re-scoped, made
// admin-only or re-routed by accident fails here. On purpose (a new module, a changed tool):
// python3 tests/update_catalogue.py build/syndic-mcp, then read the diff of the module's
// tests/unit/<module>/catalogue.json.
TEST_CASE("the registry matches the pinned catalogue, each module's tests/unit/<module>/catalogue.json") {
    const auto pinned = pinned_catalogue();
    const auto& offered = catalogue();
    auto shown = [](const CatalogueTool& t) {
        return t.name + " " + t.module + " " + t.scope + (t.admin_only ? " (admin) " : " ") + t.method + " " + t.path +
               (t.created ? " 201" : "");
    };
    std::set<std::string> expected, actual;
    for (const auto& t : pinned) expected.insert(shown(t));
    for (const auto& t : offered) actual.insert(shown(t));
    for (const auto& line : actual)
        CHECK_MESSAGE(expected.count(line) == 1, "not in its module's tests/unit/<module>/catalogue.json: " << line
                                                 << " (run python3 tests/update_catalogue.py build/syndic-mcp if meant)");
    for (const auto& line : expected) CHECK_MESSAGE(actual.count(line) == 1, "pinned in a tests/unit/<module>/catalogue.json, not offered: " << line);
    CHECK(catalogue_names().size() == pinned.size());
}

}  // namespace registry_test
