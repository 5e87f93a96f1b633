// Whether the fiscal year start may still change (catalogue §3.1, update_declaration): not once
// the ledger has entries (FISCAL_YEAR_LOCKED), since each entry's fiscal year and each closed
// year's bounds were set by it.
#pragma once
#include <string>

namespace syndic {

class Database;

// Whether the syndicate's ledger (the accounting module's journal) holds any entry.
bool ledger_has_entries(Database& db, const std::string& syndicate_id);

// Whether "MM-DD" is a day every year has (02-29 is not: a fiscal year cannot start on it).
bool is_month_day(const std::string& text);

}  // namespace syndic
