#include "storage/migration_history.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>
#include <stdexcept>

#include "storage/legacy_versions.hpp"

namespace syndic {
namespace {

bool has_history_table(SQLite::Database& db) {
    return db.execAndGet("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").getInt() == 1;
}

bool in_plan(const MigrationKey& key, const std::vector<Migration>& plan) {
    return std::any_of(plan.begin(), plan.end(), [&](const Migration& m) { return m.key == key; });
}

std::string_view name_in_plan(const MigrationKey& key, const std::vector<Migration>& plan) {
    return std::find_if(plan.begin(), plan.end(), [&](const Migration& m) { return m.key == key; })->name;
}

// Records `keys` in schema_migrations after those it holds, in their order, applied now or
// (`now` false) by an older syndic-mcp.
void record(SQLite::Database& db, const std::vector<MigrationKey>& keys, const std::vector<Migration>& plan, bool now) {
    SQLite::Statement insert(db, std::string("INSERT INTO schema_migrations (module, number, name, seq, applied_at) "
                                             "VALUES (?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM schema_migrations), ") +
                                     (now ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))" : "NULL)"));
    for (const auto& key : keys) {
        insert.bind(1, key.module);
        insert.bind(2, key.number);
        insert.bind(3, std::string(name_in_plan(key, plan)));
        insert.exec();
        insert.reset();
    }
}

}  // namespace

AppliedMigrations applied_migrations(SQLite::Database& db, const std::vector<Migration>& plan) {
    AppliedMigrations out;
    out.schema_version = db.execAndGet("PRAGMA user_version").getInt();
    out.recorded = has_history_table(db);
    std::vector<MigrationKey> keys;
    if (out.recorded) {
        SQLite::Statement rows(db, "SELECT module, number FROM schema_migrations ORDER BY seq");
        while (rows.executeStep()) keys.push_back({rows.getColumn(0).getString(), rows.getColumn(1).getInt()});
    } else if (out.schema_version >= 0 && out.schema_version <= last_legacy_version) {
        keys = legacy_migrations(out.schema_version);
    }
    for (auto& key : keys) {
        if (in_plan(key, plan)) out.known.push_back(std::move(key));
        else out.unknown.push_back(key.module + "/" + std::to_string(key.number));
    }
    return out;
}

std::string newer_schema(const AppliedMigrations& applied, const std::vector<Migration>& plan) {
    const int latest = static_cast<int>(plan.size());
    const std::string versions = "schema version " + std::to_string(applied.schema_version);
    const std::string ours = "this syndic-mcp's (schema version " + std::to_string(latest) + ")";
    if (!applied.unknown.empty()) {
        std::string listed;
        for (const auto& name : applied.unknown) listed += (listed.empty() ? "" : ", ") + name;
        return versions + " with migrations unknown to " + ours + ": " + listed;
    }
    if (applied.schema_version > latest || (!applied.recorded && applied.schema_version > last_legacy_version))
        return versions + ", newer than " + ours;
    return "";
}

void refuse_newer_schema(const std::string& path, const AppliedMigrations& applied, const std::vector<Migration>& plan) {
    const auto why = newer_schema(applied, plan);
    if (!why.empty())
        throw std::runtime_error(path + " has " + why +
                                 ": it was written by a newer syndic-mcp. Run that version, or restore a backup made "
                                 "with this one; nothing was changed.");
}

void apply_migrations(SQLite::Database& db, const std::string& path, const std::vector<Migration>& plan) {
    auto applied = applied_migrations(db, plan);
    refuse_newer_schema(path, applied, plan);
    if (applied.recorded && applied.known.size() == plan.size()) return;
    // Several servers may open the same file at once: take the write lock first, then look again.
    // What a migration deletes is overwritten, not left in free pages a later backup would copy.
    db.exec("PRAGMA secure_delete = ON");
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    applied = applied_migrations(db, plan);
    refuse_newer_schema(path, applied, plan);
    const std::set<MigrationKey> had(applied.known.begin(), applied.known.end());
    std::vector<MigrationKey> applied_now;
    for (const auto& m : plan) {
        if (had.count(m.key)) continue;
        spdlog::info("applying migration {}", m.name);
        db.exec(std::string(m.sql));
        applied_now.push_back(m.key);
    }
    if (!has_history_table(db)) throw std::logic_error("no migration creates the schema_migrations table");
    if (!applied.recorded) record(db, applied.known, plan, false);
    record(db, applied_now, plan, true);
    db.exec("PRAGMA user_version = " + std::to_string(db.execAndGet("SELECT count(*) FROM schema_migrations").getInt()));
    tx.commit();
    db.exec("PRAGMA secure_delete = OFF");
}

std::map<std::string, std::string> schema_objects(SQLite::Database& db) {
    std::map<std::string, std::string> out;
    SQLite::Statement q(db, "SELECT type, name, coalesce(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
    while (q.executeStep()) out[q.getColumn(0).getString() + " " + q.getColumn(1).getString()] = q.getColumn(2).getString();
    return out;
}

std::map<std::string, std::string> schema_objects_at(const std::vector<MigrationKey>& applied,
                                                     const std::vector<Migration>& plan) {
    SQLite::Database reference(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    for (const auto& key : applied)
        for (const auto& m : plan)
            if (m.key == key) reference.exec(std::string(m.sql));
    return schema_objects(reference);
}

}  // namespace syndic
