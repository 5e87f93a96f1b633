// Whether the fiscal year start may still change (catalogue §3.1, update_declaration): not once
// the ledger has entries (FISCAL_YEAR_LOCKED). There is no ledger yet; the accounting module fills
// ledger_has_entries in when it brings its journal, and update_declaration needs no edit.
#pragma once
#include <string>

namespace syndic {

class Database;

// Whether the syndicate's ledger holds any entry. Always false until accounting exists.
bool ledger_has_entries(Database& db, const std::string& syndicate_id);

// Whether "MM-DD" is a day every year has (02-29 is not: a fiscal year cannot start on it).
bool is_month_day(const std::string& text);

}  // namespace syndic
