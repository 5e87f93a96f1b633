#include "core/json_parse.hpp"

#include <nlohmann/json.hpp>

#include <set>
#include <vector>

#include "core/text.hpp"

namespace syndic {

using nlohmann::json;

json parse_json(std::string_view text, JsonLimits limits) {
    using Kind = JsonParseError::Kind;
    if (json_nesting_depth(text, limits.max_depth) > limits.max_depth)
        throw JsonParseError(Kind::too_deep, "nests arrays and objects more than " + std::to_string(limits.max_depth) + " levels deep.");
    if (json_value_count(text, limits.max_values) > limits.max_values)
        throw JsonParseError(Kind::too_many_values, "holds more than " + std::to_string(limits.max_values) +
                                                        " values (arrays, objects, strings, numbers...).");
    // A raw NUL is never valid JSON, but nlohmann's parser takes it for the end of the text.
    if (text.find('\0') != std::string_view::npos) throw JsonParseError(Kind::syntax, "is not valid JSON (a NUL byte).");
    // The keys seen in each object being read, innermost last: nlohmann keeps the last of two
    // equal keys silently, where another reader may keep the first.
    std::vector<std::set<std::string>> open;
    const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) open.emplace_back();
        else if (event == json::parse_event_t::object_end && !open.empty()) open.pop_back();
        else if (event == json::parse_event_t::key && !open.empty() &&
                 !open.back().insert(parsed.get_ref<const std::string&>()).second)
            throw JsonParseError(Kind::duplicate_key,
                                 "is not valid JSON: the key \"" + parsed.get_ref<const std::string&>().substr(0, 100) +
                                     "\" appears twice in one object.");
        return true;
    };
    try {
        return json::parse(text, check);
    } catch (const json::exception&) {  // syntax errors, and numbers no double can hold
        throw JsonParseError(Kind::syntax, "is not valid JSON.");
    }
}

}  // namespace syndic
