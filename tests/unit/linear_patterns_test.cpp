// The schemas' patterns run by RE2 (tools/linear_patterns): they accept and refuse what
// ECMAScript's std::regex did, a failure reads as valijson's own (the same field, reason and
// code through the registry), no pattern backtracks, and a pattern RE2 would read otherwise is
// refused when the tools register.
#include "fixture.hpp"

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/linear_patterns.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace linear_patterns_test {

using namespace syndic;
using namespace syndic::test;
using nlohmann::json;

namespace {

// Validates `value` against `schema` as the registry does: patterns renamed, RE2 taught.
std::vector<valijson::ValidationResults::Error> failures(const json& schema, const json& value) {
    valijson::Schema compiled;
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    add_linear_patterns(parser);
    const json linear = with_linear_patterns(schema);
    valijson::adapters::NlohmannJsonAdapter schema_adapter(linear);
    parser.populateSchema(schema_adapter, compiled);
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter value_adapter(value);
    validator.validate(compiled, value_adapter, &results);
    std::vector<valijson::ValidationResults::Error> out;
    valijson::ValidationResults::Error e;
    while (results.popError(e)) out.push_back(e);
    return out;
}

bool matches(const std::string& pattern, const std::string& text) {
    return failures(json{{"type", "string"}, {"pattern", pattern}}, text).empty();
}

}  // namespace

TEST_SUITE("linear patterns") {

TEST_CASE("the schemas' patterns accept and refuse what std::regex did") {
    const std::vector<std::string> patterns = {"\\S", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "^[^@\\s]+@[^@\\s.]+(\\.[^@\\s.]+)+$",
                                               "^a.c$", "^[\\s]*x"};
    const std::vector<std::string> texts = {
        "", " ", "   ", "\t", "\n", "\v", "\f", "\r", "\r\n", "\xc2\xa0", "x", " x ", "Émilie", "été",
        "2026-11-21", "2026-11-21\n", "2026-1-21", "x2026-11-21", "12026-11-21", "２０２６-11-21",
        "marie@example.ca", "m.tremblay@mail.example.qc.ca", "marie@", "@example.ca", "marie@example",
        "marie tremblay@example.ca", "marie@@example.ca", "marie@exa mple.ca", "marie@example.ca\n", "marie\v@example.ca",
        "marie@example..ca", "marie@.example.ca", "élise@exemple.qc.ca", "abc", "a\nc", "a\rc", "a\vc", "aéc", "a.c",
        " \t\vx", "y"};
    for (const auto& pattern : patterns) {
        const std::regex ecmascript(pattern);
        for (const auto& text : texts) {
            CAPTURE(pattern);
            CAPTURE(text);
            CHECK(matches(pattern, text) == std::regex_search(text, ecmascript));
        }
    }
}

TEST_CASE("a pattern failure is valijson's own: the field's path and its message") {
    const json schema = {{"type", "object"},
                         {"properties",
                          {{"rows", {{"type", "array"}, {"items", {{"type", "object"}, {"properties", {{"email", {{"type", "string"}, {"pattern", "^[^@\\s]+@[^@\\s.]+(\\.[^@\\s.]+)+$"}}}}}}}}},
                           {"pattern", {{"type", "string"}}}}}};  // a property named "pattern" stays one
    const auto errors = failures(schema, {{"rows", {{{"email", "a@b.ca"}}, {{"email", "nope"}}}}, {"pattern", "free text"}});
    std::vector<std::string> seen;
    for (const auto& e : errors) {
        if (e.description != "Failed to match regex specified by 'pattern' constraint.") continue;
        std::string path;
        for (const auto& part : e.context) path += part;
        seen.push_back(path);
    }
    CHECK(seen == std::vector<std::string>{"<root>[rows][1][email]"});
    CHECK(with_linear_patterns(schema)["properties"].contains("pattern"));
    CHECK(with_linear_patterns(schema)["properties"]["rows"]["items"]["properties"]["email"].contains(linear_pattern_keyword));
    CHECK_FALSE(with_linear_patterns(schema)["properties"]["rows"]["items"]["properties"]["email"].contains("pattern"));
    // A value that is not a string is left to "type", as valijson's pattern does.
    CHECK(failures({{"pattern", "x"}}, 42).empty());
}

TEST_CASE("no pattern backtracks: a nested repetition fails in one pass") {
    // std::regex would try about 2^40 ways to split these a's before refusing.
    CHECK_FALSE(matches("^(a+)+$", std::string(40, 'a') + "!"));
    CHECK(matches("^(a+)+$", std::string(40, 'a')));
    CHECK_FALSE(matches("^(\\S+\\s?)+$", std::string(5000, 'x') + " \t"));
}

TEST_CASE("a pattern RE2 would read otherwise is refused when the tools register") {
    CHECK_NOTHROW(check_linear_pattern("^[^@\\s]+@[^@\\s.]+(\\.[^@\\s.]+)+$", "here"));
    for (const char* refused : {"(a)\\1", "(?=a)b", "(?<!a)b", "[^\\S]", "[]", "[^]", "\\u00e9", "(unclosed"}) {
        CAPTURE(refused);
        CHECK_THROWS_AS(check_linear_pattern(refused, "schemas/x.json"), std::logic_error);
    }
}

TEST_CASE("through the registry, a pattern failure names the field and its code") {
    Fixture fx;
    const auto unit = fx.unit("101", 50);
    const json person = {{"unitId", unit["id"]}, {"firstName", "Marie"}, {"lastName", "Tremblay"}};
    SUBCASE("an e-mail's pattern: INVALID_EMAIL at /email") {
        auto args = person;
        args["email"] = "marie tremblay@example.ca";
        const auto e = fx.error("create_co_owner", args);
        CHECK(e.code() == "INVALID_EMAIL");
        CHECK(e.field() == "/email");
        REQUIRE(e.errors().size() == 1);
        CHECK(e.errors()[0].field == "/email");
        CHECK(e.errors()[0].reason == "does not have the expected format");
    }
    SUBCASE("a blank name: VALIDATION_FAILED at /lastName") {
        auto args = person;
        args["lastName"] = "   ";
        const auto e = fx.error("create_co_owner", args);
        CHECK(e.code() == "VALIDATION_FAILED");
        CHECK(e.field() == "/lastName");
        REQUIRE(e.errors().size() == 1);
        CHECK(e.errors()[0].reason == "does not have the expected format");
        CHECK(e.detail() == "The arguments do not match the tool's input schema: /lastName: does not have the expected format.");
    }
    SUBCASE("in a bulk, each row's failure names its row") {
        auto bad = person;
        bad["email"] = "nope";
        const auto r = fx.call("bulk_create_co_owners", {{"coOwners", {person, bad}}});
        REQUIRE(r["errors"].size() == 1);
        CHECK(r["errors"][0]["index"] == 1);
        CHECK(r["errors"][0]["code"].get<std::string>() == "INVALID_EMAIL");
        CHECK(r["errors"][0]["field"].get<std::string>() == "/coOwners/1/email");
    }
}

}  // TEST_SUITE

}  // namespace linear_patterns_test
