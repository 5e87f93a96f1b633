// The syndicate's insurance policies: property, civil liability, directors and officers; their
// coverages per peril in cents, and the two dates a board must not miss (the renewal, and the
// 5-yearly reconstruction-cost appraisal). Knows storage and core; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_insurance_module(ToolTable& table);

}  // namespace syndic
