#include "http/openapi.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <stdexcept>
#include <vector>

#include "core/text.hpp"

#include "core/error.hpp"
#include "http/pages.hpp"
#include "tools/manifests.hpp"
#include "mcp/server.hpp"

namespace syndic {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

struct BaseUrl {
    std::string origin;  // scheme://host[:port]
    std::string path;    // "" or "/api", without a trailing slash
};

BaseUrl split_base_url(const std::string& url) {
    static const std::regex rule(R"(^([Hh][Tt][Tt][Pp][Ss]?://[^/?#@{}\s]+)((?:/[^/?#{}\s]+)*)/?$)");
    std::smatch m;
    if (!std::regex_match(url, m, rule))
        throw std::invalid_argument("the base URL must be http(s)://host[:port][/path], without query or fragment "
                                    "(e.g. http://127.0.0.1:8080/api), not '" + url + "'");
    return {m[1], m[2]};
}

// Keywords that JSON Schema 2020-12 (the dialect of OpenAPI 3.1) reads differently from draft-07
// (which valijson applies), or that make no sense inside another document. Tool schemas keep to
// what both drafts read alike, so the document can carry them unchanged.
void check_common_dialect(const json& schema, const std::string& where) {
    if (!schema.is_object()) return;
    static const std::set<std::string> banned = {"$schema", "$id", "$ref", "definitions", "dependencies",
                                                 "additionalItems", "nullable"};
    static const std::set<std::string> data = {"enum", "const", "default", "examples", "required", "description", "title"};
    static const std::set<std::string> schema_maps = {"properties", "patternProperties", "$defs", "dependentSchemas"};
    for (const auto& [key, value] : schema.items()) {
        if (banned.count(key) || (key == "items" && value.is_array()))
            throw std::logic_error(where + ": '" + key + "' does not mean the same in JSON Schema draft-07 and 2020-12 "
                                   "(OpenAPI 3.1); keep tool schemas to what both read alike");
        if (data.count(key)) continue;
        if (schema_maps.count(key) && value.is_object()) {
            for (const auto& [name, child] : value.items()) check_common_dialect(child, where + "/" + key + "/" + name);
        } else if (value.is_object()) {
            check_common_dialect(value, where + "/" + key);
        } else if (value.is_array()) {
            for (std::size_t i = 0; i < value.size(); ++i) check_common_dialect(value[i], where + "/" + key + "/" + std::to_string(i));
        }
    }
}

// Whether the arguments name records (so a call may be *_NOT_FOUND): a property, at any depth,
// called id, ...Id, ...Ids or linked... (the catalogue's naming of references).
bool names_records(const json& schema) {
    if (!schema.is_object()) return false;
    if (schema.contains("properties") && schema["properties"].is_object())
        for (const auto& [name, child] : schema["properties"].items())
            if (name == "id" || name.ends_with("Id") || name.ends_with("Ids") || name.starts_with("linked") ||
                names_records(child))
                return true;
    return schema.contains("items") && names_records(schema["items"]);
}

std::vector<std::string> path_parameters(const std::string& path) {
    std::vector<std::string> names;
    static const std::regex parameter(R"(\{([^}]+)\})");
    for (std::sregex_iterator it(path.begin(), path.end(), parameter), end; it != end; ++it) names.push_back((*it)[1]);
    return names;
}

std::string code_list(const std::vector<std::string>& codes) {
    std::string out;
    for (const auto& c : codes) out += (out.empty() ? "`" : ", `") + c + "`";
    return out;
}

// "Codes:" and one Markdown line per code with its manifest's description.
std::string code_lines(const std::vector<const ErrorDecl*>& codes) {
    std::string out = "Codes:";
    for (const auto* c : codes) out += "\n- `" + c->code + "`: " + c->description;
    return out;
}

// The shared error responses (components/responses), by status; each operation refers to some.
// What a status means is written here; the codes it lists, each with its one line, come from the
// manifests (schemas/<module>/module.json, schemas/platform.json), so a module's new code is listed
// under its status without an edit here.
struct ErrorResponse {
    int status;
    std::string name;
    std::string description;
    ojson example;  // null: the first code the manifests declare with this status, its line as message
    std::vector<const ErrorDecl*> error_codes = {};  // filled from the manifests
};

std::vector<ErrorResponse> status_table() {
    return {
        {400, "BadRequest", "The request body is not JSON, or the arguments fail the tool's input schema (`errors` lists each field) or a rule on one argument.",
         {{"error", {{"code", codes::validation_failed}, {"message", "The arguments do not match the tool's input schema."},
                     {"field", "/pageSize"}, {"errors", {{{"field", "/pageSize"}, {"reason", "must be at most 200"}}}}}}}},
        {401, "Unauthorized", "No valid credentials: the `Authorization: Bearer` header is missing, or its key is unknown or revoked.",
         {{"error", {{"code", codes::not_authenticated}, {"message", "This call needs a valid API key (Authorization: Bearer sk_...)."}}}}},
        {403, "Forbidden", "The credentials lack the operation's scope (`requiredScope`), the operation is for admins only, or "
                           "the request's Origin or Host is not allowed.",
         {{"error", {{"code", codes::insufficient_scope}, {"message", "This API key lacks the scope write:co-owners."},
                     {"requiredScope", "write:co-owners"}}}}},
        {404, "NotFound", "A record the path or the arguments name does not exist in the caller's syndicate (another "
                          "syndicate's records are not found either), or no route has this path.", nullptr},
        {409, "Conflict", "The change contradicts the register as it is: a duplicate, a link already taken, a record still "
                          "in use, a status that cannot follow.", nullptr},
        {413, "PayloadTooLarge", "The request body is larger than the bridge accepts.",
         {{"error", {{"code", "PAYLOAD_TOO_LARGE"}, {"message", "The request body is too large."}}}}},
        {415, "UnsupportedMediaType", "The request has a body that is not `application/json`.",
         {{"error", {{"code", "UNSUPPORTED_MEDIA_TYPE"}, {"message", "The request body must be application/json."}}}}},
        {422, "UnprocessableContent", "The arguments are well formed but break a rule of the syndicate.", nullptr},
        {429, "RateLimited", "Too many requests for the plan; retry after `Retry-After` seconds.",
         {{"error", {{"code", "RATE_LIMITED"}, {"message", "Too many requests; retry in 30 seconds."}, {"retryAfterSeconds", 30}}}}},
        {503, "ServiceUnavailable", "The storage cannot serve the call: the database is locked by another writer beyond the "
                                    "busy timeout (retry), cannot be written (read-only, an I/O error), or is not a usable "
                                    "database; `file` and `cause` say which and why. Nothing was changed.",
         {{"error", {{"code", codes::storage_unavailable}, {"message", "The database syndic.db cannot be written: attempt to "
                                                                       "write a readonly database; nothing was changed."},
                     {"file", "syndic.db"}, {"cause", "attempt to write a readonly database"}}}}},
        {507, "InsufficientStorage", "The disk (or quota, or file size limit) is full: nothing was changed and no file was "
                                     "left; `file` and `cause` say which and why.",
         {{"error", {{"code", codes::storage_full}, {"message", "Could not write the file exports/minutes-2027-01-20-9b1f-final-fr-1a2b.pdf: "
                                                                "No space left on device (ENOSPC); nothing was recorded."},
                     {"file", "exports/minutes-2027-01-20-9b1f-final-fr-1a2b.pdf"}, {"cause", "No space left on device (ENOSPC)"}}}}},
    };
}

const std::vector<ErrorResponse>& error_responses() {
    static const std::vector<ErrorResponse> table = [] {
        auto responses = status_table();
        std::vector<const Manifest*> manifests{&platform_manifest()};
        for (const auto& m : module_manifests()) manifests.push_back(&m);
        for (auto& r : responses) {
            for (const auto* m : manifests)
                for (const auto& e : m->errors)
                    if (e.status == r.status && e.layer != "protocol") r.error_codes.push_back(&e);
            if (r.error_codes.empty()) throw std::logic_error("no manifest declares a code with status " + std::to_string(r.status));
            if (r.example.is_null())
                r.example = {{"error", {{"code", r.error_codes.front()->code}, {"message", r.error_codes.front()->description}}}};
        }
        return responses;
    }();
    return table;
}

const ErrorResponse& error_response(int status) {
    for (const auto& r : error_responses())
        if (r.status == status) return r;
    throw std::logic_error("no shared error response for status " + std::to_string(status));
}

ojson ref_to(const std::string& where) { return {{"$ref", where}}; }

// OAuth 2.1 as the bridge serves it: the authorization code flow with PKCE (S256), at the
// bridge's own /oauth/authorize and /oauth/token, for the scopes the tools require.
ojson oauth2_scheme(const ToolRegistry& registry, const std::string& oauth_base) {
    ojson scopes = ojson::object();
    for (const auto& scope : registry.all_scopes()) scopes[scope] = http::scope_description("en", scope);
    return {{"type", "oauth2"},
            {"description", "OAuth 2.1 access tokens (JWTs) from the authorization code flow with PKCE (S256 only), "
                            "sent as `Authorization: Bearer <token>` exactly as an API key is. A person signs in and "
                            "consents to the scopes asked; the token carries them. Clients register dynamically "
                            "(RFC 7591) or through `syndic-mcp clients create`; the server's metadata is at "
                            "/.well-known/oauth-authorization-server."},
            {"flows",
             {{"authorizationCode",
               {{"authorizationUrl", oauth_base + "/oauth/authorize"},
                {"tokenUrl", oauth_base + "/oauth/token"},
                {"refreshUrl", oauth_base + "/oauth/token"},
                {"scopes", std::move(scopes)}}}}}};
}

ojson components(const std::string& mcp_path, ojson oauth2) {
    ojson responses = ojson::object();
    for (const auto& r : error_responses()) {
        ojson response = {{"description", r.description + "\n\n" + code_lines(r.error_codes)}};
        if (r.status == 401)
            response["headers"]["WWW-Authenticate"] = {{"description", "`Bearer`: the scheme the credentials must use"},
                                                       {"schema", {{"type", "string"}}}};
        if (r.status == 429)
            response["headers"]["Retry-After"] = {{"description", "seconds to wait before the next request"},
                                                  {"schema", {{"type", "integer"}, {"minimum", 0}}}};
        response["content"]["application/json"] = {{"schema", ref_to("#/components/schemas/Error")}, {"example", r.example}};
        response["x-error-codes"] = ojson::array();
        for (const auto* c : r.error_codes) response["x-error-codes"].push_back(c->code);
        responses[r.name] = std::move(response);
    }

    const ojson string = {{"type", "string"}};
    const ojson error = {
        {"type", "object"},
        {"description", "A refusal: `error.code` is the machine code for program logic, `error.message` one English "
                        "sentence for people; `field`, `errors` and figures (e.g. `resultingSum`, `requiredScope`, "
                        "`retryAfterSeconds`) are there when they apply."},
        {"required", {"error"}},
        {"properties",
         {{"error",
           {{"type", "object"},
            {"required", {"code", "message"}},
            {"properties",
             {{"code", {{"type", "string"}, {"description", "machine code, e.g. UNIT_NOT_FOUND"}}},
              {"message", {{"type", "string"}, {"description", "what went wrong, in one English sentence"}}},
              {"field", {{"type", "string"}, {"description", "JSON Pointer of the argument at fault, e.g. /unitId"}}},
              {"errors",
               {{"type", "array"},
                {"description", "every argument that failed, for VALIDATION_FAILED"},
                {"items", {{"type", "object"}, {"required", {"field", "reason"}},
                           {"properties", {{"field", string}, {"reason", string}}}}}}}}},
            {"additionalProperties", true}}}}}};
    const ojson id = {{"type", {"string", "integer"}}, {"description", "absent in a notification"}};
    const ojson request = {
        {"type", "object"},
        {"description", "One JSON-RPC 2.0 request or notification (MCP: initialize, ping, tools/list, tools/call...)."},
        {"required", {"jsonrpc", "method"}},
        {"properties",
         {{"jsonrpc", {{"const", "2.0"}}}, {"id", id}, {"method", string}, {"params", {{"type", "object"}}}}}};
    const ojson response = {
        {"type", "object"},
        {"description", "A JSON-RPC 2.0 response: `result`, or `error` whose `message` is a machine code (`code` "
                        "-32000 for a tool's refusal, with `data.detail`) or a JSON-RPC protocol error."},
        {"required", {"jsonrpc", "id"}},
        {"properties",
         {{"jsonrpc", {{"const", "2.0"}}},
          {"id", {{"type", {"string", "integer", "null"}}}},
          {"result", {{"type", "object"}}},
          {"error", {{"type", "object"}, {"required", {"code", "message"}},
                     {"properties", {{"code", {{"type", "integer"}}}, {"message", string}, {"data", ojson::object()}}}}}}}};
    return {{"securitySchemes",
             {{"bearer",
               {{"type", "http"},
                {"scheme", "bearer"},
                {"description", "An API key (`sk_` and 43 letters or digits, from `syndic-mcp init`, `demo` or `keys create`) "
                                "as `Authorization: Bearer sk_...`; OAuth 2.1 access tokens are taken the same way (scheme `oauth2`). "
                                "Each operation needs its `x-required-scope`, and admin-only ones an admin key. " +
                                    mcp_path + " needs credentials for tools/call only."}}},
              {"oauth2", std::move(oauth2)}}},
            {"schemas", {{"Error", error}, {"JsonRpcRequest", request}, {"JsonRpcResponse", response}}},
            {"responses", responses}};
}

// The error statuses an operation lists: every operation can be malformed, unauthenticated,
// forbidden or rate-limited; one that names records can miss them; one that writes can conflict
// or break a rule; one with a body can send too much or the wrong media type; any can meet storage
// that fails, and one that writes a full disk.
std::vector<int> error_statuses(const std::string& method, bool names_record, bool has_body) {
    std::vector<int> statuses = {400, 401, 403};
    if (names_record) statuses.push_back(404);
    if (method != "GET") statuses.push_back(409);
    if (has_body) statuses.insert(statuses.end(), {413, 415});
    if (method != "GET") statuses.push_back(422);
    statuses.push_back(429);
    statuses.push_back(503);                         // storage unavailable or busy
    if (method != "GET") statuses.push_back(507);  // storage full
    return statuses;
}

ojson tool_operation(const ToolInfo& info, const json& doc) {
    json input = doc["inputSchema"];
    strip_private_keywords(input);
    const auto& http = info.http;
    const auto in_path = path_parameters(http.path);
    const bool has_body = http.method == "POST" || http.method == "PUT" || http.method == "PATCH";

    std::string description = doc.value("description", "") + "\n\nRequires the scope `" + info.required_scope + "`" +
                              (info.admin_only ? " and an admin key (ADMIN_REQUIRED otherwise)." : ".") +
                              " The same operation is the MCP tool `" + info.name + "`.";
    ojson op = {{"operationId", info.name},
                {"summary", info.title},
                {"description", description},
                {"tags", {info.module}},
                {"security", {{{"bearer", ojson::array()}}, {{"oauth2", {info.required_scope}}}}},
                {"x-required-scope", info.required_scope}};
    if (info.admin_only) op["x-admin-only"] = true;

    const json properties = input.value("properties", json::object());
    const json required = input.value("required", json::array());
    const auto is_required = [&](const std::string& name) {
        return std::find(required.begin(), required.end(), name) != required.end();
    };
    const auto is_in_path = [&](const std::string& name) {
        return std::find(in_path.begin(), in_path.end(), name) != in_path.end();
    };
    ojson parameters = ojson::array();
    const auto parameter = [&](const std::string& name, const char* where, bool needed) {
        ojson p = {{"name", name}, {"in", where}, {"required", needed}};
        const auto& schema = properties.at(name);
        if (schema.contains("description")) p["description"] = schema["description"];
        p["schema"] = schema;
        parameters.push_back(std::move(p));
    };
    for (const auto& name : in_path) parameter(name, "path", true);
    if (!has_body)
        for (const auto& [name, schema] : properties.items())
            if (!is_in_path(name)) parameter(name, "query", is_required(name));
    if (!parameters.empty()) op["parameters"] = std::move(parameters);

    if (has_body) {
        json body = input;
        json body_required = json::array();
        for (const auto& name : in_path) body["properties"].erase(name);
        for (const auto& name : required)
            if (!is_in_path(name)) body_required.push_back(name);
        if (body_required.empty()) body.erase("required");
        else body["required"] = body_required;
        std::string what = "The arguments of `" + info.name + "` as a JSON object";
        if (!in_path.empty()) what += ", except " + code_list(in_path) + ", which the path gives";
        what += body_required.empty() ? "; nothing in it is required, so it may be left out." : ".";
        op["requestBody"] = {{"description", what},
                             {"required", !body_required.empty()},
                             {"content", {{"application/json", {{"schema", body}}}}}};
    }

    ojson responses = ojson::object();
    responses[std::to_string(http.success_status)] = {
        {"description", http.success_status == 201 ? "Created: the tool's result." : "The tool's result."},
        {"content", {{"application/json", {{"schema", doc["outputSchema"]}}}}}};
    for (int status : error_statuses(http.method, !in_path.empty() || names_records(input), has_body))
        responses[std::to_string(status)] = ref_to("#/components/responses/" + error_response(status).name);
    op["responses"] = std::move(responses);
    return op;
}

}  // namespace

ojson openapi_document(const ToolRegistry& registry, const std::string& base_url) {
    const auto base = split_base_url(base_url);
    const std::string mcp_path = base.path + "/mcp";
    const std::string document_path = base.path + "/openapi.json";

    ojson paths = ojson::object();
    ojson tags = ojson::array();
    std::set<std::string> modules;
    for (const auto& info : registry.tools()) {
        const auto& doc = registry.schema_document(info.name);
        for (const char* key : {"inputSchema", "outputSchema"})
            check_common_dialect(doc[key], "schemas/" + info.module + "/" + info.name + ".json: " + key);
        paths[base.path + info.http.path][ascii_lower(info.http.method)] = tool_operation(info, doc);
        if (modules.insert(info.module).second)
            tags.push_back({{"name", info.module}, {"description", "The tools of the " + info.module + " module."}});
    }
    tags.push_back({{"name", "mcp"}, {"description", "The same tools over the Model Context Protocol, and this document."}});

    paths[mcp_path]["post"] = {
        {"operationId", "postMcp"},
        {"summary", "MCP endpoint (JSON-RPC 2.0)"},
        {"description",
         "The Model Context Protocol over HTTP: one JSON-RPC 2.0 message per request (initialize, ping, tools/list, "
         "tools/call...). initialize, ping and tools/list need no credentials; tools/call needs the bearer key and the "
         "tool's scope, as its REST route does. A tool's refusal is a JSON-RPC error in a 200 answer (`message` the "
         "machine code, `data.detail` the sentence); a notification is answered 202 without a body."},
        {"tags", {"mcp"}},
        {"security", {{{"bearer", ojson::array()}}, {{"oauth2", ojson::array()}}, ojson::object()}},
        {"requestBody",
         {{"required", true},
          {"content",
           {{"application/json",
             {{"schema", ref_to("#/components/schemas/JsonRpcRequest")},
              {"example", {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                           {"params", {{"name", "get_fraction_sum"}, {"arguments", ojson::object()}}}}}}}}}}},
        {"responses",
         {{"200", {{"description", "The JSON-RPC response (a success or a JSON-RPC error)."},
                   {"content", {{"application/json", {{"schema", ref_to("#/components/schemas/JsonRpcResponse")}}}}}}},
          {"202", {{"description", "A notification was accepted; no body."}}},
          {"401", ref_to("#/components/responses/Unauthorized")},
          {"403", ref_to("#/components/responses/Forbidden")},
          {"429", ref_to("#/components/responses/RateLimited")}}}};
    paths[document_path]["get"] = {
        {"operationId", "getOpenApi"},
        {"summary", "This OpenAPI document"},
        {"description", "The OpenAPI 3.1 description of every route, derived from the tools the server offers. Needs no credentials."},
        {"tags", {"mcp"}},
        {"security", ojson::array()},
        {"responses",
         {{"200", {{"description", "The OpenAPI document."},
                   {"content", {{"application/json", {{"schema", {{"type", "object"}}}}}}}}}}}};

    ojson info = {
        {"title", "syndic-mcp"},
        {"version", server_version()},
        {"description",
         "The registers of a Quebec co-ownership syndicate (syndicat de copropriété): units and their fractions, "
         "co-owners, meetings, resolutions and minutes, as REST routes and as an MCP endpoint. Every REST operation is "
         "one MCP tool (its operationId is the tool's name) and takes the same arguments: a `{name}` path segment fills "
         "the argument of that name; GET and DELETE take the others from the query string (booleans as `true` or "
         "`false`); POST, PUT and PATCH take them as a JSON object body (`Content-Type: application/json`), which may "
         "be left out when nothing in it is required. A success answers the route's status (201 for a create, 200 "
         "otherwise) with the tool's result as JSON. A refusal answers `{\"error\": {\"code\": ..., \"message\": "
         "...}}` with the status of its code (see components/responses); a path no route has is 404 ROUTE_NOT_FOUND, "
         "a route's path with another method 405 METHOD_NOT_ALLOWED. Every operation needs `Authorization: Bearer "
         "...`, an API key (`sk_...`) or an OAuth 2.1 access token, with the scope it names (`x-required-scope`)."}};

    ojson document = {{"openapi", "3.1.0"},
                      {"info", std::move(info)},
                      {"servers", {{{"url", base.origin}, {"description", "the syndic-mcp HTTP bridge"}}}},
                      {"tags", std::move(tags)},
                      {"paths", std::move(paths)}};
    document["components"] = components(mcp_path, oauth2_scheme(registry, base.origin + base.path));
    return document;
}

}  // namespace syndic
