// A tool call's arguments, read by name: the one family of readers every handler uses (issue 26),
// in place of string-keyed reads of the JSON object. The schema has checked each argument's type
// before the handler runs, so these read without checking it again; what they add is what the
// schema cannot say (a text that is only spaces) and a refusal's field as the JSON Pointer of the
// argument, rows of a bulk call included ("/coOwners/3/firstName").
//
// Each reader also checks that the key is one the tool's input schema declares: a handler reading
// "unitID" for "unitId" would otherwise see the argument as absent and carry on. That is the
// program's error (std::logic_error), which any test reaching the read shows.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

class Arguments {
public:
    // `values`, an object of the call's arguments at JSON Pointer `pointer` ("" for the call's own);
    // `schema`, that object's JSON Schema, or null when a key may be anything. Both must outlive this.
    Arguments(const nlohmann::json& values, const nlohmann::json* schema, std::string pointer = {});
    // Arguments read a JSON object that outlives them, never a temporary.
    Arguments(nlohmann::json&& values, const nlohmann::json* schema, std::string pointer = {}) = delete;

    bool has(std::string_view key) const;      // given, null included (a patch's null clears)
    bool given(std::string_view key) const;    // given and not null
    bool is_null(std::string_view key) const;  // given as null

    // Text. `text` is for an argument the schema requires; an absent one is a std::logic_error.
    const std::string& text(std::string_view key) const;
    std::optional<std::string> optional_text(std::string_view key) const;  // absent or null: nullopt
    std::string text_or(std::string_view key, std::string otherwise) const;
    // Trimmed of (Unicode) spaces; VALIDATION_FAILED "cannot be blank" at the argument when none remain.
    std::string nonblank(std::string_view key) const;
    std::optional<std::string> optional_nonblank(std::string_view key) const;  // absent or null: nullopt
    // A text a patch may clear: absent nullopt (unchanged), null "" (cleared), otherwise trimmed.
    std::optional<std::string> patch_text(std::string_view key) const;

    // Numbers and booleans. An integral 2.0 arrives as 2 (the registry normalises it).
    std::int64_t integer(std::string_view key) const;
    std::optional<std::int64_t> optional_integer(std::string_view key) const;
    std::int64_t integer_or(std::string_view key, std::int64_t otherwise) const;
    double number(std::string_view key) const;
    std::optional<double> optional_number(std::string_view key) const;
    bool flag(std::string_view key, bool otherwise) const;  // absent or null: otherwise
    std::optional<bool> optional_flag(std::string_view key) const;

    // An array of texts; absent or null: none.
    std::vector<std::string> texts(std::string_view key) const;
    // A nested object, read the same way (its pointer and schema follow).
    Arguments object(std::string_view key) const;
    // An array of objects (a bulk call's rows), each at <pointer>/<key>/<i>; absent or null: none.
    std::vector<Arguments> rows(std::string_view key) const;
    // The argument as JSON (null when absent), for what is stored or compared as given.
    const nlohmann::json& value(std::string_view key) const;

    // The JSON Pointer of an argument, for a refusal's field: "/unitId", "/coOwners/3/unitId".
    std::string pointer(std::string_view key) const;
    const std::string& pointer() const { return pointer_; }
    // Every argument of this object, as given.
    const nlohmann::json& values() const { return values_; }

private:
    const nlohmann::json* find(std::string_view key) const;  // checked against the schema
    const nlohmann::json& required(std::string_view key) const;

    const nlohmann::json& values_;
    const nlohmann::json* schema_;
    std::string pointer_;
};

}  // namespace syndic
