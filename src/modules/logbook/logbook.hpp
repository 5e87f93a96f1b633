// The maintenance logbook module (catalogue §4.7; art. 1070.2, Reg. 991-2025): the inventory of the
// building's components, the maintenance due and done, inspections, the logbook's revisions, and
// the 25-year plan of major works against the contingency fund. Knows the ledger (accounting), the
// funds' studies, the declaration, the documents and the governance questions.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_logbook_module(ToolTable& table);

}  // namespace syndic
