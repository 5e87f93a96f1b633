// The module manifests (schemas/<module>/module.json) and schemas/platform.json, embedded with the
// tool schemas: each module's title, instructions for hosts, place in the default set, scopes with
// their consent texts, error codes with HTTP status, settings, and the modules it uses (dependsOn).
// Parsed once, checked at start-up.
// Knows nothing of handlers, HTTP or JSON-RPC; only the checks look at the tools' facts.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace syndic {

class ToolRegistry;

struct ScopeText {
    std::string name;  // "read:co-owners"
    std::string fr;    // what the scope lets an application do, for the consent page
    std::string en;
};

struct ErrorDecl {
    std::string code;         // "UNIT_NOT_FOUND"
    int status = 400;         // the HTTP status a REST route or the bridge answers with
    std::string description;  // one line, for the OpenAPI document and hosts
    // Who raises it: "tool" (a tool call may refuse with it; the default), "http" (only the HTTP
    // bridge, before or around a call) or "protocol" (a JSON-RPC error message, no DomainError).
    std::string layer = "tool";
    // For the code that refuses an id naming no record of a table in the caller's syndicate
    // ("record": {"table", "noun", "activeNoun"}): the table ("units"), how a refusal's detail
    // names its record ("unit") and, when archived records are spoken of as inactive rather than
    // gone, how it names one an active-only check wants ("active co-owner"). Empty otherwise.
    std::string record_table, record_noun, record_active_noun;
};

struct Manifest {
    std::string id;    // "co-owners"; "" for platform.json
    std::string file;  // the embedded path: "co-owners/module.json", "platform.json"
    std::string title;
    std::string instructions;
    bool is_default = false;                 // "default": true, the whole module is in the default set
    std::vector<std::string> default_tools;  // "default": ["attach_document"], these of its tools are
    std::vector<ScopeText> scopes;  // in the file's order
    std::vector<ErrorDecl> errors;  // in the file's order
    std::string settings_json;      // the "settings" object as compact JSON text ("{}" when none)
    // "dependsOn": the modules whose headers this module's sources include, by id ("co-owners",
    // "governance"), in the file's order. The graph is checked against the sources, and for
    // cycles, by tests/unit/module_dependencies_test.cpp. Its migrations apply after theirs
    // (src/storage/migration_order.hpp).
    std::vector<std::string> depends_on;
};

// One manifest from its embedded path and text; std::logic_error naming the file when it is not
// well formed (a missing key, a status outside 400..599, a "module" that differs from its folder,
// a dependsOn that is not a list of distinct module ids other than its own).
Manifest parse_manifest(std::string_view file, std::string_view text);
// Whether an embedded schema path is a manifest ("platform.json", "<module>/module.json").
bool is_manifest_file(std::string_view path);

// The embedded manifests, parsed and checked among themselves on first use (no code declared
// twice); modules sorted by id.
const std::vector<Manifest>& module_manifests();
const Manifest& platform_manifest();
const Manifest* find_module_manifest(std::string_view id);  // nullptr when none

// A code's declaration in any manifest (modules and platform); nullptr when none declares it.
const ErrorDecl* find_error(std::string_view code);
// The declaration of the code that refuses an id naming no record of `table` (its "record");
// nullptr when none declares one.
const ErrorDecl* find_record_error(std::string_view table);
// A scope's consent texts from any manifest; nullptr when none gives them.
const ScopeText* find_scope_text(std::string_view scope);
// A module's settings (name -> JSON-Schema-like object), parsed from settings_json.
nlohmann::json module_settings(const Manifest& manifest);

// What the start-up checks need to know of a tool.
struct ToolFacts {
    std::string file;            // "co-owners/create_co_owner.json"
    std::string module;          // "co-owners"
    std::string required_scope;  // "write:co-owners"
    std::vector<std::string> field_codes;  // the "x-error-code"s of its input schema
};

// Throws std::logic_error naming the file at fault when a code is declared twice (across all the
// manifests), two codes are a record's of one table, a module has two manifests or tools but none, a tool's requiredScope has no consent
// text, a tool's schema names an "x-error-code" no manifest declares, or a module's "default" names
// a tool that is not its own.
void check_manifests(const std::vector<Manifest>& modules, const Manifest& platform, const std::vector<ToolFacts>& tools);

// The MCP initialize instructions: platform.json's text, then those of the modules the registry
// offers, in catalogue order.
std::string server_instructions(const ToolRegistry& registry);

}  // namespace syndic
