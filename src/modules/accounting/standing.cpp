#include "modules/accounting/standing.hpp"

#include <SQLiteCpp/Statement.h>

#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

Standing unit_standing(Database&, const std::string&, const std::string&, const std::string&) {
    // No ledger yet (the accounting batch, catalogue §4.4): no charge exists, so none is overdue.
    return Standing{};
}

Standing co_owner_standing(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                           const std::string& as_of) {
    auto q = db.prepare("SELECT unit_id FROM co_owners WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, co_owner_id, syndicate_id);
    if (!q->executeStep()) return Standing{};
    return unit_standing(db, syndicate_id, q->getColumn(0).getString(), as_of);
}

}  // namespace syndic::accounting
