// The tool registry: descriptors loaded from the embedded schemas/, one handler bound per tool,
// argument validation before any handler runs, scope and role checks, and the module subset a
// server offers. Knows the domain only through handlers; knows nothing of JSON-RPC.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "core/clock.hpp"
#include "core/context.hpp"
#include "core/error.hpp"

namespace syndic {

class Database;
class ToolRegistry;
class Arguments;  // tools/arguments.hpp
struct NamedEvent;  // events/event_log.hpp

// What a long call may use to talk back: progress (empty when the caller asked for none) and
// whether the caller has given up.
struct CallControl {
    std::function<void(double done, double total)> progress;
    std::function<bool()> cancelled;
};

struct ToolCall {
    const nlohmann::json& args;
    const CallerContext& caller;
    Database& db;
    const Clock& clock;
    const ToolRegistry& registry;
    const CallControl& control;

    std::vector<NamedEvent>* named_events = nullptr;  // null for a read-only call
    const nlohmann::json* input_schema = nullptr;     // the tool's; null: any key may be read

    // The arguments, read by name against the tool's input schema (tools/arguments.hpp).
    Arguments arguments() const;

    void report_progress(double done, double total) const;
    void throw_if_cancelled() const;  // DomainError CANCELLED
    // Names the event of section 6 a record gets for this call, when its change alone does not
    // say it (meeting.held rather than meeting.updated), or for a record the call did not change
    // itself (the meeting of recorded attendance). std::logic_error for a name not in section 6.
    void name_event(std::string type, std::string record_type, std::string record_id) const;
};

// What a handler returns: a JSON value, or the compact JSON text of one that the handler wrote
// itself (JsonWriter), so a large result is never built as a document.
class ToolResult {
public:
    ToolResult(nlohmann::json value);  // NOLINT: handlers return plain JSON values
    static ToolResult text(std::string json_text);
    ToolResult(ToolResult&&) noexcept;
    ToolResult& operator=(ToolResult&&) noexcept;
    ~ToolResult();

    nlohmann::json take_value();  // parsed when it came as text
    std::string take_text();      // serialized when it came as a value

private:
    ToolResult() = default;
    std::unique_ptr<nlohmann::json> value_;  // null when the result came as text
    std::string text_;
};

using ToolHandler = std::function<ToolResult(const ToolCall&)>;

// The registration lines of every module: table.bind("create_unit", create_unit).
class ToolTable {
public:
    void bind(std::string name, ToolHandler handler) { entries_.emplace_back(std::move(name), handler); }
    const std::vector<std::pair<std::string, ToolHandler>>& entries() const { return entries_; }

    // A question a module asks that a module built on it answers, so the lower one never includes
    // the higher (the units' get_unit shows the declaration's restricted common portions): both
    // take the same named slot at registration, the one that answers fills it, the one that asks
    // reads it when called. Empty (a default Answer) while no module built answers it. The modules
    // register in any order (the generated list, tools/module_list.py). std::logic_error when the
    // name was taken with another type.
    template <class Answer>
    std::shared_ptr<Answer> question(const std::string& name) {
        auto& slot = questions_[name];
        if (!slot.value) slot = {std::make_shared<Answer>(), &typeid(Answer)};
        else if (*slot.type != typeid(Answer)) throw std::logic_error("question " + name + " taken with two types");
        return std::static_pointer_cast<Answer>(slot.value);
    }

private:
    struct Slot {
        std::shared_ptr<void> value;
        const std::type_info* type = nullptr;
    };
    std::vector<std::pair<std::string, ToolHandler>> entries_;
    std::map<std::string, Slot> questions_;
};

struct Tool;  // a schema file paired with its handler (registry.cpp)

// Where a tool answers as a REST route, below the base URL: "GET", "/co-owners/{id}"; each {name}
// segment fills the input property of that name.
struct HttpRoute {
    std::string method;
    std::string path;
    int success_status = 200;  // 201 for a route that creates a record
};

struct ToolInfo {
    std::string name;
    std::string module;
    std::string title;
    std::string required_scope;
    bool admin_only = false;
    bool read_only = false;
    HttpRoute http;
};

class ToolRegistry {
public:
    // Every tool of the embedded schemas, bound to the handlers of `table`; throws
    // std::logic_error when a schema has no handler, a handler no schema, a schema is malformed, or
    // the module manifests fail their checks (tools/manifests.hpp, check_manifests).
    // `modules` keeps only those modules and tools, each item a module id or a tool name (empty:
    // all; tools/surface.hpp, select_surface); an unknown one throws std::invalid_argument. `read_only` keeps only the tools whose annotations say readOnlyHint:
    // the others are neither listed nor callable.
    ToolRegistry(const ToolTable& table, const std::vector<std::string>& modules = {}, bool read_only = false);
    ~ToolRegistry();

    std::vector<ToolInfo> tools() const;               // offered tools, in catalogue order
    std::vector<std::string> all_modules() const;      // every module of the catalogue
    // The modules whose schemas are embedded (what all_modules() gives, without a registry).
    static std::vector<std::string> built_modules();
    std::vector<std::string> all_scopes() const;       // every scope a tool requires
    bool offers(std::string_view name) const;

    // The descriptors tools/list serves, in catalogue order; a nullable input, [T, "null"] in its
    // schema file, is served as T (one type per property; null is still accepted).
    const nlohmann::json& descriptors() const;
    // An offered tool's whole schema file (with requiredScope and http); std::out_of_range if none.
    const nlohmann::json& schema_document(std::string_view name) const;

    // Checks the caller's scope and role, validates the arguments, runs the handler. Throws
    // DomainError; an unknown or not offered tool throws std::out_of_range.
    nlohmann::json call(std::string_view name, const nlohmann::json& args, const CallerContext& caller,
                        Database& db, const Clock& clock, const CallControl& control = {}) const;
    // The same call, its result as compact JSON text (what the transports write).
    std::string call_text(std::string_view name, const nlohmann::json& args, const CallerContext& caller,
                          Database& db, const Clock& clock, const CallControl& control = {}) const;

    // Validates arguments against a tool's input schema (also for rows of a bulk call); throws
    // DomainError VALIDATION_FAILED, or the "x-error-code" of the failing field (INVALID_EMAIL...).
    void check_arguments(std::string_view name, const nlohmann::json& args) const;
    // A tool's input schema as its file writes it, offered or not (a bulk call's rows are read against
    // the single tool's); std::out_of_range if there is no such tool.
    const nlohmann::json& input_schema(std::string_view name) const;

    // When on, every result is checked against the tool's outputSchema (tests turn it on).
    void set_check_outputs(bool on) { check_outputs_ = on; }

private:
    const Tool& find(std::string_view name) const;
    ToolResult run(const Tool& tool, const nlohmann::json& args, const CallerContext& caller, Database& db,
                   const Clock& clock, const CallControl& control) const;
    void check_output(const Tool& tool, const nlohmann::json& result) const;

    std::vector<std::unique_ptr<Tool>> catalogue_;  // every tool, sorted by module then name
    std::vector<const Tool*> offered_;
    std::unique_ptr<nlohmann::json> descriptors_;
    bool check_outputs_ = false;
};

// Removes the keywords only this server reads ("x-multiline": a text field that may hold line
// breaks; "x-error-code": the code a field's failure gets, tools/field_codes.hpp; "x-references":
// the table an id names, read by the tests and the seeds, docs/decisions.md) from a schema,
// wherever they nest, before it is served to hosts or put in OpenAPI: strict validators refuse
// keywords they do not know, and hosts would pay for bytes no model needs.
void strip_private_keywords(nlohmann::json& schema);

}  // namespace syndic
