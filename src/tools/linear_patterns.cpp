#include "tools/linear_patterns.hpp"

#include <nlohmann/json.hpp>
#include <re2/re2.h>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>

#include <memory>
#include <new>
#include <stdexcept>

namespace syndic {
namespace {

using nlohmann::json;

// What valijson says when a "pattern" fails: tools/registry.cpp reads it as "does not have the
// expected format".
constexpr const char* pattern_failure = "Failed to match regex specified by 'pattern' constraint.";

// A schema pattern (ECMAScript, as libstdc++'s std::regex runs it on the bytes of a UTF-8 string)
// in RE2's syntax, to be run on bytes too (Latin-1): \s and \S spelt out as the six characters of
// the C locale's isspace (RE2's \s has no vertical tab), and "." as any byte but a line feed or a
// carriage return (ECMAScript's line terminators; RE2's "." takes a carriage return). Everything
// else RE2 reads as ECMAScript does, or refuses: back-references, look-arounds and \u escapes do
// not compile.
std::string to_re2(const std::string& pattern) {
    static constexpr const char* space = "\\t\\n\\v\\f\\r ";
    std::string out;
    bool in_class = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[++i];
            if (next == 's') out += in_class ? std::string(space) : "[" + std::string(space) + "]";
            else if (next == 'S' && !in_class) out += "[^" + std::string(space) + "]";
            else if (next == 'S') throw std::invalid_argument("\\S inside brackets");
            else (out += '\\') += next;
        } else if (in_class) {
            if (c == ']') in_class = false;
            out += c;
        } else if (c == '[') {
            in_class = true;
            out += c;
            if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
            if (i + 1 < pattern.size() && pattern[i + 1] == ']')
                throw std::invalid_argument("an empty class [] or [^] (ECMAScript's, not RE2's)");
        } else if (c == '.') {
            out += "[^\\n\\r]";
        } else {
            out += c;
        }
    }
    return out;
}

std::shared_ptr<const RE2> compile(const std::string& pattern) {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_log_errors(false);
    auto re = std::make_shared<const RE2>(to_re2(pattern), options);
    if (!re->ok()) throw std::invalid_argument(re->error());
    return re;
}

class LinearPattern : public valijson::constraints::PolyConstraint {
public:
    explicit LinearPattern(std::shared_ptr<const RE2> re) : re_(std::move(re)) {}

    bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                  valijson::ValidationResults* results) const override {
        if (!target.isString()) return true;  // as valijson's pattern: strings only
        const std::string text = target.asString();
        if (RE2::PartialMatch(text, *re_)) return true;  // a search, as std::regex_search
        if (results) results->pushError(context, pattern_failure);
        return false;
    }

private:
    Constraint* cloneInto(void* memory) const override { return new (memory) LinearPattern(*this); }
    std::size_t sizeOf() const override { return sizeof(LinearPattern); }

    std::shared_ptr<const RE2> re_;  // RE2 matches from many threads at once
};

class LinearPatternBuilder : public valijson::ConstraintBuilder {
public:
    valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
        if (!value.isString()) throw std::invalid_argument("a pattern is a string");
        return new LinearPattern(compile(value.asString()));
    }
};

void rename_patterns(json& schema) {
    if (!schema.is_object()) return;
    if (const auto it = schema.find("pattern"); it != schema.end() && it->is_string()) {
        schema[linear_pattern_keyword] = *it;
        schema.erase("pattern");
    }
    for (const char* map : {"properties", "patternProperties", "definitions", "$defs", "dependencies"})
        if (const auto it = schema.find(map); it != schema.end() && it->is_object())
            for (auto& [name, sub] : it->items()) rename_patterns(sub);
    for (const char* one : {"items", "additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if",
                            "then", "else", "allOf", "anyOf", "oneOf"})
        if (const auto it = schema.find(one); it != schema.end()) {
            if (it->is_array()) {
                for (auto& sub : *it) rename_patterns(sub);
            } else {
                rename_patterns(*it);
            }
        }
}

}  // namespace

json with_linear_patterns(const json& schema) {
    json copy = schema;
    rename_patterns(copy);
    return copy;
}

void add_linear_patterns(valijson::SchemaParser& parser) {
    parser.addConstraintBuilder(linear_pattern_keyword, new LinearPatternBuilder);  // the parser deletes it
}

void check_linear_pattern(const std::string& pattern, const std::string& where) {
    try {
        compile(pattern);
    } catch (const std::invalid_argument& e) {
        throw std::logic_error(where + ": the pattern " + pattern + " is not one RE2 runs as ECMAScript means it (" +
                               e.what() + "); schemas keep to RE2's syntax");
    }
}

}  // namespace syndic
