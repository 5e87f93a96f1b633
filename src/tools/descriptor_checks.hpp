// A tool's descriptor file (schemas/<module>/<tool>.json), checked at start-up: its names, its
// schemas (bounded linear patterns, one nullable type form, no combinators at the top) and its
// REST route. A descriptor that fails stops the program, naming the file.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace syndic {

void check_descriptor(const std::string& file, const std::string& module, const nlohmann::json& doc);

}  // namespace syndic
