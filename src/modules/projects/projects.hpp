// The projects module (catalogue §4.8): works on the building from proposal to warranty, decided
// with the majority they need, awarded under the licence, insurance and interest checks, paid
// through the ledger with a holdback, and closed into the logbook. Knows the ledger (accounting),
// the declaration's tendering rule, the documents, the governance questions and the logbook.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_projects_module(ToolTable& table);

}  // namespace syndic
