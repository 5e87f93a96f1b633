#include "http/rest_routes.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/error.hpp"
#include "core/json_parse.hpp"
#include "core/text.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

constexpr std::size_t max_body_depth = 64;
constexpr std::size_t max_body_values = 100000;  // parsed, each takes tens of bytes per byte of text

std::vector<std::string> split_path(std::string_view path) {
    std::vector<std::string> out;
    if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);  // "/units/" is "/units"
    std::size_t start = 0;
    if (!path.empty() && path.front() == '/') start = 1;
    while (start <= path.size()) {
        const auto end = std::min(path.find('/', start), path.size());
        out.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

bool is_parameter(const std::string& segment) { return segment.size() > 2 && segment.front() == '{'; }

std::string parameter_name(const std::string& segment) { return segment.substr(1, segment.size() - 2); }

// How well a route's segments fit: nullopt when they do not; else its literal segments, so a
// literal ("/co-owners/bulk") wins over a parameter ("/co-owners/{id}").
std::optional<std::size_t> fit(const std::vector<std::string>& pattern, const std::vector<std::string>& path) {
    if (pattern.size() != path.size()) return std::nullopt;
    std::size_t literals = 0;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (is_parameter(pattern[i])) {
            if (path[i].empty()) return std::nullopt;
        } else if (pattern[i] == path[i]) {
            ++literals;
        } else {
            return std::nullopt;
        }
    }
    return literals;
}

bool has_type(const json& property, const char* type) {
    if (!property.is_object() || !property.contains("type")) return false;
    const auto& t = property["type"];
    return t.is_array() ? std::find(t.begin(), t.end(), type) != t.end() : t == type;
}

// A query-string value as the property's type wants it; the text itself when it is not one, so
// validation names the field ("has the wrong type").
json typed(const json* property, const std::string& text) {
    if (!property) return text;
    if (has_type(*property, "integer")) {
        std::int64_t n = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (error == std::errc() && end == text.data() + text.size() && !text.empty()) return n;
    }
    if (has_type(*property, "number") && !text.empty() && text.find_first_not_of("+-0123456789.eE") == std::string::npos) {
        char* end = nullptr;
        const double d = std::strtod(text.c_str(), &end);
        if (end == text.c_str() + text.size() && std::isfinite(d)) return d;
    }
    if (has_type(*property, "boolean")) {
        if (text == "true") return true;
        if (text == "false") return false;
    }
    return text;
}

std::string pointer(const std::string& name) {
    if (name.empty()) return "";
    std::string out = "/";
    for (char c : name) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
}

}  // namespace

json parse_json_object(std::string_view body) {
    json value;
    try {
        value = parse_json(body, {max_body_depth, max_body_values});
    } catch (const JsonParseError& e) {  // syntax, a key twice in one object, beyond the limits
        auto error = DomainError(codes::invalid_json, std::string("The request body ") + e.what());
        if (e.kind == JsonParseError::Kind::too_many_values) error.with("limitValues", static_cast<std::int64_t>(max_body_values));
        throw error;
    }
    if (!value.is_object()) throw DomainError(codes::invalid_json, "The request body must be a JSON object.");
    return value;
}

RestRoutes::RestRoutes(const ToolRegistry& registry) : registry_(registry) {
    for (auto& tool : registry.tools()) {
        auto segments = split_path(tool.http.path);
        routes_.push_back({std::move(tool), std::move(segments)});
    }
}

RouteLookup RestRoutes::find(std::string_view method, std::string_view path) const {
    const auto parts = split_path(path);
    RouteLookup lookup;
    const Route* best = nullptr;
    std::size_t best_literals = 0;
    for (const auto& route : routes_) {
        const auto literals = fit(route.segments, parts);
        if (!literals) continue;
        if (std::find(lookup.allowed.begin(), lookup.allowed.end(), route.tool.http.method) == lookup.allowed.end())
            lookup.allowed.push_back(route.tool.http.method);
        if (route.tool.http.method == method && (!best || *literals > best_literals)) {
            best = &route;
            best_literals = *literals;
        }
    }
    if (best) {
        RouteMatch match{&best->tool, {}};
        for (std::size_t i = 0; i < parts.size(); ++i)
            if (is_parameter(best->segments[i])) match.path_arguments.emplace_back(parameter_name(best->segments[i]), parts[i]);
        lookup.match = std::move(match);
    }
    return lookup;
}

json RestRoutes::arguments(const RouteMatch& match, const Pairs& query, std::string_view body) const {
    const auto& tool = *match.tool;
    const json& input = registry_.schema_document(tool.name)["inputSchema"];
    const json* properties = input.contains("properties") ? &input["properties"] : nullptr;
    const bool from_query = tool.http.method == "GET" || tool.http.method == "DELETE";
    const auto refuse = [](const std::string& name, const std::string& reason, const std::string& detail) {
        return invalid_argument(pointer(name), reason, detail);
    };
    const auto blank = body.find_first_not_of(" \t\r\n") == std::string_view::npos;

    json args = json::object();
    if (from_query) {
        if (!blank)
            throw refuse("", "must be empty", "A " + tool.http.method + " request takes its arguments from the query string, not a body.");
        for (const auto& [name, value] : query) {
            if (!valid_utf8(name) || !valid_utf8(value))
                throw refuse(valid_utf8(name) ? name : "", "is not valid UTF-8",
                             "The query string, once its %-escapes are decoded, must be UTF-8 text.");
            if (args.contains(name))
                throw refuse(name, "is given more than once", "The query string gives " + name + " more than once.");
            const json* property = properties && properties->contains(name) ? &(*properties)[name] : nullptr;
            args[name] = typed(property, value);
        }
    } else {
        if (!query.empty())
            throw refuse(query.front().first, "must be in the JSON body, not the query string",
                         "A " + tool.http.method + " request takes its arguments from its JSON body; move " +
                             query.front().first + " out of the query string.");
        if (!blank) args = parse_json_object(body);
    }
    for (const auto& [name, value] : match.path_arguments) {
        if (!valid_utf8(value))
            throw refuse(name, "is not valid UTF-8", "The path, once its %-escapes are decoded, must be UTF-8 text.");
        const json* property = properties && properties->contains(name) ? &(*properties)[name] : nullptr;
        const auto typed_value = typed(property, value);  // a fiscal year in the path is a number
        if (args.contains(name) && args[name] != typed_value)
            throw refuse(name, "differs from the path", name + " is given by the path; the request gives another one.");
        args[name] = typed_value;
    }
    return args;
}

}  // namespace syndic::http
