#include "modules/yearly_number.hpp"

#include <SQLiteCpp/Statement.h>

#include <cstdio>

#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

std::string next_yearly_number(Database& db, const char* table, const std::string& syndicate_id, const std::string& prefix,
                               const std::string& year, int width) {
    const auto start = prefix + year + "-";
    auto q = db.prepare(std::string("SELECT coalesce(max(CAST(substr(number, ?3) AS INTEGER)), 0) + 1 FROM ") + table +
                        " WHERE syndicate_id = ?1 AND substr(number, 1, ?4) = ?2");
    bind_parameters(*q, syndicate_id, start, static_cast<std::int64_t>(start.size() + 1), static_cast<std::int64_t>(start.size()));
    q->executeStep();
    char digits[32];
    std::snprintf(digits, sizeof digits, "%0*lld", width, static_cast<long long>(q->getColumn(0).getInt64()));
    return start + digits;
}

}  // namespace syndic
