// The id-like arguments of a tool's input schema (a property named `id` or ending in `Id`, also
// inside objects and array items) with what each declares it names ("x-references",
// docs/decisions.md "Seeds and x-references"): a tenant table, null for no table, or
// {"kindFrom": "<sibling>"} for a record of the kind a sibling argument names. Read by the tenancy
// sweep, which fills ids with records of the table they name, and by the schema rule that every id
// declares it. Knows JSON schemas, not the registry.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace syndic::test::id_arguments {

using nlohmann::json;

inline bool accepts(const json& schema, const std::string& type) {
    const auto t = schema.find("type");
    if (t == schema.end()) return false;
    if (t->is_string()) return *t == type;
    return std::find(t->begin(), t->end(), type) != t->end();
}

inline bool is_id_name(const std::string& name) {
    return name == "id" || (name.size() > 2 && name.compare(name.size() - 2, 2, "Id") == 0);
}

// An id-like argument: its place in the arguments ("0" is an array's first item), whether every
// step of it is required, and its "x-references" (`declared` false when it has none).
struct IdPath {
    std::vector<std::string> steps;
    bool required = true;
    bool declared = false;
    json reference;
    std::string name() const { return steps.back(); }
    // The table it names; empty for null, a kind named by a sibling, or none declared.
    std::string table() const { return reference.is_string() ? reference.get<std::string>() : ""; }
    // The sibling argument naming its record's kind ({"kindFrom": "recordType"}); empty otherwise.
    std::string kind_from() const {
        return reference.is_object() && reference.contains("kindFrom") && reference["kindFrom"].is_string()
                   ? reference["kindFrom"].get<std::string>()
                   : "";
    }
    std::string pointer() const {
        std::string out;
        for (const auto& step : steps) out += "/" + step;
        return out;
    }
};

inline void collect_ids(const json& schema, const std::vector<std::string>& prefix, bool required, std::vector<IdPath>& out) {
    if (!schema.contains("properties")) return;
    const auto needed = schema.value("required", json::array());
    for (const auto& [name, sub] : schema["properties"].items()) {
        auto steps = prefix;
        steps.push_back(name);
        const bool req = required && std::find(needed.begin(), needed.end(), name) != needed.end();
        if (is_id_name(name) && accepts(sub, "string")) {
            const auto ref = sub.find("x-references");
            out.push_back({steps, req, ref != sub.end(), ref != sub.end() ? *ref : json()});
        } else if (accepts(sub, "object")) {
            collect_ids(sub, steps, req, out);
        } else if (accepts(sub, "array") && sub.contains("items")) {
            steps.push_back("0");
            collect_ids(sub["items"], steps, req && sub.value("minItems", 0) > 0, out);
        }
    }
}

// `schema` with every local reference ("$ref": "#/...", shared fragments) replaced by what it
// names, so the walk below sees every property wherever it is declared.
inline json inlined(const json& schema, const json& root, int depth = 0) {
    if (depth > 32) throw std::runtime_error("a schema reference loops");
    if (schema.is_array()) {
        json out = json::array();
        for (const auto& item : schema) out.push_back(inlined(item, root, depth + 1));
        return out;
    }
    if (!schema.is_object()) return schema;
    json out = json::object();
    if (schema.contains("$ref") && schema["$ref"].is_string() && schema["$ref"].get<std::string>().rfind("#/", 0) == 0)
        out = inlined(root.at(json::json_pointer(schema["$ref"].get<std::string>().substr(1))), root, depth + 1);
    for (const auto& [key, value] : schema.items())
        if (key != "$ref") out[key] = inlined(value, root, depth + 1);
    return out;
}

// Every id-like argument of an input schema (its references inlined first).
inline std::vector<IdPath> id_paths(const json& input_schema) {
    std::vector<IdPath> paths;
    collect_ids(inlined(input_schema, input_schema), {}, true, paths);
    return paths;
}

// The schema of the object holding the argument at `path` (where its sibling lives).
inline const json& parent_schema(const json& input_schema, const IdPath& path) {
    const json* s = &input_schema;
    for (std::size_t i = 0; i + 1 < path.steps.size(); ++i)
        s = path.steps[i] == "0" ? &s->at("items") : &s->at("properties").at(path.steps[i]);
    return *s;
}

}  // namespace syndic::test::id_arguments
