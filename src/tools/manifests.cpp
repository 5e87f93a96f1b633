#include "tools/manifests.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/embedded.hpp"
#include "tools/registry.hpp"

namespace syndic {

using nlohmann::json;

namespace {

bool upper_code(const std::string& code) {
    return !code.empty() && code.front() >= 'A' && code.front() <= 'Z' &&
           std::all_of(code.begin(), code.end(), [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::string non_empty_string(const json& object, const char* key, const std::string& where, bool required = true) {
    if (!object.contains(key)) {
        if (required) throw std::logic_error(where + ": needs a non-empty string '" + key + "'");
        return {};
    }
    if (!object[key].is_string() || object[key].get<std::string>().empty())
        throw std::logic_error(where + ": '" + key + "' must be a non-empty string");
    return object[key];
}

const json& object_at(const json& doc, const char* key, const std::string& where) {
    static const json empty = json::object();
    if (!doc.contains(key)) return empty;
    if (!doc[key].is_object()) throw std::logic_error(where + ": '" + key + "' must be an object");
    return doc[key];
}

std::vector<ErrorDecl> parse_errors(const json& doc, const std::string& where) {
    std::vector<ErrorDecl> out;
    for (const auto& [code, entry] : object_at(doc, "errors", where).items()) {
        const std::string at = where + ": errors." + code;
        if (!upper_code(code)) throw std::logic_error(at + ": a code is written in capitals, digits and _");
        if (!entry.is_object()) throw std::logic_error(at + " must be an object {status, description}");
        if (!entry.contains("status") || !entry["status"].is_number_integer())
            throw std::logic_error(at + " has no HTTP status");
        const int status = entry["status"];
        if (status < 400 || status > 599) throw std::logic_error(at + ": status must be 400..599");
        ErrorDecl e{code, status, non_empty_string(entry, "description", at)};
        if (entry.contains("layer")) {
            e.layer = non_empty_string(entry, "layer", at);
            if (e.layer != "tool" && e.layer != "http" && e.layer != "protocol")
                throw std::logic_error(at + ": layer must be tool, http or protocol");
        }
        if (entry.contains("record")) {
            const auto& record = entry["record"];
            if (!record.is_object()) throw std::logic_error(at + ": record must be an object {table, noun, activeNoun}");
            e.record_table = non_empty_string(record, "table", at + ".record");
            e.record_noun = non_empty_string(record, "noun", at + ".record");
            e.record_active_noun = non_empty_string(record, "activeNoun", at + ".record", false);
            if (status != 404) throw std::logic_error(at + ": a code for an id naming no record answers 404");
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<ScopeText> parse_scopes(const json& doc, const std::string& where) {
    std::vector<ScopeText> out;
    for (const auto& [name, entry] : object_at(doc, "scopes", where).items()) {
        const std::string at = where + ": scopes." + name;
        if (!entry.is_object()) throw std::logic_error(at + " must be an object {fr, en}");
        out.push_back({name, non_empty_string(entry, "fr", at), non_empty_string(entry, "en", at)});
    }
    return out;
}

std::vector<std::string> parse_depends_on(const json& doc, const std::string& id, const std::string& where) {
    std::vector<std::string> out;
    if (!doc.contains("dependsOn")) return out;
    const auto& list = doc["dependsOn"];
    if (!list.is_array()) throw std::logic_error(where + ": 'dependsOn' must be an array of module ids");
    for (const auto& entry : list) {
        if (!entry.is_string() || entry.get<std::string>().empty())
            throw std::logic_error(where + ": 'dependsOn' must be an array of module ids");
        const auto other = entry.get<std::string>();
        if (other == id) throw std::logic_error(where + ": dependsOn names the module itself");
        if (std::find(out.begin(), out.end(), other) != out.end())
            throw std::logic_error(where + ": dependsOn names " + other + " twice");
        out.push_back(other);
    }
    return out;
}

struct LoadedManifests {
    std::vector<Manifest> modules;
    Manifest platform;
};

LoadedManifests load() {
    LoadedManifests loaded;
    bool has_platform = false;
    for (const auto& file : embedded_schemas()) {
        if (!is_manifest_file(file.name)) continue;
        auto manifest = parse_manifest(file.name, file.content);
        if (manifest.id.empty()) {
            loaded.platform = std::move(manifest);
            has_platform = true;
        } else {
            loaded.modules.push_back(std::move(manifest));
        }
    }
    if (!has_platform) throw std::logic_error("schemas/platform.json is not embedded");
    std::sort(loaded.modules.begin(), loaded.modules.end(), [](const Manifest& a, const Manifest& b) { return a.id < b.id; });
    check_manifests(loaded.modules, loaded.platform, {});
    return loaded;
}

const LoadedManifests& loaded() {
    static const LoadedManifests manifests = load();
    return manifests;
}

}  // namespace

bool is_manifest_file(std::string_view path) {
    if (path == "platform.json") return true;
    const auto slash = path.find('/');
    return slash != std::string_view::npos && path.find('/', slash + 1) == std::string_view::npos &&
           path.substr(slash + 1) == "module.json";
}

Manifest parse_manifest(std::string_view file, std::string_view text) {
    const std::string where = "schemas/" + std::string(file);
    if (!is_manifest_file(file)) throw std::logic_error(where + ": a manifest is schemas/<module>/module.json or schemas/platform.json");
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        throw std::logic_error(where + ": not JSON (" + e.what() + ")");
    }
    if (!doc.is_object()) throw std::logic_error(where + ": not a JSON object");
    static const std::set<std::string> known = {"module", "title",  "default",  "instructions",
                                                "scopes", "errors", "settings", "dependsOn"};
    for (const auto& [key, value] : doc.items())
        if (!known.count(key)) throw std::logic_error(where + ": unknown key '" + key + "'");

    Manifest m;
    m.file = std::string(file);
    m.instructions = non_empty_string(doc, "instructions", where);
    m.errors = parse_errors(doc, where);
    m.scopes = parse_scopes(doc, where);
    m.settings_json = object_at(doc, "settings", where).dump();
    if (file == "platform.json") {
        for (const char* key : {"module", "title", "default", "settings", "dependsOn"})
            if (doc.contains(key)) throw std::logic_error(where + ": '" + key + "' belongs in a module's manifest");
        return m;
    }
    m.id = non_empty_string(doc, "module", where);
    const auto folder = std::string(file.substr(0, file.find('/')));
    if (m.id != folder)
        throw std::logic_error(where + ": \"module\" is '" + m.id + "' but the folder is '" + folder + "'");
    m.title = non_empty_string(doc, "title", where);
    // true: the module is in the default set; false: it is not; a list: these of its tools are.
    const auto given = doc.find("default");
    if (given == doc.end() || !(given->is_boolean() || given->is_array()))
        throw std::logic_error(where + ": needs 'default', true, false or a list of its tools in the default set");
    if (given->is_boolean()) m.is_default = *given;
    for (const auto& tool : given->is_array() ? *given : json::array()) {
        if (!tool.is_string() ||
            std::find(m.default_tools.begin(), m.default_tools.end(), tool.get<std::string>()) != m.default_tools.end())
            throw std::logic_error(where + ": 'default' lists tool names, each once");
        m.default_tools.push_back(tool.get<std::string>());
    }
    m.depends_on = parse_depends_on(doc, m.id, where);
    for (const auto& [name, setting] : object_at(doc, "settings", where).items())
        if (!setting.is_object() || !setting.contains("type") || !setting.contains("default") || !setting.contains("description"))
            throw std::logic_error(where + ": settings." + name + " needs a type, a default and a description");
    return m;
}

const std::vector<Manifest>& module_manifests() { return loaded().modules; }

const Manifest& platform_manifest() { return loaded().platform; }

const Manifest* find_module_manifest(std::string_view id) {
    for (const auto& m : module_manifests())
        if (m.id == id) return &m;
    return nullptr;
}

const ErrorDecl* find_error(std::string_view code) {
    for (const auto& e : platform_manifest().errors)
        if (e.code == code) return &e;
    for (const auto& m : module_manifests())
        for (const auto& e : m.errors)
            if (e.code == code) return &e;
    return nullptr;
}

const ErrorDecl* find_record_error(std::string_view table) {
    for (const auto& m : module_manifests())
        for (const auto& e : m.errors)
            if (e.record_table == table) return &e;
    for (const auto& e : platform_manifest().errors)
        if (e.record_table == table) return &e;
    return nullptr;
}

const ScopeText* find_scope_text(std::string_view scope) {
    for (const auto& s : platform_manifest().scopes)
        if (s.name == scope) return &s;
    for (const auto& m : module_manifests())
        for (const auto& s : m.scopes)
            if (s.name == scope) return &s;
    return nullptr;
}

json module_settings(const Manifest& manifest) { return json::parse(manifest.settings_json); }

void check_manifests(const std::vector<Manifest>& modules, const Manifest& platform, const std::vector<ToolFacts>& tools) {
    std::map<std::string, std::string> code_file, scope_file, record_code;
    std::set<std::string> ids;
    std::vector<const Manifest*> all{&platform};
    for (const auto& m : modules) {
        if (!ids.insert(m.id).second) throw std::logic_error("schemas/" + m.file + ": module '" + m.id + "' has two manifests");
        all.push_back(&m);
    }
    for (const auto* m : all) {
        for (const auto& e : m->errors) {
            const auto [it, added] = code_file.emplace(e.code, m->file);
            if (!added)
                throw std::logic_error("schemas/" + m->file + ": code " + e.code + " is already declared in schemas/" + it->second);
            if (e.record_table.empty()) continue;
            const auto [table, first] = record_code.emplace(e.record_table, e.code);
            if (!first)
                throw std::logic_error("schemas/" + m->file + ": " + e.code + " and " + table->second +
                                       " are both the not-found code of the records of " + e.record_table);
        }
        for (const auto& s : m->scopes) {
            const auto [it, added] = scope_file.emplace(s.name, m->file);
            if (!added)
                throw std::logic_error("schemas/" + m->file + ": scope " + s.name + " already has its texts in schemas/" + it->second);
        }
    }
    std::set<std::string> tool_files;
    for (const auto& t : tools) tool_files.insert(t.file);
    for (const auto& m : modules)
        for (const auto& name : m.default_tools)
            if (!tools.empty() && !tool_files.count(m.id + "/" + name + ".json"))  // (the manifests alone: no tools)
                throw std::logic_error("schemas/" + m.file + ": 'default' names " + name + ", which is not one of its tools");
    for (const auto& t : tools) {
        if (!ids.count(t.module))
            throw std::logic_error("schemas/" + t.file + ": module '" + t.module + "' has tools but no schemas/" + t.module + "/module.json");
        if (!scope_file.count(t.required_scope))
            throw std::logic_error("schemas/" + t.file + ": requiredScope " + t.required_scope +
                                   " has no consent texts in any manifest (\"scopes\" of schemas/" + t.module + "/module.json)");
        for (const auto& code : t.field_codes)
            if (!code_file.count(code))
                throw std::logic_error("schemas/" + t.file + ": x-error-code " + code + " is declared in no manifest");
    }
}

std::string server_instructions(const ToolRegistry& registry) {
    std::string text = platform_manifest().instructions;
    std::vector<std::string> served;
    for (const auto& tool : registry.tools())
        if (std::find(served.begin(), served.end(), tool.module) == served.end()) served.push_back(tool.module);
    for (const auto& id : served)
        if (const auto* m = find_module_manifest(id)) text += "\n" + m->title + ": " + m->instructions;
    return text;
}

}  // namespace syndic
