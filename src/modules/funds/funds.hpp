// The funds module (catalogue §4.6): budgets consulted and adopted, the contingency fund studies,
// the authorisations to use the protected funds, and where each fund stands. Knows the ledger
// (accounting), the decisions (governance), the meetings, the insurance policies and the units.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_funds_module(ToolTable& table);

}  // namespace syndic
