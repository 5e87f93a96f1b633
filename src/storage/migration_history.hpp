// What a database has applied and what this executable applies to it: the rows of
// schema_migrations (core 009), or for a database from before that table, the migrations of its
// PRAGMA user_version (legacy_versions.hpp); the refusal of a database a newer syndic-mcp wrote;
// the missing migrations applied in one transaction and recorded. PRAGMA user_version keeps the
// count of migrations applied: the schema version users see. Knows SQLite, not tools.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <SQLiteCpp/Database.h>

#include "storage/migration_catalogue.hpp"

namespace syndic {

struct AppliedMigrations {
    std::vector<MigrationKey> known;   // applied, and in the plan; in the order they were applied
    std::vector<std::string> unknown;  // applied, but not in the plan: "<module>/NNN"
    int schema_version = 0;            // PRAGMA user_version
    bool recorded = false;             // read from schema_migrations, not from user_version
};

AppliedMigrations applied_migrations(SQLite::Database& db, const std::vector<Migration>& plan);

// Why `applied` comes from a newer syndic-mcp than `plan`'s ("" when it does not): a migration
// the plan does not have, a schema version above the plan's count, or a user_version above the
// globally numbered ones without recorded migrations. Names both schema versions.
std::string newer_schema(const AppliedMigrations& applied, const std::vector<Migration>& plan);

// Throws std::runtime_error naming `path` and newer_schema's reason when it is not "": a newer
// program's data is never read or migrated.
void refuse_newer_schema(const std::string& path, const AppliedMigrations& applied, const std::vector<Migration>& plan);

// Brings `db` to the plan: refuses a newer schema (before and again under the write lock), then
// applies every migration of the plan it does not have, in the plan's order, in one IMMEDIATE
// transaction with secure_delete on, records them in schema_migrations (with those it had from
// before the table first, in the order they ran, applied_at null) and sets user_version to their
// count. A migration the database lacks runs after all it has, whatever the plan's order.
void apply_migrations(SQLite::Database& db, const std::string& path, const std::vector<Migration>& plan);

// The schema objects (tables, indexes, triggers, views; not SQLite's own) of `db`, as
// "type name" -> its SQL, and those the plan's migrations `applied` make, run in that order.
std::map<std::string, std::string> schema_objects(SQLite::Database& db);
std::map<std::string, std::string> schema_objects_at(const std::vector<MigrationKey>& applied,
                                                     const std::vector<Migration>& plan);

}  // namespace syndic
