// tools/arguments.hpp: the one family of argument readers every handler uses. Each read checks its
// key against the tool's input schema (a misspelled key is the program's error, not an absent
// argument), and a refusal names the argument by its JSON Pointer, rows of a bulk call included.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "tools/arguments.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace arguments_test {

using namespace syndic;
using nlohmann::json;

namespace {

const json schema = json::parse(R"({
  "type": "object",
  "properties": {
    "id": {"type": "string"}, "title": {"type": ["string", "null"]}, "count": {"type": "integer"},
    "share": {"type": "number"}, "active": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}},
    "size": {"type": "object", "properties": {"min": {"type": "integer"}, "max": {"type": ["integer", "null"]}}},
    "rows": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}
  },
  "oneOf": [{"properties": {"mode": {"const": "a"}}}, {"properties": {"mode": {"const": "b"}}}]
})");

// The refusal's field and reason when `read` refuses.
std::pair<std::string, std::string> refusal(const std::function<void()>& read) {
    try {
        read();
    } catch (const DomainError& e) {
        return {e.field(), e.code()};
    }
    return {"", ""};
}

}  // namespace

TEST_CASE("each reader gives the argument as given, absent and null as the reader says") {
    const json values = {{"id", "u1"},  {"title", nullptr}, {"count", 3},          {"share", 12.5},
                         {"active", true}, {"tags", {"x", "y"}}, {"size", {{"min", 3}}}};
    const Arguments a(values, &schema);
    CHECK(a.text("id") == "u1");
    CHECK(a.has("title"));
    CHECK_FALSE(a.given("title"));
    CHECK(a.is_null("title"));
    CHECK_FALSE(a.optional_text("title"));
    CHECK(a.patch_text("title") == std::string());  // null clears
    CHECK(a.patch_text("id") == "u1");
    CHECK(a.integer("count") == 3);
    CHECK(a.integer_or("count", 9) == 3);
    CHECK(a.number("share") == 12.5);
    CHECK(a.flag("active", false));
    CHECK(a.texts("tags") == std::vector<std::string>{"x", "y"});
    CHECK(a.object("size").integer("min") == 3);
    CHECK_FALSE(a.object("size").given("max"));
    CHECK(a.value("mode").is_null());  // declared by a oneOf branch, absent

    const json empty = json::object();
    const Arguments none(empty, &schema);
    CHECK_FALSE(none.has("id"));
    CHECK(none.text_or("title", "untitled") == "untitled");
    CHECK(none.integer_or("count", 9) == 9);
    CHECK(none.flag("active", true));
    CHECK_FALSE(none.patch_text("title"));  // absent leaves unchanged
    CHECK(none.texts("tags").empty());
    CHECK(none.rows("rows").empty());
    CHECK_THROWS_AS(none.text("id"), std::logic_error);  // the schema requires what a handler reads as required
}

TEST_CASE("a key the tool's schema does not declare is the program's error") {
    const json values = {{"id", "u1"}};
    const Arguments a(values, &schema);
    CHECK_THROWS_AS(a.has("ID"), std::logic_error);
    CHECK_THROWS_AS(a.optional_text("unitID"), std::logic_error);
    CHECK_THROWS_AS(a.object("size").has("mid"), std::logic_error);
}

TEST_CASE("a refusal names the argument by its JSON Pointer, in rows and nested objects too") {
    const json values = {{"title", "  \t "}, {"rows", {{{"name", "ok"}}, {{"name", " "}}}}};
    const Arguments a(values, &schema);
    CHECK(refusal([&] { a.nonblank("title"); }) == std::pair<std::string, std::string>{"/title", codes::validation_failed});
    CHECK_FALSE(a.optional_nonblank("id"));
    const auto rows = a.rows("rows");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].nonblank("name") == "ok");
    CHECK(rows[1].pointer("name") == "/rows/1/name");
    CHECK(refusal([&] { rows[1].nonblank("name"); }).first == "/rows/1/name");
    CHECK_THROWS_AS(rows[0].has("nme"), std::logic_error);
    CHECK(a.object("size").pointer("min") == "/size/min");
}

TEST_CASE("without a schema that names keys, any key may be read") {
    const json values = {{"anything", "x"}};
    const Arguments free(values, nullptr);
    CHECK(free.text("anything") == "x");
    const json open = {{"type", "object"}};
    CHECK_FALSE(Arguments(values, &open).has("other"));
}

}  // namespace arguments_test
