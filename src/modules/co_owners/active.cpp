#include "modules/co_owners/active.hpp"

#include <SQLiteCpp/Statement.h>

#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::co_owners {

bool is_active_co_owner(Database& db, const std::string& syndicate_id, const std::string& co_owner_id) {
    auto q = db.prepare("SELECT 1 FROM co_owners WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*q, co_owner_id, syndicate_id);
    return q->executeStep();
}

}  // namespace syndic::co_owners
