#include "modules/declaration/fiscal_year.hpp"

#include <array>

#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

bool ledger_has_entries(Database& db, const std::string& syndicate_id) {
    // The accounting module's journal (catalogue §4.4; accounting depends on the declaration, so
    // the question is asked of its table here rather than of its code).
    auto q = db.prepare("SELECT EXISTS (SELECT 1 FROM journal_entries WHERE syndicate_id = ?)");
    bind_parameters(*q, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getInt64() != 0;
}

bool is_month_day(const std::string& text) {
    if (text.size() != 5 || text[2] != '-') return false;
    for (const int i : {0, 1, 3, 4})
        if (text[i] < '0' || text[i] > '9') return false;
    const int month = (text[0] - '0') * 10 + (text[1] - '0');
    const int day = (text[3] - '0') * 10 + (text[4] - '0');
    constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month >= 1 && month <= 12 && day >= 1 && day <= days[static_cast<std::size_t>(month - 1)];
}

}  // namespace syndic
