// The next number of a record numbered per syndicate and year, "<prefix><year>-<N>" with N padded to
// `width` digits: R-2026-0042 (requests), P-2026-003 (projects). The highest number given so far in
// the year plus one, so an archived record keeps its number and none is given twice. Included only
// by module sources.
#pragma once
#include <string>

namespace syndic {

class Database;

// `table` has syndicate_id and number columns (a module's own table: the caller's constant).
std::string next_yearly_number(Database& db, const char* table, const std::string& syndicate_id, const std::string& prefix,
                               const std::string& year, int width);

}  // namespace syndic
