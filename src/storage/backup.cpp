#include "storage/backup.hpp"

#include <SQLiteCpp/Backup.h>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <sqlite3.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "storage/database.hpp"
#include "storage/durable_file.hpp"
#include "storage/file_modes.hpp"
#include "storage/migration_history.hpp"

namespace syndic {
namespace {

namespace fs = std::filesystem;

// The service's own tables: not SQLite's, not the search index's shadow tables.
CopySummary summarize(SQLite::Database& db, const std::string& path) {
    CopySummary out;
    out.schema_version = db.execAndGet("PRAGMA user_version").getInt();
    SQLite::Statement tables(db,
                             "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                             "AND name NOT LIKE 'co_owner_search%' ORDER BY name");
    while (tables.executeStep()) {
        const std::string name = tables.getColumn(0).getString();
        out.rows[name] = db.execAndGet("SELECT count(*) FROM \"" + name + "\"").getInt64();
    }
    std::error_code ec;
    out.bytes = fs::file_size(path, ec);
    return out;
}

void require_intact(SQLite::Database& db, const std::string& what) {
    const std::string verdict = db.execAndGet("PRAGMA integrity_check").getString();
    if (verdict != "ok") throw std::runtime_error(what + " fails SQLite's integrity check: " + verdict);
}

// Copies every page of `from` into `to` in one step: one consistent snapshot of `from`. A lock
// that stays busy (another writer) is waited for as a writer would, then reported.
void copy_pages(SQLite::Database& to, SQLite::Database& from) {
    SQLite::Backup backup(to, from);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(Database::busy_timeout_ms);
    for (;;) {
        const int rc = backup.executeStep(-1);
        if (rc == SQLITE_DONE) return;
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error(std::string("the copy could not be made: ") + sqlite3_errstr(rc));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string utc_stamp() {
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
    return text;
}

void remove_with_journals(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path + suffix);
}

// A backup holds exactly the schema objects this program's migrations make for the migrations it
// has applied: an object more (a trigger or view that would run inside the live server) or less
// is refused.
void require_exact_schema(const std::string& source) {
    SQLite::Database copy(source, SQLite::OPEN_READONLY, Database::busy_timeout_ms);
    const auto applied = applied_migrations(copy, embedded_migration_plan());
    const auto found = schema_objects(copy);
    const auto wanted = schema_objects_at(applied.known, embedded_migration_plan());
    std::string extra, missing, changed;
    const auto add = [](std::string& list, const std::string& name) { list += (list.empty() ? "" : ", ") + name; };
    for (const auto& [name, sql] : found) {
        const auto it = wanted.find(name);
        if (it == wanted.end()) add(extra, name);
        else if (it->second != sql) add(changed, name);
    }
    for (const auto& [name, sql] : wanted)
        if (!found.count(name)) add(missing, name);
    if (extra.empty() && missing.empty() && changed.empty()) return;
    std::string why;
    if (!extra.empty()) why += "; objects it should not have: " + extra;
    if (!missing.empty()) why += "; objects missing: " + missing;
    if (!changed.empty()) why += "; objects changed: " + changed;
    throw std::runtime_error(source + " does not have the schema syndic-mcp makes at version " +
                             std::to_string(applied.schema_version) + why + ". Nothing was restored.");
}

}  // namespace

CopySummary describe_database(const std::string& path) {
    SQLite::Database db(path, SQLite::OPEN_READONLY, Database::busy_timeout_ms);
    return summarize(db, path);
}

CopySummary backup_database(const std::string& source, const std::string& target, bool replace) {
    if (!fs::exists(source)) throw std::runtime_error("no database at " + source);
    if (fs::exists(target) && !replace)
        throw std::runtime_error(target + " already exists; choose another file, or pass --replace to overwrite it");
    if (fs::exists(target) && fs::equivalent(source, target))
        throw std::runtime_error("the copy cannot be the database itself");
    const std::string partial = target + ".partial";
    remove_with_journals(partial);
    try {
        {
            SQLite::Database from(source, SQLite::OPEN_READONLY, Database::busy_timeout_ms);
            SQLite::Database to(partial, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, Database::busy_timeout_ms);
            copy_pages(to, from);
            // A copy is one self-contained file, whatever journal the live database uses.
            to.exec("PRAGMA journal_mode = DELETE");
            require_intact(to, "the copy");
        }
        make_owner_only(partial);  // a copy holds what the database holds: its owner's alone
        fs::rename(partial, target);
    } catch (...) {
        remove_with_journals(partial);
        throw;
    }
    return describe_database(target);
}

std::vector<std::string> remove_leftover_restores(const std::string& target) {
    std::vector<std::string> removed;
    std::error_code ec;
    const auto whole = fs::absolute(target, ec);
    const auto prefix = whole.filename().string() + ".restoring";
    const auto stale = fs::file_time_type::clock::now() - std::chrono::minutes(10);
    for (const auto& entry : fs::directory_iterator(whole.parent_path(), ec)) {
        const auto name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0) continue;
        auto rest = name.substr(prefix.size());
        for (const char* journal : {"-wal", "-shm", "-journal"})
            if (rest.ends_with(journal)) rest.resize(rest.size() - std::strlen(journal));
        bool leftover = false;
        if (rest.empty()) {  // an earlier version's name: no process to ask
            leftover = entry.last_write_time(ec) < stale;
        } else if (rest.size() > 1 && rest[0] == '-' && rest.find_first_not_of("0123456789", 1) == std::string::npos) {
            leftover = process_gone(std::atol(rest.c_str() + 1));
        }
        if (leftover && fs::remove(entry.path(), ec)) removed.push_back(entry.path().string());
    }
    return removed;
}

CopySummary restore_database(const std::string& source, const std::string& target, bool replace, std::string& saved_as) {
    if (!fs::exists(source)) throw std::runtime_error("no backup at " + source);
    {
        SQLite::Database copy(source, SQLite::OPEN_READONLY, Database::busy_timeout_ms);
        try {
            require_intact(copy, source);
        } catch (const SQLite::Exception& e) {
            throw std::runtime_error(source + " is not a SQLite database: " + e.what());
        }
        const int version = copy.execAndGet("PRAGMA user_version").getInt();
        if (!copy.tableExists("syndicates") || !copy.tableExists("co_owners") || version < 1)
            throw std::runtime_error(source + " is not a syndic-mcp database");
        const auto newer = newer_schema(applied_migrations(copy, embedded_migration_plan()), embedded_migration_plan());
        if (!newer.empty())
            throw std::runtime_error(source + " comes from a newer syndic-mcp: it has " + newer + ". Restore it with that version.");
    }
    require_exact_schema(source);
    saved_as.clear();
    if (fs::exists(target)) {
        std::int64_t syndicates = 0;
        {
            SQLite::Database current(target, SQLite::OPEN_READONLY, Database::busy_timeout_ms);
            if (current.tableExists("syndicates"))
                syndicates = current.execAndGet("SELECT count(*) FROM syndicates").getInt64();
        }
        if (syndicates > 0) {
            if (!replace)
                throw std::runtime_error(target + " holds " + std::to_string(syndicates) +
                                         " syndicate(s); pass --replace to put the backup in its place (it is "
                                         "saved first as " + target + ".before-restore-<time>)");
            saved_as = target + ".before-restore-" + utc_stamp();
            for (int n = 2; fs::exists(saved_as); ++n) saved_as = target + ".before-restore-" + utc_stamp() + "-" + std::to_string(n);
            backup_database(target, saved_as, false);
        }
    } else {
        create_private_file(target);
    }
    // The pages are copied from a WAL-mode copy of the backup: the journal mode is part of the
    // pages copied, and a live database in WAL mode must stay in WAL mode (its running servers
    // and the pages just written to its WAL depend on it).
    // Named for this process, so that a restore killed here leaves a copy the next start can tell
    // from one still being made (remove_leftover_restores).
    remove_leftover_restores(target);
    const std::string staged = target + ".restoring-" + std::to_string(::getpid());
    remove_with_journals(staged);
    try {
        fs::copy_file(source, staged, fs::copy_options::overwrite_existing);
        make_owner_only(staged);  // the backup's personal data, whatever the backup's own mode
        {
            SQLite::Database from(staged, SQLite::OPEN_READWRITE, Database::busy_timeout_ms);
            from.exec("PRAGMA journal_mode = WAL");
            SQLite::Database to(target, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, Database::busy_timeout_ms);
            to.exec("PRAGMA journal_mode = WAL");
            copy_pages(to, from);
        }
        remove_with_journals(staged);
    } catch (...) {
        remove_with_journals(staged);
        throw;
    }
    Database::open(target);  // migrated to this program's schema
    // Read back by a new connection: every table of the backup must hold what the backup holds.
    // A server that kept the database open can keep the copied pages from being seen; then say so.
    const auto wanted = describe_database(source);
    auto got = describe_database(target);
    for (const auto& [table, n] : wanted.rows)
        if (got.rows.count(table) && got.rows[table] != n && table != "co_owner_tallies")
            throw std::runtime_error("the restored database does not read back as the backup (" + table + ": " +
                                     std::to_string(got.rows[table]) + " rows, the backup has " + std::to_string(n) +
                                     "); stop the servers that use " + target + " and restore again" +
                                     (saved_as.empty() ? "" : " (the database it had is saved as " + saved_as + ")"));
    return got;
}

}  // namespace syndic
