#include "tools/registry.hpp"

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <functional>
#include <mutex>
#include <optional>
#include <map>
#include <set>
#include <stdexcept>

#include "core/embedded.hpp"
#include "core/text.hpp"
#include "events/event_log.hpp"
#include "events/event_types.hpp"
#include "storage/audit_trail.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"
#include "tools/field_codes.hpp"
#include "tools/descriptor_checks.hpp"
#include "tools/linear_patterns.hpp"
#include "tools/manifests.hpp"
#include "tools/seeds.hpp"

namespace syndic {

using nlohmann::json;

struct Tool {
    std::string module;
    std::string file;
    json document;  // the schema file as embedded
    ToolHandler handler;
    ToolInfo info;
    std::vector<std::string> events;  // the events of section 6 its writes emit ("events")

    mutable std::once_flag input_once, output_once;
    mutable valijson::Schema input_schema, output_schema;
};

namespace {

const valijson::Schema& compiled(std::once_flag& once, valijson::Schema& schema, const json& source) {
    std::call_once(once, [&] {
        // The validator's copy checks its patterns with RE2, in linear time (tools/linear_patterns).
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        add_linear_patterns(parser);
        const json linear = with_linear_patterns(source);
        valijson::adapters::NlohmannJsonAdapter adapter(linear);
        parser.populateSchema(adapter, schema);
    });
    return schema;
}

// A control character of a property name (U+0000 most of all: the fuzz target sent one) is shown
// as the text \u0000, so a refusal's field and detail, which a bulk returns in its result, hold no
// control character; such a name is never a property, so it is only ever shown, never looked up.
std::string pointer_token(std::string token) {
    std::string out;
    for (char c : token) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += escaped;
        } else out += c;
    }
    return out;
}

// valijson's context ["<root>", "[coOwners]", "[3]", "[email]"] as "/coOwners/3/email".
std::string to_pointer(const std::vector<std::string>& context) {
    std::string pointer;
    for (const auto& part : context) {
        if (part.size() >= 2 && part.front() == '[' && part.back() == ']')
            pointer += "/" + pointer_token(part.substr(1, part.size() - 2));
    }
    return pointer;
}

// The property a "Missing required property 'x'." or "...constraints: 'x'." message names.
std::optional<std::string> quoted_property(const std::string& description, const std::string& lead) {
    const auto at = description.find(lead);
    if (at == std::string::npos) return std::nullopt;
    const auto start = at + lead.size();
    const auto end = description.rfind('\'');
    if (end == std::string::npos || end < start) return std::nullopt;
    return description.substr(start, end - start);
}

constexpr const char* reason_required = "is required";
constexpr const char* reason_unknown_property = "is not a known property";

// What must be refused before valijson sees the value: strings longer than their maxLength
// (valijson would still run their pattern, and libstdc++'s regex recurses once per character),
// strings holding U+0000 (no field of any register has a use for it, and C strings — the PDF
// minutes, the logs — would end there) or another control character, or a bidi override (what
// is shown would not be what is stored), and integers beyond 64 bits (read as signed, they would
// wrap around). Tab, line feed and carriage return are for the fields whose schema says
// "x-multiline": true (a resolution's text, notes); names, e-mails, numbers hold one line. White
// space around the text is trimmed when stored, so it is not looked at.
std::string forbidden_reason(char32_t c) {
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
    if (is_bidi_override(c)) return std::string("contains a text-direction override (") + code + ")";
    if (c == '\t' || c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029)
        return std::string("contains a line break or tab (") + code + "); this field holds one line";
    if (is_invisible_character(c))
        return std::string("contains an invisible character (") + code + "); this field holds text as it is shown";
    return std::string("contains a control character (") + code + ")";
}

// `input`: the text rules apply to arguments only (a result may quote what older versions stored).
void precheck(const json* schema, const json& value, const std::string& pointer, std::vector<FieldError>& out, bool input) {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
        out.push_back({pointer, "is too large"});
    } else if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        const bool multi_line = schema && schema->is_object() && schema->value("x-multiline", false);
        if (text.find('\0') != std::string::npos) out.push_back({pointer, "contains a NUL character (U+0000)"});
        else if (const auto c = input ? forbidden_text_character(trim(text), multi_line) : std::nullopt)
            out.push_back({pointer, forbidden_reason(*c)});
        else if (schema && schema->is_object() && schema->contains("maxLength") && (*schema)["maxLength"].is_number_unsigned() &&
            code_point_count(text) > (*schema)["maxLength"].get<std::size_t>())
            out.push_back({pointer, "is longer than " + std::to_string((*schema)["maxLength"].get<std::size_t>()) + " characters"});
    } else if (value.is_object()) {
        const json* properties = schema && schema->is_object() && schema->contains("properties") ? &(*schema)["properties"] : nullptr;
        for (const auto& [key, item] : value.items()) {
            const json* sub = properties && properties->contains(key) ? &(*properties)[key] : nullptr;
            precheck(sub, item, pointer + "/" + pointer_token(key), out, input);
        }
    } else if (value.is_array()) {
        const json* items = schema && schema->is_object() && schema->contains("items") ? &(*schema)["items"] : nullptr;
        for (std::size_t i = 0; i < value.size(); ++i) precheck(items, value[i], pointer + "/" + std::to_string(i), out, input);
    }
}

// valijson's "1.000000" as "1": a digit's ".000000" dropped.
std::string without_zero_decimals(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        out += text[i];
        if (text[i] >= '0' && text[i] <= '9' && text.compare(i + 1, 7, ".000000") == 0) i += 7;
    }
    return out;
}

std::vector<FieldError> schema_errors(const valijson::Schema& schema, const json& value, const json& source, bool input) {
    std::vector<FieldError> early;
    precheck(&source, value, "", early, input);
    if (!early.empty()) return early;

    // One validator per thread, kept (RE2 patterns are compiled with the schema, once).
    thread_local valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter adapter(value);
    try {
        if (validator.validate(schema, adapter, &results)) return {};
    } catch (const std::exception& e) {
        return {{"", std::string("could not be validated: ") + e.what()}};
    }

    std::vector<FieldError> raw;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
        const auto& d = error.description;
        if (d.rfind("Failed to validate against schema associated with property name", 0) == 0 ||
            d.rfind("Failed to validate item #", 0) == 0 || d.rfind("Failed to validate against child schema", 0) == 0)
            continue;  // wrappers around a more precise error
        std::string field = to_pointer(error.context);
        std::string reason = d;
        if (auto name = quoted_property(d, "Missing required property '")) {
            field += "/" + pointer_token(*name);
            reason = reason_required;
        } else if (auto extra = quoted_property(d, "'properties' or 'additionalProperties' constraints: '")) {
            field += "/" + pointer_token(*extra);
            reason = reason_unknown_property;
        }
        if (reason.rfind("Failed to match regex", 0) == 0) reason = "does not have the expected format";
        if (reason.rfind("Value type not permitted", 0) == 0) reason = "has the wrong type";
        while (!reason.empty() && reason.back() == '.') reason.pop_back();
        reason = without_zero_decimals(reason);
        if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
        raw.push_back({field, reason});
    }
    // Keep the deepest errors: drop one whose field is a strict prefix of another's.
    std::vector<FieldError> kept;
    for (const auto& e : raw) {
        const bool shadowed = std::any_of(raw.begin(), raw.end(), [&](const FieldError& other) {
            return other.field.size() > e.field.size() && other.field.rfind(e.field + "/", 0) == 0;
        });
        const bool repeated = std::any_of(kept.begin(), kept.end(), [&](const FieldError& k) {
            return k.field == e.field && k.reason == e.reason;
        });
        if (!shadowed && !repeated) kept.push_back(e);
    }
    return kept;
}

// A field whose schema names a code of its own ("x-error-code", tools/field_codes.hpp): an e-mail
// that is a string but not a valid address, a fraction that is a number outside 0..100.
std::string code_for(const FieldError& e, const json& args, const json& input_schema) {
    if (e.reason == reason_unknown_property || e.reason == reason_required) return codes::validation_failed;
    const json* value = nullptr;
    try {
        value = &args.at(json::json_pointer(e.field));
    } catch (const std::exception&) {
        return codes::validation_failed;
    }
    return field_error_code(input_schema, e.field, *value).value_or(codes::validation_failed);
}

bool holds_float(const json& value) {
    if (value.is_number_float()) return true;
    return value.is_structured() && std::any_of(value.begin(), value.end(), [](const json& v) { return holds_float(v); });
}

void integral_floats_to_integers(json& value) {
    if (value.is_number_float()) {
        const double d = value.get<double>();
        if (std::trunc(d) == d && std::fabs(d) < 9.0e15) value = static_cast<std::int64_t>(d);
    } else if (value.is_structured()) {
        for (auto& item : value) integral_floats_to_integers(item);
    }
}

// A route with its parameters' names left out, "GET /co-owners/{}": two routes of the same shape
// would answer the same requests.
std::string route_shape(const HttpRoute& route) {
    std::string shape = route.method + " ";
    bool in_name = false;
    for (const char c : route.path) {
        if (c == '}') in_name = false;
        if (!in_name) shape += c;
        if (c == '{') in_name = true;
    }
    return shape;
}

// A schema without the project's private keywords (an output record may embed input fields).
json public_schema(json schema) {
    strip_private_keywords(schema);
    return schema;
}

// The input schema as tools/list serves it: no private keywords, nullable types as their one type.
json portable_input_schema(json schema) {
    strip_private_keywords(schema);
    const std::function<void(json&)> collapse = [&](json& s) {
        if (s.is_object()) {
            if (s.contains("type") && s["type"].is_array())
                s["type"] = s["type"][0] == "null" ? s["type"][1] : s["type"][0];
            for (auto& [key, sub] : s.items()) collapse(sub);
        } else if (s.is_array()) {
            for (auto& sub : s) collapse(sub);
        }
    };
    collapse(schema);
    return schema;
}

}  // namespace

void ToolCall::report_progress(double done, double total) const {
    if (control.progress) control.progress(done, total);
}

void ToolCall::name_event(std::string type, std::string record_type, std::string record_id) const {
    if (!is_event_type(type)) throw std::logic_error("'" + type + "' is not an event of schemas/events.json");
    if (named_events) named_events->push_back({std::move(type), std::move(record_type), std::move(record_id)});
}

void ToolCall::throw_if_cancelled() const {
    if (control.cancelled && control.cancelled())
        throw DomainError(codes::cancelled, "The caller cancelled this request.");
}

ToolRegistry::ToolRegistry(const ToolTable& table, const std::vector<std::string>& modules, bool read_only) {
    for (const auto& file : embedded_schemas()) {
        const std::string path(file.name);
        // Shared shapes live in folders named records/ and are already embedded into the tools.
        if (path.rfind("records/", 0) == 0 || path.find("/records/") != std::string::npos) continue;
        if (is_manifest_file(path)) continue;  // tools/manifests reads those
        if (path == "presets.json") continue;  // the modules and presets --modules names (tools/surface)
        if (path == "events.json") continue;   // the events of section 6 (events/event_types)
        if (is_seed_file(path)) continue;      // a module's seed calls (tools/seeds)
        const auto slash = path.find('/');
        if (slash == std::string::npos || path.find('/', slash + 1) != std::string::npos)
            throw std::logic_error("schemas/" + path + ": a tool's schema is schemas/<module>/<tool name>.json");
        auto tool = std::make_unique<Tool>();
        tool->module = path.substr(0, slash);
        tool->file = path;
        tool->document = json::parse(file.content);
        check_descriptor(path, tool->module, tool->document);
        const auto& d = tool->document;
        tool->info = {d["name"], tool->module, d["title"], d["requiredScope"], d.value("adminOnly", false),
                      d["annotations"].value("readOnlyHint", false),
                      HttpRoute{d["http"]["method"], d["http"]["path"], d["http"].value("status", 200)}};
        if (const auto events = d.find("events"); events != d.end()) {
            for (const auto& name : *events) {
                if (!name.is_string() || !is_event_type(name.get<std::string>()))
                    throw std::logic_error("schemas/" + path + ": '" + name.dump() + "' is not an event of schemas/events.json");
                tool->events.push_back(name.get<std::string>());
            }
        }
        catalogue_.push_back(std::move(tool));
    }
    std::set<std::string> bound;
    for (const auto& [name, handler] : table.entries()) {
        auto it = std::find_if(catalogue_.begin(), catalogue_.end(),
                               // (an init-capture: clang 14 cannot capture a structured binding)
                               [&wanted = name](const auto& t) { return t->info.name == wanted; });
        if (it == catalogue_.end()) throw std::logic_error("handler without a schema: " + name);
        if (!bound.insert(name).second) throw std::logic_error("handler bound twice: " + name);
        (*it)->handler = handler;
    }
    std::vector<ToolFacts> facts;
    for (const auto& t : catalogue_)
        facts.push_back({t->file, t->module, t->info.required_scope, field_error_codes(t->document["inputSchema"])});
    check_manifests(module_manifests(), platform_manifest(), facts);
    std::map<std::string, const Tool*> names, shapes;
    for (const auto& t : catalogue_) {
        if (!t->handler) throw std::logic_error("schema without a handler: schemas/" + t->file);
        if (!names.emplace(t->info.name, t.get()).second) throw std::logic_error("tool name used twice: " + t->info.name);
        const auto [other, added] = shapes.emplace(route_shape(t->info.http), t.get());
        if (!added)
            throw std::logic_error("REST route used twice: " + t->info.http.method + " " + t->info.http.path + " (" +
                                   t->info.name + ", " + other->second->info.name + ")");
    }

    const auto known = all_modules();
    for (const auto& m : modules)
        if (std::find(known.begin(), known.end(), m) == known.end() && !names.count(m))
            throw std::invalid_argument("unknown module or tool '" + m + "' (modules: " + [&] {
                std::string list;
                for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
                return list;
            }() + ")");

    descriptors_ = std::make_unique<json>(json::array());
    for (const auto& t : catalogue_) {
        if (!modules.empty() && std::find(modules.begin(), modules.end(), t->module) == modules.end() &&
            std::find(modules.begin(), modules.end(), t->info.name) == modules.end())
            continue;
        if (read_only && !t->info.read_only) continue;
        offered_.push_back(t.get());
        const auto& d = t->document;
        descriptors_->push_back({{"name", d["name"]},
                                 {"title", d["title"]},
                                 {"description", d["description"]},
                                 {"inputSchema", portable_input_schema(d["inputSchema"])},
                                 {"outputSchema", public_schema(d["outputSchema"])},
                                 {"annotations", d["annotations"]}});
    }
}

ToolRegistry::~ToolRegistry() = default;

void strip_private_keywords(json& schema) {
    if (schema.is_object()) {
        schema.erase("x-multiline");
        schema.erase("x-references");
        schema.erase(error_code_keyword);
        for (auto& [key, value] : schema.items()) strip_private_keywords(value);
    } else if (schema.is_array()) {
        for (auto& value : schema) strip_private_keywords(value);
    }
}

std::vector<ToolInfo> ToolRegistry::tools() const {
    std::vector<ToolInfo> out;
    for (const auto* t : offered_) out.push_back(t->info);
    return out;
}

std::vector<std::string> ToolRegistry::built_modules() {
    std::vector<std::string> out;
    for (const auto& file : embedded_schemas()) {
        const std::string path(file.name);
        const auto slash = path.find('/');
        if (slash == std::string::npos || path.find("/records/") != std::string::npos) continue;
        const auto module = path.substr(0, slash);
        if (module != "records" && std::find(out.begin(), out.end(), module) == out.end()) out.push_back(module);
    }
    return out;
}

std::vector<std::string> ToolRegistry::all_modules() const {
    std::vector<std::string> out;
    for (const auto& t : catalogue_)
        if (std::find(out.begin(), out.end(), t->module) == out.end()) out.push_back(t->module);
    return out;
}

std::vector<std::string> ToolRegistry::all_scopes() const {
    std::set<std::string> scopes;
    for (const auto& t : catalogue_) scopes.insert(t->info.required_scope);
    return {scopes.begin(), scopes.end()};
}

bool ToolRegistry::offers(std::string_view name) const {
    return std::any_of(offered_.begin(), offered_.end(), [&](const Tool* t) { return t->info.name == name; });
}

const json& ToolRegistry::descriptors() const { return *descriptors_; }

const json& ToolRegistry::schema_document(std::string_view name) const { return find(name).document; }

const Tool& ToolRegistry::find(std::string_view name) const {
    for (const auto* t : offered_)
        if (t->info.name == name) return *t;
    throw std::out_of_range("unknown tool: " + std::string(name));
}

static void check_tool_arguments(const Tool& tool, const json& args);

// A tool of the catalogue, offered or not; std::out_of_range if none.
static const Tool& catalogued(const std::vector<std::unique_ptr<Tool>>& catalogue, std::string_view name) {
    for (const auto& t : catalogue)
        if (t->info.name == name) return *t;
    throw std::out_of_range("unknown tool: " + std::string(name));
}

void ToolRegistry::check_arguments(std::string_view name, const json& args) const {
    check_tool_arguments(catalogued(catalogue_, name), args);
}

const json& ToolRegistry::input_schema(std::string_view name) const {
    return catalogued(catalogue_, name).document["inputSchema"];
}

// check_arguments, for a tool found.
static void check_tool_arguments(const Tool& t, const json& args) {
    const Tool* tool = &t;
    const auto& source = tool->document["inputSchema"];
    const auto errors = schema_errors(compiled(tool->input_once, tool->input_schema, source), args, source, true);
    if (errors.empty()) return;

    std::string code = codes::validation_failed;
    const FieldError* first = &errors.front();
    for (const auto& e : errors) {
        const auto c = code_for(e, args, source);
        if (c != codes::validation_failed) {
            code = c;
            first = &e;
            break;
        }
    }
    std::string detail;
    if (code != codes::validation_failed) detail = find_error(code)->description;  // declared: start-up checks it
    else detail = "The arguments do not match the tool's input schema: " +
                  (first->field.empty() ? std::string("arguments") : first->field) + ": " + first->reason + ".";
    throw DomainError(code, detail).at(first->field).with_errors(errors);
}

ToolResult::ToolResult(json value) : value_(std::make_unique<json>(std::move(value))) {}
ToolResult::ToolResult(ToolResult&&) noexcept = default;
ToolResult& ToolResult::operator=(ToolResult&&) noexcept = default;
ToolResult::~ToolResult() = default;

ToolResult ToolResult::text(std::string json_text) {
    ToolResult r;
    r.text_ = std::move(json_text);
    return r;
}

json ToolResult::take_value() { return value_ ? std::move(*value_) : json::parse(text_); }

std::string ToolResult::take_text() {
    return value_ ? value_->dump(-1, ' ', false, json::error_handler_t::replace) : std::move(text_);
}

ToolResult ToolRegistry::run(const Tool& tool, const json& args, const CallerContext& caller, Database& db,
                             const Clock& clock, const CallControl& control) const {
    if (!caller.has_scope(tool.info.required_scope))
        throw DomainError(codes::insufficient_scope,
                          "This credential lacks the scope " + tool.info.required_scope + ".")
            .with("requiredScope", tool.info.required_scope);
    if (tool.info.admin_only && !caller.is_admin())
        throw DomainError(codes::admin_required, "Only a syndicate admin may call " + tool.info.name + ".");
    // JSON Schema counts 2.0 as an integer; so do we, and handlers see 2 (in a copy of the
    // arguments, made only when they hold a number with a fraction part).
    json copy;
    const bool has_float = holds_float(args);
    if (has_float) integral_floats_to_integers(copy = args);
    const json& normalized = has_float ? copy : args;
    check_tool_arguments(tool, normalized);
    // Storage that fails (full, read-only, not a database, locked beyond the busy timeout) is a
    // refusal naming the file and the cause, for stdio, MCP over HTTP and REST alike.
    return with_storage_refusals(db, [&]() -> ToolResult {
        // The handler opens no transaction of its own (HandlerScope makes one throw): the call's
        // is this one, and a failure anywhere in the handler rolls it back whole.
        if (tool.info.read_only) {
            const HandlerScope in_handler(db);
            return tool.handler(ToolCall{normalized, caller, db, clock, *this, control, nullptr, &tool.document["inputSchema"]});
        }

        // A write and its audit events are committed together, or not at all.
        WriteTransaction tx(db);
        ChangeRecorder recorder(db);
        std::vector<NamedEvent> named;
        ToolCall call{normalized, caller, db, clock, *this, control, &named, &tool.document["inputSchema"]};
        auto result = [&] {
            const HandlerScope in_handler(db);
            return tool.handler(call);
        }();
        // A call with neither key nor user is the program's own (the demo syndicate's seeding).
        const AuditActor actor = !caller.user_id.empty()    ? AuditActor{"user", caller.user_id, caller.client_id}
                                 : !caller.api_key_id.empty() ? AuditActor{"api-key", caller.api_key_id, ""}
                                                              : AuditActor{"system", "syndic-mcp", ""};
        const AuditContext context{caller.syndicate_id, actor, tool.info.name, to_utc_iso(clock.now())};
        std::vector<RecordChange> changes;
        recorder.write_events(context, &changes);
        // The events of section 6, in the same transaction: a refused call (thrown above) has none.
        std::optional<json> shown;
        write_call_events(db, context, tool.events, changes, named, [&]() -> const json& {
            if (!shown) shown = result.take_value();
            return *shown;
        });
        tx.commit();
        if (shown) return ToolResult(std::move(*shown));
        return result;
    });
}

void ToolRegistry::check_output(const Tool& tool, const json& result) const {
    const auto& source = tool.document["outputSchema"];
    const auto errors = schema_errors(compiled(tool.output_once, tool.output_schema, source), result, source, false);
    if (!errors.empty())
        throw std::logic_error(tool.info.name + " returned a result outside its outputSchema at '" +
                               errors.front().field + "': " + errors.front().reason);
}

json ToolRegistry::call(std::string_view name, const json& args, const CallerContext& caller, Database& db,
                        const Clock& clock, const CallControl& control) const {
    const Tool& tool = find(name);
    json result = run(tool, args, caller, db, clock, control).take_value();
    if (check_outputs_) check_output(tool, result);
    return result;
}

std::string ToolRegistry::call_text(std::string_view name, const json& args, const CallerContext& caller,
                                    Database& db, const Clock& clock, const CallControl& control) const {
    const Tool& tool = find(name);
    std::string result = run(tool, args, caller, db, clock, control).take_text();
    if (check_outputs_) check_output(tool, json::parse(result));
    return result;
}

}  // namespace syndic
