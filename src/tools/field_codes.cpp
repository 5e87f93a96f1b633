#include "tools/field_codes.hpp"

#include <nlohmann/json.hpp>

namespace syndic {

using nlohmann::json;

namespace {

// "/coOwners/3/email" as its tokens, ~1 and ~0 read back as / and ~.
std::vector<std::string> tokens(const std::string& pointer) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < pointer.size() && pointer[at] == '/';) {
        const auto next = pointer.find('/', at + 1);
        std::string token = pointer.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1), plain;
        for (std::size_t i = 0; i < token.size(); ++i) {
            if (token[i] == '~' && i + 1 < token.size()) plain += token[++i] == '1' ? '/' : '~';
            else plain += token[i];
        }
        out.push_back(plain);
        if (next == std::string::npos) break;
        at = next;
    }
    return out;
}

bool type_allows(const json& type, const json& value) {
    if (type.is_array()) {
        for (const auto& t : type)
            if (type_allows(t, value)) return true;
        return false;
    }
    if (!type.is_string()) return true;  // no type: any value is of an allowed type
    const auto& name = type.get_ref<const std::string&>();
    if (name == "string") return value.is_string();
    if (name == "number") return value.is_number();
    if (name == "integer") return value.is_number_integer();
    if (name == "boolean") return value.is_boolean();
    if (name == "null") return value.is_null();
    if (name == "object") return value.is_object();
    if (name == "array") return value.is_array();
    return false;
}

void collect(const json& schema, std::vector<std::string>& out) {
    if (schema.is_object()) {
        if (schema.contains(error_code_keyword) && schema[error_code_keyword].is_string()) out.push_back(schema[error_code_keyword]);
        for (const auto& [key, child] : schema.items())
            if (key != error_code_keyword) collect(child, out);
    } else if (schema.is_array()) {
        for (const auto& child : schema) collect(child, out);
    }
}

}  // namespace

std::optional<std::string> field_error_code(const json& input_schema, const std::string& pointer, const json& value) {
    const json* schema = &input_schema;
    for (const auto& token : tokens(pointer)) {
        if (schema->is_object() && schema->contains("properties") && (*schema)["properties"].contains(token))
            schema = &(*schema)["properties"][token];
        else if (schema->is_object() && schema->contains("items") && (*schema)["items"].is_object())
            schema = &(*schema)["items"];
        else
            return std::nullopt;
    }
    if (!schema->is_object() || !schema->contains(error_code_keyword) || !(*schema)[error_code_keyword].is_string())
        return std::nullopt;
    if (schema->contains("type") && !type_allows((*schema)["type"], value)) return std::nullopt;
    return (*schema)[error_code_keyword].get<std::string>();
}

std::vector<std::string> field_error_codes(const json& schema) {
    std::vector<std::string> out;
    collect(schema, out);
    return out;
}

}  // namespace syndic
