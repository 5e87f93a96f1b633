// A database as a syndic-mcp of a globally numbered schema version (1..20, from before migrations
// were numbered by module) left it: the migrations of that version in the order they were
// applied then (storage/legacy_versions.hpp), and PRAGMA user_version set to the version.
#pragma once
#include <SQLiteCpp/Database.h>

#include <string>

#include "storage/legacy_versions.hpp"
#include "storage/migration_catalogue.hpp"

namespace syndic::test {

inline void make_legacy_database(SQLite::Database& db, int version) {
    for (const auto& key : legacy_migrations(version))
        for (const auto& m : embedded_migration_plan())
            if (m.key == key) db.exec(std::string(m.sql));
    db.exec("PRAGMA user_version = " + std::to_string(version));
}

}  // namespace syndic::test
