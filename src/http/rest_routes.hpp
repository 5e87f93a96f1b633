// The REST face of the tools (interface 4.2, decisions 3): the route table read from each tool's
// schema file ("http"), matching a method and path to a tool, and building the tool's arguments
// from the path, the query string and the JSON body. Knows the registry, not sockets or servers.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/registry.hpp"

namespace syndic::http {

using Pairs = std::vector<std::pair<std::string, std::string>>;

struct RouteMatch {
    const ToolInfo* tool = nullptr;
    Pairs path_arguments;  // {"id", "…"} for /co-owners/{id}
};

struct RouteLookup {
    std::optional<RouteMatch> match;
    std::vector<std::string> allowed;  // every method the path answers to (empty: unknown path)
};

class RestRoutes {
public:
    explicit RestRoutes(const ToolRegistry& registry);

    // `path` below the base path ("/co-owners/42"), already percent-decoded.
    RouteLookup find(std::string_view method, std::string_view path) const;

    // The tool's arguments. GET and DELETE read the query string, typed by the input schema;
    // POST, PUT and PATCH read a JSON object body and refuse a query string. Path values win
    // over nothing: a body or query that repeats one differently is refused. Throws DomainError
    // VALIDATION_FAILED or INVALID_JSON.
    nlohmann::json arguments(const RouteMatch& match, const Pairs& query, std::string_view body) const;

private:
    struct Route {
        ToolInfo tool;
        std::vector<std::string> segments;  // "co-owners", "{id}"
    };
    const ToolRegistry& registry_;
    std::vector<Route> routes_;
};

// The body of a POST, PUT or PATCH, when it is one at all: nesting checked before parsing, then
// a JSON object required. Throws DomainError INVALID_JSON.
nlohmann::json parse_json_object(std::string_view body);

}  // namespace syndic::http
