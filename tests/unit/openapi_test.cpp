// http/: the OpenAPI 3.1 document a REST client reads. Every offered tool once at its route, the
// interface's REST table (4.2) exactly, path parameters required and out of the body, query
// parameters typed, 201 on creates, the shared error responses, servers and paths for any base
// URL, the module subset, and the same bytes for the same input.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "http/openapi.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "tools/registry.hpp"
#include "tools/wire_error.hpp"

#include "catalogue.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace openapi_test {

using namespace syndic;
using namespace syndic::test;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

const std::string default_base = "http://127.0.0.1:8080/api";
const std::set<std::string> http_methods = {"get", "post", "put", "patch", "delete"};

ojson document(const std::string& base = default_base, const std::vector<std::string>& modules = {}) {
    const ToolRegistry registry(all_tool_handlers(), modules);
    return openapi_document(registry, base);
}

std::string upper(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

std::string lower(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// operationId -> "METHOD /path", failing on an operationId seen twice.
std::map<std::string, std::string> operations(const ojson& doc) {
    std::map<std::string, std::string> out;
    for (const auto& [path, item] : doc["paths"].items())
        for (const auto& [method, op] : item.items()) {
            REQUIRE(http_methods.count(method));
            const std::string id = op["operationId"];
            CHECK_MESSAGE(!out.count(id), "operationId twice: " << id);
            out[id] = upper(method) + " " + path;
        }
    return out;
}

const ojson& operation(const ojson& doc, const std::string& method, const std::string& path) {
    REQUIRE_MESSAGE(doc["paths"].contains(path), path);
    REQUIRE_MESSAGE(doc["paths"][path].contains(method), method << " " << path);
    return doc["paths"][path][method];
}

const ojson* parameter(const ojson& op, const std::string& name) {
    if (!op.contains("parameters")) return nullptr;
    for (const auto& p : op["parameters"])
        if (p["name"] == name) return &p;
    return nullptr;
}

std::vector<std::string> response_codes(const ojson& op) {
    std::vector<std::string> out;
    for (const auto& [code, response] : op["responses"].items()) out.push_back(code);
    return out;
}

}  // namespace

TEST_SUITE("openapi") {

TEST_CASE("an OpenAPI 3.1.0 document named syndic-mcp, with the server's version") {
    const auto doc = document();
    CHECK(doc["openapi"] == "3.1.0");
    CHECK(doc["info"]["title"] == "syndic-mcp");
    CHECK(doc["info"]["version"] == server_version());
    CHECK(doc["info"]["description"].get<std::string>().find("query string") != std::string::npos);
}

TEST_CASE("every offered tool is one operation, at its route, with its method") {
    const ToolRegistry registry(all_tool_handlers());
    const auto doc = openapi_document(registry, default_base);
    auto ops = operations(doc);
    CHECK(ops.at("postMcp") == "POST /api/mcp");
    CHECK(ops.at("getOpenApi") == "GET /api/openapi.json");
    ops.erase("postMcp");
    ops.erase("getOpenApi");
    CHECK(ops.size() == registry.tools().size());
    for (const auto& tool : registry.tools()) {
        CAPTURE(tool.name);
        REQUIRE(ops.count(tool.name));
        CHECK(ops[tool.name] == tool.http.method + " /api" + tool.http.path);
        const auto& op = operation(doc, lower(tool.http.method), "/api" + tool.http.path);
        CHECK(op["summary"] == tool.title);
        CHECK(op["tags"] == ojson::array({tool.module}));
        const std::string description = op["description"];
        CHECK(description.rfind(registry.schema_document(tool.name)["description"].get<std::string>(), 0) == 0);
        CHECK(description.find("`" + tool.required_scope + "`") != std::string::npos);
    }
}

TEST_CASE("the interface's REST table (4.2) is there exactly") {
    const auto doc = document();
    const std::vector<std::vector<std::string>> table = {
        {"get", "/api/co-owners", "list_co_owners", "read:co-owners"},
        {"post", "/api/co-owners", "create_co_owner", "write:co-owners"},
        {"patch", "/api/co-owners/{id}", "update_co_owner", "write:co-owners"},
        {"delete", "/api/co-owners/{id}", "delete_co_owner", "write:co-owners"},
        {"get", "/api/units", "list_units", "read:co-owners"},
        {"post", "/api/units", "create_unit", "write:co-owners"},
        {"patch", "/api/units/{id}", "update_unit", "write:co-owners"},
        {"delete", "/api/units/{id}", "delete_unit", "write:co-owners"},
        {"get", "/api/meetings", "list_meetings", "read:meetings"},
        {"post", "/api/meetings", "create_meeting", "write:meetings"},
        {"patch", "/api/meetings/{id}", "update_meeting", "write:meetings"},
        {"post", "/api/meetings/{meetingId}/resolutions", "add_resolution", "write:meetings"},
        {"get", "/api/declaration/fraction-sum", "get_fraction_sum", "read:co-owners"},
    };
    for (const auto& row : table) {
        CAPTURE(row[2]);
        const auto& op = operation(doc, row[0], row[1]);
        CHECK(op["operationId"] == row[2]);
        CHECK(op["x-required-scope"] == row[3]);
    }
    // Nothing else answers on the interface's collection paths.
    CHECK(doc["paths"]["/api/co-owners"].size() == 2);
    CHECK(doc["paths"]["/api/units"].size() == 2);
    CHECK(doc["paths"]["/api/meetings"].size() == 2);
    CHECK(doc["paths"]["/api/declaration/fraction-sum"].size() == 1);
}

TEST_CASE("path parameters are required strings and never in the body") {
    const auto doc = document();
    for (const auto& [path, item] : doc["paths"].items())
        for (const auto& [method, op] : item.items()) {
            CAPTURE(method + " " + path);
            for (auto open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1)) {
                const auto name = path.substr(open + 1, path.find('}', open) - open - 1);
                const auto* p = parameter(op, name);
                REQUIRE_MESSAGE(p, name);
                CHECK((*p)["in"] == "path");
                CHECK((*p)["required"] == true);
                CHECK(((*p)["schema"]["type"] == "string" || (*p)["schema"]["type"] == "integer"));  // an id, or a fiscal year
                if (op.contains("requestBody")) {
                    const auto& body = op["requestBody"]["content"]["application/json"]["schema"];
                    CHECK_FALSE(body["properties"].contains(name));
                    if (body.contains("required"))
                        for (const auto& r : body["required"]) CHECK(r != name);
                }
            }
        }

    const auto& update = operation(doc, "patch", "/api/co-owners/{id}");
    const auto& update_body = update["requestBody"];
    CHECK(update_body["required"] == false);  // every field is optional in an update
    CHECK(update_body["content"]["application/json"]["schema"]["properties"].contains("firstName"));
    CHECK(update_body["content"]["application/json"]["schema"]["additionalProperties"] == false);
    CHECK_FALSE(update_body["content"]["application/json"]["schema"].contains("required"));

    const auto& resolution = operation(doc, "post", "/api/meetings/{meetingId}/resolutions");
    CHECK(resolution["requestBody"]["required"] == true);
    CHECK(resolution["requestBody"]["content"]["application/json"]["schema"]["required"] ==
          ojson::array({"title", "majorityRequired"}));

    // record_votes takes meetingId optionally as a tool; its route always gives it.
    const auto& votes = operation(doc, "put", "/api/meetings/{meetingId}/resolutions/{resolutionId}/votes");
    CHECK((*parameter(votes, "meetingId"))["required"] == true);
    CHECK(votes["requestBody"]["content"]["application/json"]["schema"]["required"] ==
          ojson::array({"votesFor", "votesAgainst", "votesAbstain"}));

    // A POST whose only argument is in the path has an empty, optional body.
    const auto& restore = operation(doc, "post", "/api/co-owners/{id}/restore");
    CHECK(restore["requestBody"]["required"] == false);
    CHECK(restore["requestBody"]["content"]["application/json"]["schema"]["properties"].empty());
}

TEST_CASE("GET and DELETE take their other arguments from the query string, with their types") {
    const auto doc = document();
    for (const auto& [path, item] : doc["paths"].items())
        for (const auto& [method, op] : item.items())
            if (method == "get" || method == "delete") CHECK_MESSAGE(!op.contains("requestBody"), method << " " << path);

    const auto& list = operation(doc, "get", "/api/co-owners");
    const auto query = [&](const ojson& op, const std::string& name) -> const ojson& {
        const auto* p = parameter(op, name);
        REQUIRE_MESSAGE(p, name);
        CHECK((*p)["in"] == "query");
        return *p;
    };
    CHECK(query(list, "pageSize")["schema"]["type"] == "integer");
    CHECK(query(list, "pageSize")["schema"]["maximum"] == 200);
    CHECK(query(list, "pageSize")["schema"]["default"] == 50);
    CHECK(query(list, "pageSize")["required"] == false);
    CHECK(query(list, "includeArchived")["schema"]["type"] == "boolean");
    CHECK(query(list, "hasPortalAccess")["schema"]["type"] == "boolean");
    CHECK(query(list, "search")["schema"]["type"] == "string");
    CHECK(query(list, "search")["description"] == "part of a name or e-mail");
    CHECK(query(list, "unitId")["schema"]["maxLength"] == 64);
    CHECK(list["parameters"].size() == 6);

    const auto& units = operation(doc, "get", "/api/units");
    CHECK(query(units, "floor")["schema"]["type"] == "integer");
    CHECK(query(units, "type")["schema"]["enum"] == ojson::array({"apartment", "parking", "storage", "commercial"}));

    const auto& unit = operation(doc, "get", "/api/units/{id}");
    CHECK((*parameter(unit, "id"))["in"] == "path");
    CHECK(query(unit, "includeLinked")["schema"]["type"] == "boolean");

    CHECK_FALSE(operation(doc, "get", "/api/declaration/fraction-sum").contains("parameters"));
    CHECK(operation(doc, "delete", "/api/co-owners/{id}")["parameters"].size() == 1);
}

TEST_CASE("creates answer 201, everything else 200, with the tool's result") {
    const ToolRegistry registry(all_tool_handlers());
    const auto doc = openapi_document(registry, default_base);
    std::set<std::string> creates;  // the routes that answer 201
    for (const auto& t : catalogue())
        if (t.created) creates.insert(t.name);
    REQUIRE(creates.size() >= 5);
    for (const auto& tool : registry.tools()) {
        CAPTURE(tool.name);
        const auto method = lower(tool.http.method);
        const auto& responses = operation(doc, method, "/api" + tool.http.path)["responses"];
        const std::string success = creates.count(tool.name) ? "201" : "200";
        const std::string other = creates.count(tool.name) ? "200" : "201";
        REQUIRE(responses.contains(success));
        CHECK_FALSE(responses.contains(other));
        CHECK(json(responses[success]["content"]["application/json"]["schema"]) ==
              registry.schema_document(tool.name)["outputSchema"]);
        CHECK(response_codes(operation(doc, method, "/api" + tool.http.path)).front() == success);
    }
}

TEST_CASE("error responses: always 400, 401, 403, 429; 404 when records are named; 409 and 422 for writes") {
    const auto doc = document();
    const auto& shared = doc["components"]["responses"];
    for (const auto& [path, item] : doc["paths"].items())
        for (const auto& [method, op] : item.items())
            for (const auto& [code, response] : op["responses"].items())
                if (response.contains("$ref")) {
                    const std::string ref = response["$ref"];
                    REQUIRE(ref.rfind("#/components/responses/", 0) == 0);
                    CHECK_MESSAGE(shared.contains(ref.substr(23)), ref);
                }

    using codes = std::vector<std::string>;
    CHECK(response_codes(operation(doc, "get", "/api/declaration/fraction-sum")) == codes{"200", "400", "401", "403", "429", "503"});
    CHECK(response_codes(operation(doc, "get", "/api/co-owners/{id}")) == codes{"200", "400", "401", "403", "404", "429", "503"});
    CHECK(response_codes(operation(doc, "delete", "/api/units/{id}")) ==
          codes{"200", "400", "401", "403", "404", "409", "422", "429", "503", "507"});
    CHECK(response_codes(operation(doc, "post", "/api/meetings")) ==
          codes{"201", "400", "401", "403", "409", "413", "415", "422", "429", "503", "507"});
    // create_unit names records only through linkedUnits; create_co_owner through unitId.
    CHECK(operation(doc, "post", "/api/units")["responses"].contains("404"));
    CHECK(operation(doc, "post", "/api/co-owners")["responses"].contains("404"));

    CHECK(shared["Unauthorized"]["headers"].contains("WWW-Authenticate"));
    CHECK(shared["RateLimited"]["headers"].contains("Retry-After"));
    // The codes each shared response lists answer with its status (the bridge's own codes aside).
    const std::map<std::string, int> statuses = {{"BadRequest", 400}, {"Unauthorized", 401}, {"Forbidden", 403},
                                                 {"NotFound", 404},   {"Conflict", 409},     {"PayloadTooLarge", 413},
                                                 {"UnsupportedMediaType", 415}, {"UnprocessableContent", 422},
                                                 {"RateLimited", 429}, {"ServiceUnavailable", 503},
                                                 {"InsufficientStorage", 507}};
    CHECK(shared.size() == statuses.size());
    const std::set<std::string> bridge_codes = {"INVALID_JSON", "ORIGIN_NOT_ALLOWED", "ROUTE_NOT_FOUND", "PAYLOAD_TOO_LARGE",
                                                "UNSUPPORTED_MEDIA_TYPE"};
    for (const auto& [name, status] : statuses) {
        CAPTURE(name);
        REQUIRE(shared.contains(name));
        const auto& example = shared[name]["content"]["application/json"]["example"];
        CHECK(example["error"].contains("message"));
        for (const auto& code : shared[name]["x-error-codes"])
            if (!bridge_codes.count(code)) CHECK_MESSAGE(http_status(code) == status, code);
        CHECK(std::find(shared[name]["x-error-codes"].begin(), shared[name]["x-error-codes"].end(), example["error"]["code"]) !=
              shared[name]["x-error-codes"].end());
    }
    CHECK(doc["components"]["schemas"]["Error"]["properties"]["error"]["required"] == ojson::array({"code", "message"}));
}

TEST_CASE("bearer credentials and scopes on every tool; the document itself is open") {
    const ToolRegistry registry(all_tool_handlers());
    const auto doc = openapi_document(registry, default_base);
    const auto& bearer = doc["components"]["securitySchemes"]["bearer"];
    CHECK(bearer["type"] == "http");
    CHECK(bearer["scheme"] == "bearer");
    CHECK(bearer["description"].get<std::string>().find("sk_") != std::string::npos);
    for (const auto& tool : registry.tools()) {
        const auto& op = operation(doc, lower(tool.http.method), "/api" + tool.http.path);
        CHECK(op["security"] == ojson::parse(R"([{"bearer": []}, {"oauth2": [")" + tool.required_scope + R"("]}])"));
        CHECK(op["x-required-scope"] == tool.required_scope);
        CHECK(op.value("x-admin-only", false) == tool.admin_only);
    }
    const auto& archive = operation(doc, "delete", "/api/co-owners/{id}");
    CHECK(archive["x-admin-only"] == true);
    CHECK(archive["description"].get<std::string>().find("admin key") != std::string::npos);

    CHECK(operation(doc, "get", "/api/openapi.json")["security"] == ojson::array());
    const auto& mcp = operation(doc, "post", "/api/mcp");
    CHECK(response_codes(mcp) == std::vector<std::string>{"200", "202", "401", "403", "429"});
    CHECK(mcp["requestBody"]["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/JsonRpcRequest");
    CHECK(mcp["security"] == ojson::parse(R"([{"bearer": []}, {"oauth2": []}, {}])"));  // tools/list needs none
}

TEST_CASE("OAuth 2.1 is a security scheme: the authorization code flow at the bridge's own endpoints, every scope worded") {
    const ToolRegistry registry(all_tool_handlers());
    const auto doc = openapi_document(registry, "https://syndic.example.org/api/");
    const auto& schemes = doc["components"]["securitySchemes"];
    CHECK(schemes["bearer"]["description"].get<std::string>().find("will be") == std::string::npos);
    REQUIRE(schemes.contains("oauth2"));
    const auto& oauth2 = schemes["oauth2"];
    CHECK(oauth2["type"] == "oauth2");
    CHECK(oauth2["description"].get<std::string>().find("PKCE") != std::string::npos);
    const auto& flow = oauth2["flows"]["authorizationCode"];
    CHECK(flow["authorizationUrl"] == "https://syndic.example.org/api/oauth/authorize");
    CHECK(flow["tokenUrl"] == "https://syndic.example.org/api/oauth/token");
    CHECK(flow["refreshUrl"] == "https://syndic.example.org/api/oauth/token");
    std::vector<std::string> scopes;
    for (const auto& [scope, text] : flow["scopes"].items()) {
        scopes.push_back(scope);
        CHECK_MESSAGE(text.get<std::string>() != scope, scope);  // a sentence, not the name again
    }
    CHECK(scopes == registry.all_scopes());
}

TEST_CASE("servers and paths follow the base URL") {
    SUBCASE("a host with a port and /api") {
        const auto doc = document("http://127.0.0.1:8080/api");
        CHECK(doc["servers"] == ojson::parse(R"([{"url": "http://127.0.0.1:8080", "description": "the syndic-mcp HTTP bridge"}])"));
        CHECK(doc["paths"].contains("/api/co-owners/{id}"));
    }
    SUBCASE("a deeper path, with or without a trailing slash") {
        for (const std::string base : {"https://example.org/syndic/api", "https://example.org/syndic/api/"}) {
            const auto doc = document(base);
            CHECK(doc["servers"][0]["url"] == "https://example.org");
            CHECK(doc["paths"].contains("/syndic/api/co-owners/{id}"));
            CHECK(doc["paths"].contains("/syndic/api/mcp"));
            CHECK(doc["paths"].contains("/syndic/api/openapi.json"));
            CHECK_FALSE(doc["paths"].contains("/api/co-owners"));
        }
    }
    SUBCASE("no path at all") {
        const auto doc = document("http://localhost:9000");
        CHECK(doc["servers"][0]["url"] == "http://localhost:9000");
        CHECK(doc["paths"].contains("/co-owners"));
        CHECK(doc["paths"].contains("/mcp"));
    }
    SUBCASE("what is not an http(s) base URL is refused") {
        for (const std::string bad : {"", "127.0.0.1:8080/api", "ftp://example.org/api", "http:///api",
                                      "http://example.org/api?x=1", "http://example.org/api#top", "http://example.org/{x}",
                                      "http://user@example.org/api", "http://example.org//api"}) {
            CAPTURE(bad);
            CHECK_THROWS_AS(document(bad), std::invalid_argument);
        }
    }
}

TEST_CASE("a module subset documents only its tools") {
    const auto doc = document(default_base, {"units"});
    auto ops = operations(doc);
    CHECK(ops.size() == 5 + 2);
    for (const char* tool : {"list_units", "get_unit", "create_unit", "update_unit", "delete_unit", "postMcp", "getOpenApi"})
        CHECK_MESSAGE(ops.count(tool), tool);
    CHECK_FALSE(doc["paths"].contains("/api/co-owners"));
    CHECK(doc["tags"] == ojson::parse(R"([{"name": "units", "description": "The tools of the units module."},
        {"name": "mcp", "description": "The same tools over the Model Context Protocol, and this document."}])"));
    CHECK_THROWS_AS(document(default_base, {"no-such-module"}), std::invalid_argument);
}

TEST_CASE("the same registry and URL give the same bytes, paths in catalogue order") {
    const ToolRegistry registry(all_tool_handlers());
    const auto first = openapi_document(registry, default_base).dump(2);
    CHECK(openapi_document(registry, default_base).dump(2) == first);
    CHECK(document().dump(2) == first);  // another registry built from the same catalogue

    std::vector<std::string> expected;
    for (const auto& tool : registry.tools())
        if (std::find(expected.begin(), expected.end(), "/api" + tool.http.path) == expected.end())
            expected.push_back("/api" + tool.http.path);
    expected.push_back("/api/mcp");
    expected.push_back("/api/openapi.json");
    const auto parsed = ojson::parse(first);
    std::vector<std::string> actual;
    for (const auto& [path, item] : parsed["paths"].items()) actual.push_back(path);
    CHECK(actual == expected);
}

}  // TEST_SUITE

}  // namespace openapi_test
