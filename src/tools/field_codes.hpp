// Codes tied to fields, declared in the tool schemas: a property may carry the private keyword
// "x-error-code": "INVALID_EMAIL" (a code its module's manifest declares), and a value of a type
// the property allows that fails its other keywords is refused with that code instead of
// VALIDATION_FAILED. Knows schemas and JSON Pointers; not tools, manifests or the wire.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace syndic {

inline constexpr const char* error_code_keyword = "x-error-code";

// The code the property at `pointer` ("/coOwners/3/email") of `input_schema` gives to `value`
// when it fails there; nullopt when the property has no code or the value's type is not one it
// allows (a wrong type stays VALIDATION_FAILED).
std::optional<std::string> field_error_code(const nlohmann::json& input_schema, const std::string& pointer,
                                            const nlohmann::json& value);
// Every "x-error-code" a schema names, wherever it nests (the start-up check looks each one up).
std::vector<std::string> field_error_codes(const nlohmann::json& schema);

}  // namespace syndic
