#include "core/json_parse.hpp"

#include <nlohmann/json.hpp>

#include <vector>

#include "core/text.hpp"

namespace syndic {

using nlohmann::json;

namespace {

// The document, built in one pass by nlohmann's SAX parser (no callback per value, no copy of a
// key or a string): a key already present in its object is refused as it is read (nlohmann keeps
// the last of two equal keys silently, where another reader may keep the first), and a syntax
// error, or a number no double can hold, as "not valid JSON".
class DomBuilder {
public:
    explicit DomBuilder(json& root) : root_(root) {}

    bool null() { return put(nullptr); }
    bool boolean(bool value) { return put(value); }
    bool number_integer(json::number_integer_t value) { return put(value); }
    bool number_unsigned(json::number_unsigned_t value) { return put(value); }
    bool number_float(json::number_float_t value, const json::string_t&) { return put(value); }
    // The parser clears its buffer before reading the next token: its text can be taken.
    bool string(json::string_t& value) { return put(std::move(value)); }
    bool binary(json::binary_t& value) { return put(json::binary(std::move(value))); }
    bool start_object(std::size_t) {
        open_.push_back(place(json::object()));
        return true;
    }
    bool key(json::string_t& name) {
        auto& object = open_.back()->get_ref<json::object_t&>();
        const auto [slot, added] = object.try_emplace(std::move(name));  // not moved from when present
        if (!added)
            throw JsonParseError(JsonParseError::Kind::duplicate_key,
                                 "is not valid JSON: the key \"" + name.substr(0, 100) + "\" appears twice in one object.");
        member_ = &slot->second;
        return true;
    }
    bool end_object() {
        open_.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        open_.push_back(place(json::array()));
        return true;
    }
    bool end_array() {
        open_.pop_back();
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const json::exception&) {
        throw JsonParseError(JsonParseError::Kind::syntax, "is not valid JSON.");
    }

private:
    template <class T>
    bool put(T&& value) {
        place(json(std::forward<T>(value)));
        return true;
    }
    // Where a value read goes: the root, the end of the open array, or the member just named.
    // (An open container is only ever the last element of its parent: pointers stay valid.)
    json* place(json&& value) {
        if (open_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        json& parent = *open_.back();
        if (parent.is_array()) {
            auto& items = parent.get_ref<json::array_t&>();
            items.push_back(std::move(value));
            return &items.back();
        }
        *member_ = std::move(value);
        return member_;
    }

    json& root_;
    std::vector<json*> open_;
    json* member_ = nullptr;
};

}  // namespace

json parse_json(std::string_view text, JsonLimits limits) {
    using Kind = JsonParseError::Kind;
    if (json_nesting_depth(text, limits.max_depth) > limits.max_depth)
        throw JsonParseError(Kind::too_deep, "nests arrays and objects more than " + std::to_string(limits.max_depth) + " levels deep.");
    if (json_value_count(text, limits.max_values) > limits.max_values)
        throw JsonParseError(Kind::too_many_values, "holds more than " + std::to_string(limits.max_values) +
                                                        " values (arrays, objects, strings, numbers...).");
    // A raw NUL is never valid JSON, but nlohmann's parser takes it for the end of the text.
    if (text.find('\0') != std::string_view::npos) throw JsonParseError(Kind::syntax, "is not valid JSON (a NUL byte).");
    json root;
    DomBuilder builder(root);
    try {
        json::sax_parse(text, &builder);
    } catch (const json::exception&) {  // what the parser throws itself: numbers no double can hold...
        throw JsonParseError(Kind::syntax, "is not valid JSON.");
    }
    return root;
}

}  // namespace syndic
