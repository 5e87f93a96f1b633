// Whether a co-owner record is active (not archived) in a syndicate: the question other modules
// ask of the register of co-owners when a call names a co-owner (the declaration's developer and
// the consents to an amendment). Knows storage; not JSON.
#pragma once
#include <string>

namespace syndic {
class Database;
}

namespace syndic::co_owners {

bool is_active_co_owner(Database& db, const std::string& syndicate_id, const std::string& co_owner_id);

}  // namespace syndic::co_owners
