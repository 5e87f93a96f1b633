// The frozen history from before migrations were numbered by module: a database of schema version
// N (PRAGMA user_version, 1..20) had applied the migrations of versions 1..N, one global number
// each; each of those is now one or two migrations of a module. Never changes again.
#pragma once
#include <vector>

#include "storage/migration_order.hpp"

namespace syndic {

// The last schema version numbered globally: a database without the schema_migrations table and
// a user_version above it was not written by any syndic-mcp this one knows.
inline constexpr int last_legacy_version = 20;

// The migrations a database of schema version `version` (0..last_legacy_version) had applied, in
// the order they were applied then. Throws std::out_of_range for another version.
std::vector<MigrationKey> legacy_migrations(int version);

}  // namespace syndic
