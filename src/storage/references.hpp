// The rows that still refer to a record, found from the schema's foreign keys (not a hand-kept
// list): a guard such as "a unit still used cannot be deleted" asks here, so a new table that
// references the record is counted without an edit to the guard. Knows SQL, not tools.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

class Database;

// One table's live rows referring to the record through one of its columns.
struct Reference {
    std::string table;   // the referring table, e.g. "co_owners"
    std::string column;  // its column holding the record's id, e.g. "unit_id"
    std::int64_t count;  // its live rows holding `id` there
};

// For every column of every table whose FOREIGN KEY points at `table`'s id (the referring tables
// in the order the schema created them), the rows holding `id` that are live: not archived (a
// `deleted_at` column, when the table has one, is null) and of `syndicate_id` (when the table
// has a `syndicate_id` column). Only columns with at least one such row are returned.
std::vector<Reference> live_references(Database& db, std::string_view table, const std::string& id,
                                       const std::string& syndicate_id);

}  // namespace syndic
