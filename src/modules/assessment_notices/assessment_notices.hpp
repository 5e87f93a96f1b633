// The assessment notices module (catalogue §4.5): what each lot owes for the year, drafted from the
// adopted budget, issued as charges of the ledger and PDFs e-mailed to the co-owners. Knows the
// budget (funds), the ledger (accounting), the documents and the outbox.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_assessment_notices_module(ToolTable& table);

}  // namespace syndic
