// The one parse of JSON text from outside (JSON-RPC lines and bodies, REST and OAuth bodies, JWT
// parts): bounded in depth and value count, no raw NUL, and no key twice in one object, so every
// reader of a message (a gateway, this server) reads the same call. Knows nlohmann::json only.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace syndic {

struct JsonLimits {
    std::size_t max_depth = 64;      // arrays and objects nested
    std::size_t max_values = 100000;  // values of any kind, counted before parsing
};

// Why a text was refused; what() ends a sentence begun by its subject ("The body ", "The line "):
// "is not valid JSON.", "nests arrays and objects more than 64 levels deep."...
struct JsonParseError : std::runtime_error {
    enum class Kind { syntax, duplicate_key, too_deep, too_many_values };
    JsonParseError(Kind kind, const std::string& predicate) : std::runtime_error(predicate), kind(kind) {}
    Kind kind;
};

// Parses `text`; throws JsonParseError. Depth and value count are checked before parsing (so no
// parser recursion or allocation grows past them), duplicate keys while parsing.
nlohmann::json parse_json(std::string_view text, JsonLimits limits);

}  // namespace syndic
