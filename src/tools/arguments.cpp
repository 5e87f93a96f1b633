#include "tools/arguments.hpp"

#include <stdexcept>

#include "core/error.hpp"
#include "core/text.hpp"
#include "tools/registry.hpp"

namespace syndic {
namespace {

using nlohmann::json;

const json& absent_argument() {
    static const json null;
    return null;
}

// The schema of property `key` in an object's schema: its "properties", or those of an
// allOf/anyOf/oneOf branch; null when no branch declares it.
const json* declared_property(const json& schema, std::string_view key) {
    const std::string name(key);
    if (auto props = schema.find("properties"); props != schema.end() && props->is_object())
        if (auto it = props->find(name); it != props->end()) return &*it;
    for (const char* combinator : {"allOf", "anyOf", "oneOf"})
        if (auto branches = schema.find(combinator); branches != schema.end() && branches->is_array())
            for (const auto& branch : *branches)
                if (const json* found = declared_property(branch, key)) return found;
    return nullptr;
}

// Whether the schema says which keys an object has (otherwise any key may be read).
bool declares_keys(const json& schema) {
    if (schema.contains("properties")) return true;
    for (const char* combinator : {"allOf", "anyOf", "oneOf"})
        if (auto branches = schema.find(combinator); branches != schema.end() && branches->is_array())
            for (const auto& branch : *branches)
                if (declares_keys(branch)) return true;
    return false;
}

// The JSON Pointer token of a key (RFC 6901: ~ as ~0, / as ~1).
std::string argument_key_token(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

}  // namespace

Arguments::Arguments(const json& values, const json* schema, std::string pointer)
    : values_(values), schema_(schema && declares_keys(*schema) ? schema : nullptr), pointer_(std::move(pointer)) {}

const json* Arguments::find(std::string_view key) const {
    if (schema_ && !declared_property(*schema_, key))
        throw std::logic_error("A handler reads the argument " + pointer(key) + ", which its tool's input schema does not declare.");
    if (!values_.is_object()) return nullptr;
    const auto it = values_.find(std::string(key));
    return it == values_.end() ? nullptr : &*it;
}

const json& Arguments::required(std::string_view key) const {
    const json* v = find(key);
    if (!v || v->is_null())
        throw std::logic_error("A handler reads " + pointer(key) + " as required, and the call has none.");
    return *v;
}

bool Arguments::has(std::string_view key) const { return find(key) != nullptr; }

bool Arguments::given(std::string_view key) const {
    const json* v = find(key);
    return v && !v->is_null();
}

bool Arguments::is_null(std::string_view key) const {
    const json* v = find(key);
    return v && v->is_null();
}

const std::string& Arguments::text(std::string_view key) const {
    return required(key).get_ref<const std::string&>();
}

std::optional<std::string> Arguments::optional_text(std::string_view key) const {
    const json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return v->get<std::string>();
}

std::string Arguments::text_or(std::string_view key, std::string otherwise) const {
    auto v = optional_text(key);
    return v ? std::move(*v) : std::move(otherwise);
}

std::string Arguments::nonblank(std::string_view key) const {
    std::string text = trim(required(key).get<std::string>());
    if (text.empty()) {
        const auto field = pointer(key);
        throw invalid_argument(field, "cannot be blank", field + " cannot be blank.");
    }
    return text;
}

std::optional<std::string> Arguments::optional_nonblank(std::string_view key) const {
    if (!given(key)) return std::nullopt;
    return nonblank(key);
}

std::optional<std::string> Arguments::patch_text(std::string_view key) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    if (v->is_null()) return std::string();
    return trim(v->get<std::string>());
}

std::int64_t Arguments::integer(std::string_view key) const { return required(key).get<std::int64_t>(); }

std::optional<std::int64_t> Arguments::optional_integer(std::string_view key) const {
    const json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return v->get<std::int64_t>();
}

std::int64_t Arguments::integer_or(std::string_view key, std::int64_t otherwise) const {
    return optional_integer(key).value_or(otherwise);
}

double Arguments::number(std::string_view key) const { return required(key).get<double>(); }

std::optional<double> Arguments::optional_number(std::string_view key) const {
    const json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return v->get<double>();
}

bool Arguments::flag(std::string_view key, bool otherwise) const { return optional_flag(key).value_or(otherwise); }

std::optional<bool> Arguments::optional_flag(std::string_view key) const {
    const json* v = find(key);
    if (!v || v->is_null()) return std::nullopt;
    return v->get<bool>();
}

std::vector<std::string> Arguments::texts(std::string_view key) const {
    std::vector<std::string> out;
    if (const json* v = find(key); v && v->is_array())
        for (const auto& item : *v) out.push_back(item.get<std::string>());
    return out;
}

Arguments Arguments::object(std::string_view key) const {
    const json* v = find(key);
    return Arguments(v ? *v : absent_argument(), schema_ ? declared_property(*schema_, key) : nullptr, pointer(key));
}

std::vector<Arguments> Arguments::rows(std::string_view key) const {
    std::vector<Arguments> out;
    const json* v = find(key);
    if (!v || !v->is_array()) return out;
    const json* property = schema_ ? declared_property(*schema_, key) : nullptr;
    const json* items = nullptr;
    if (property)
        if (auto it = property->find("items"); it != property->end()) items = &*it;
    out.reserve(v->size());
    for (std::size_t i = 0; i < v->size(); ++i)
        out.emplace_back((*v)[i], items, pointer(key) + "/" + std::to_string(i));
    return out;
}

const json& Arguments::value(std::string_view key) const {
    const json* v = find(key);
    return v ? *v : absent_argument();
}

std::string Arguments::pointer(std::string_view key) const { return pointer_ + "/" + argument_key_token(key); }

Arguments ToolCall::arguments() const { return Arguments(args, input_schema); }

}  // namespace syndic
