// The schemas' "pattern" keywords checked in linear time by RE2, not by valijson's std::regex
// (libstdc++'s backtracking executor: exponential on some patterns, recursive once per character,
// and the slowest part of validating a bulk of names and e-mails). The schema served to hosts keeps
// "pattern"; the validator's own copy names it linear_pattern_keyword, which add_linear_patterns
// teaches the parser. A failure reads as valijson's own, so codes and fields stay the same.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

namespace valijson {
class SchemaParser;
}

namespace syndic {

inline constexpr const char* linear_pattern_keyword = "x-linear-pattern";

// A copy of a schema for the validator: the "pattern" of every subschema (properties, items,
// combinations...) renamed linear_pattern_keyword. A property named "pattern" stays.
nlohmann::json with_linear_patterns(const nlohmann::json& schema);

// Makes `parser` check linear_pattern_keyword with RE2, failing with valijson's own message for
// "pattern" ("Failed to match regex specified by 'pattern' constraint.").
void add_linear_patterns(valijson::SchemaParser& parser);

// Throws std::logic_error naming `where` when RE2 cannot take `pattern` as ECMAScript means it
// (a back-reference, a look-around, \S inside brackets...): checked when the tools register.
void check_linear_pattern(const std::string& pattern, const std::string& where);

}  // namespace syndic
