// The OpenAPI 3.1 document of the HTTP bridge, derived from the registry alone: one operation per
// offered tool (its REST route, scope, input and output schemas), the MCP endpoint, the document's
// own route, bearer credentials and the shared error responses. Knows the bridge's REST rules but
// not its sockets, and nothing of what a tool does beyond its schema file.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "tools/registry.hpp"

namespace syndic {

// The document for a bridge served at `base_url` (e.g. "http://127.0.0.1:8080/api"):
// servers[0].url is its scheme://host[:port], every path starts with its path ("/api/co-owners").
// Paths come in catalogue order, hence an ordered_json; the same registry and URL always give the
// same bytes. Throws std::invalid_argument for a base URL that is not http(s)://host[:port][/path]
// (no query, fragment or braces), and std::logic_error for a tool schema that uses a draft-07
// keyword whose meaning differs in JSON Schema 2020-12 ($ref, definitions, dependencies, tuple
// items, $schema, $id, nullable).
nlohmann::ordered_json openapi_document(const ToolRegistry& registry, const std::string& base_url);

}  // namespace syndic
