// The checks a tool's descriptor file passes at start-up (tools/descriptor_checks.hpp).
#include "tools/descriptor_checks.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string_view>

#include "tools/linear_patterns.hpp"

namespace syndic {

using nlohmann::json;

namespace {

// Every string pattern must come with a maxLength, so no regex ever runs on a long text, and be
// one RE2 runs as ECMAScript means it.
void check_patterns_bounded(const json& schema, const std::string& where) {
    if (schema.is_object()) {
        if (schema.contains("pattern") && !(schema.contains("maxLength") && schema["maxLength"].is_number_unsigned() &&
                                            schema["maxLength"].get<std::size_t>() <= 10000))
            throw std::logic_error(where + ": a pattern needs a maxLength of at most 10000");
        if (schema.contains("pattern") && schema["pattern"].is_string()) check_linear_pattern(schema["pattern"].get<std::string>(), where);
        for (const auto& [key, sub] : schema.items()) check_patterns_bounded(sub, where);
    } else if (schema.is_array()) {
        for (const auto& sub : schema) check_patterns_bounded(sub, where);
    }
}

bool scalar_type(const json& property) {
    if (!property.is_object() || !property.contains("type")) return false;
    const auto is_scalar = [](const json& t) {
        return t == "string" || t == "integer" || t == "number" || t == "boolean";
    };
    const auto& type = property["type"];
    return type.is_array() ? std::all_of(type.begin(), type.end(), [&](const json& t) { return is_scalar(t) || t == "null"; })
                           : is_scalar(type);
}

// A route path: one or more segments, each /[a-z0-9-]+ or /{name} with name [A-Za-z][A-Za-z0-9]*.
bool well_formed_route(std::string_view path) {
    const auto lower_digit_dash = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; };
    const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    if (path.empty()) return false;
    while (!path.empty()) {
        if (path[0] != '/') return false;
        path.remove_prefix(1);
        const auto end = std::min(path.find('/'), path.size());
        const auto segment = path.substr(0, end);
        path.remove_prefix(end);
        if (segment.size() >= 3 && segment.front() == '{' && segment.back() == '}') {
            const auto name = segment.substr(1, segment.size() - 2);
            if (!alpha(name[0]) || !std::all_of(name.begin(), name.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); }))
                return false;
        } else if (segment.empty() || !std::all_of(segment.begin(), segment.end(), lower_digit_dash)) {
            return false;
        }
    }
    return true;
}

// "http": {"method": "PATCH", "path": "/co-owners/{id}", "status": 200}: every {name} is a string
// property of the input (which the route always gives); a GET or DELETE takes its other properties from the query string,
// so they must be scalars.
template <class Fail>
void check_http_route(const json& doc, Fail fail) {
    if (!doc.contains("http") || !doc["http"].is_object()) fail("needs an object 'http' (its REST route)");
    const auto& http = doc["http"];
    static const std::set<std::string> methods = {"GET", "POST", "PUT", "PATCH", "DELETE"};
    if (!http.contains("method") || !http["method"].is_string() || !methods.count(http["method"].get<std::string>()))
        fail("http.method must be GET, POST, PUT, PATCH or DELETE");
    if (http.contains("status") && !(http["status"] == 200 || http["status"] == 201)) fail("http.status must be 200 or 201");
    if (!http.contains("path") || !http["path"].is_string() || !well_formed_route(http["path"].get<std::string>()))
        fail("http.path must look like /co-owners/{id}");
    const auto& input = doc["inputSchema"];
    const json properties = input.value("properties", json::object());
    std::set<std::string> in_path;
    const std::string path = http["path"];
    for (auto open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1)) {
        const auto name = path.substr(open + 1, path.find('}', open) - open - 1);
        const auto type = properties.contains(name) ? properties[name].value("type", json()) : json();
        if (type != "string" && type != "integer")
            fail("http.path names {" + name + "}, which must be a string or integer property of the input");
        if (!in_path.insert(name).second) fail("http.path names {" + name + "} twice");
    }
    const std::string method = http["method"];
    if (method == "GET" || method == "DELETE")
        for (const auto& [name, property] : properties.items())
            if (!in_path.count(name) && !scalar_type(property))
                fail("a " + method + " route takes '" + name + "' from the query string, so it must be a string, number or boolean");
}

// An input property may be nullable, spelled "type": [T, "null"] in its schema file (null clears
// the field): validation keeps that type, tools/list shows T alone (hosts that accept one type per
// property refuse arrays). Any other type array in an input schema is refused.
template <class Fail>
void check_input_types(const json& schema, Fail fail) {
    if (schema.is_object()) {
        if (schema.contains("type") && schema["type"].is_array()) {
            const auto& t = schema["type"];
            if (t.size() != 2 || std::count(t.begin(), t.end(), "null") != 1 || !(t[0].is_string() && t[1].is_string()))
                fail("an input type array must be [T, \"null\"] (a nullable field), not " + t.dump());
        }
        for (const auto& [key, sub] : schema.items()) check_input_types(sub, fail);
    } else if (schema.is_array()) {
        for (const auto& sub : schema) check_input_types(sub, fail);
    }
}

}  // namespace

void check_descriptor(const std::string& file, const std::string& module, const json& doc) {
    auto fail = [&](const std::string& why) { throw std::logic_error("schemas/" + file + ": " + why); };
    if (!doc.is_object()) fail("not a JSON object");
    for (const char* key : {"name", "title", "description", "requiredScope"})
        if (!doc.contains(key) || !doc[key].is_string() || doc[key].get<std::string>().empty())
            fail(std::string("needs a non-empty string '") + key + "'");
    const auto name = doc["name"].get<std::string>();
    if (name.empty() || name.size() > 64 || !std::all_of(name.begin(), name.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        }))
        fail("tool name must match ^[a-z0-9_]{1,64}$");
    if (file != module + "/" + name + ".json") fail("file name must be <module>/<tool name>.json");
    for (const char* key : {"inputSchema", "outputSchema", "annotations"})
        if (!doc.contains(key) || !doc[key].is_object()) fail(std::string("needs an object '") + key + "'");
    for (const char* key : {"inputSchema", "outputSchema"}) {
        const auto& s = doc[key];
        if (s.value("type", "") != "object") fail(std::string(key) + " must be of type object");
        check_patterns_bounded(s, "schemas/" + file);
        for (const char* banned : {"oneOf", "anyOf", "allOf", "$ref"})
            if (s.contains(banned)) fail(std::string(key) + " may not use " + banned + " at the top");
    }
    check_input_types(doc["inputSchema"], fail);
    check_http_route(doc, fail);
}

}  // namespace syndic
