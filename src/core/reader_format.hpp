// Money and days as a reader writes them, in French or English: "1 234,56 $" (fr, non-breaking
// spaces) or "$1,234.56" (en); "1er mars 2027" or "March 1, 2027". The notices, the statements and
// their e-mails print with them.
#pragma once
#include <cstdint>
#include <string>

namespace syndic {

std::string format_money(std::int64_t cents, const std::string& language);

// "2027-03-01" as "1er mars 2027" (fr) or "March 1, 2027" (en).
std::string long_date(const std::string& day, const std::string& language);

}  // namespace syndic
