// The declaration module's own error codes that are not among the core's (core/error.hpp names the
// older ones); schemas/declaration/module.json declares each with its status. The core codes stay
// reachable as declaration::codes:: too.
#pragma once
#include "core/error.hpp"

namespace syndic::declaration::codes {
using namespace ::syndic::codes;
inline constexpr const char* fraction_changed_since = "FRACTION_CHANGED_SINCE";
}  // namespace syndic::declaration::codes
