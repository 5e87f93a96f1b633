// The records a document may be attached to: the audit trail's record types (a table's rows as the
// trail names them, `record_type_of`), read from the schema so a module's new table counts with no
// edit here, less the credentials (api-key, user) and the documents' own tables. Knows storage.
#pragma once
#include <string>
#include <vector>

#include "core/context.hpp"

namespace syndic {
class Database;
}

namespace syndic::documents {

// The record types a document may be attached to, sorted.
std::vector<std::string> target_types(Database& db);

// Refuses with TARGET_NOT_FOUND (data.recordType, at `field`) unless `record_type` is one of
// target_types and `record_id` an active record of it (not archived) in the caller's syndicate.
void require_target(Database& db, const CallerContext& caller, const std::string& record_type,
                    const std::string& record_id, const std::string& field = "/recordId");

}  // namespace syndic::documents
