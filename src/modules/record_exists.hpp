// "Does this id name a record of the caller's syndicate": the one check every module makes of an
// id it is given, and its one refusal. The code is the one a manifest declares for the table
// (schemas/<module>/module.json, an error's "record": {"table", "noun"}), the detail "No <noun> with
// id <id> in this syndicate.": the same for another syndicate's id as for an id that exists
// nowhere, so a refusal tells nothing of other syndicates. Included only by module sources.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace syndic {

class Database;

// Which records of the table count: any (archived ones too), or only active ones (deleted_at
// IS NULL; for a table that has the column).
enum class RecordState { any, active };

// The refusal for `id` at `field`. std::logic_error when no manifest declares a code for `table`
// (a module's bug, found by its first test).
DomainError record_not_found(std::string_view table, const std::string& id, const std::string& field,
                             RecordState state = RecordState::any);

// Whether `id` names a record of `table` in the syndicate, in `state`.
bool record_exists(Database& db, const std::string& syndicate_id, std::string_view table, const std::string& id,
                   RecordState state = RecordState::any);

// record_not_found unless record_exists.
void require_record_exists(Database& db, const std::string& syndicate_id, std::string_view table, const std::string& id,
                           const std::string& field, RecordState state = RecordState::any);

// require_record_exists for each id of a list argument, refused at `field`/<index>.
void require_records_exist(Database& db, const std::string& syndicate_id, std::string_view table, const std::vector<std::string>& ids,
                           const std::string& field, RecordState state = RecordState::any);

}  // namespace syndic
