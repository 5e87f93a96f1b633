#include "storage/database.hpp"

#include <sqlite3.h>
#include <unistd.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "storage/durable_file.hpp"
#include "storage/file_modes.hpp"
#include "storage/migration_catalogue.hpp"
#include "storage/migration_history.hpp"
#include "storage/storage_error.hpp"

namespace syndic {

namespace {

// Every in-memory database of a process (the unit tests' fixtures, the fuzz world) starts as a copy
// of one migrated once: parsing and running every migration was most of a test fixture's time
// (49 ms of about 60), and a copy of its pages takes well under a millisecond. A file is migrated
// in place, as before. The template is read under a lock: a connection is not shared between threads.
std::mutex memory_template_lock;

void copy_migrated_template(SQLite::Database& into) {
    std::lock_guard lock(memory_template_lock);
    static const std::unique_ptr<SQLite::Database> migrated = [] {
        auto db = std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE |
                                                                     SQLite::OPEN_NOMUTEX);
        db->exec("PRAGMA foreign_keys = ON");
        apply_migrations(*db, ":memory:", embedded_migration_plan());
        return db;
    }();
    sqlite3_backup* copy = sqlite3_backup_init(into.getHandle(), "main", migrated->getHandle(), "main");
    if (!copy) throw SQLite::Exception(into.getHandle(), sqlite3_errcode(into.getHandle()));
    const int stepped = sqlite3_backup_step(copy, -1);
    const int finished = sqlite3_backup_finish(copy);
    if (stepped != SQLITE_DONE) throw SQLite::Exception("copying the migrated in-memory database", stepped);
    if (finished != SQLITE_OK) throw SQLite::Exception(into.getHandle(), finished);
}

}  // namespace

Database::Database(const std::string& path, int flags)
    : path_(path),
      data_dir_(path == ":memory:" ? (std::filesystem::temp_directory_path() / "syndic-mcp").string()
                                   : std::filesystem::absolute(path).parent_path().string()),
      db_(path, flags, busy_timeout_ms) {}

std::unique_ptr<Database> Database::open(const std::string& path) {
    std::unique_ptr<Database> db;
    int system_errno = 0;
    try {
        db = open_unchecked(path, system_errno);
    } catch (const std::system_error& e) {  // the file or its folders could not be made
        throw file_error(e.code().value(), "create", path);
    } catch (const SQLite::Exception& e) {
        // A file or folder that may not be written says so plainly (EROFS, EACCES), whatever
        // SQLite's own words were.
        const auto folder = std::filesystem::absolute(path).parent_path();
        if (path != ":memory:" && ::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0) system_errno = errno;
        else if (path != ":memory:" && ::access(folder.c_str(), W_OK) != 0) system_errno = errno;
        auto refusal = database_refusal(e.getExtendedErrorCode() > 0 ? e.getExtendedErrorCode() : e.getErrorCode(),
                                        system_errno, path);
        if (refusal) throw *refusal;
        throw;
    }
    // SQLite opens a file it may not write read-only without a word: that is no database to serve.
    if (path != ":memory:" && sqlite3_db_readonly(db->db_.getHandle(), "main") == 1)
        throw *database_refusal(SQLITE_READONLY, 0, path);
    return db;
}

std::unique_ptr<Database> Database::open_unchecked(const std::string& path, int& system_errno) {
    // A new database and the folders made for it are its owner's alone; SQLite gives the -wal
    // and -shm files the database's own mode.
    if (path != ":memory:") create_private_file(path);
    std::unique_ptr<Database> db(
        new Database(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX));
    struct KeepErrno {  // the system error behind a failure below, for open's refusal
        sqlite3* handle;
        int& out;
        ~KeepErrno() { if (std::uncaught_exceptions() > 0) out = sqlite3_system_errno(handle); }
    } keep_errno{db->db_.getHandle(), system_errno};
    db->db_.exec("PRAGMA foreign_keys = ON");
    if (path != ":memory:") db->db_.exec("PRAGMA journal_mode = WAL");
    db->db_.exec("PRAGMA synchronous = NORMAL");
    // 8 MiB of pages per connection (SQLite's default is 2 MiB): the indexes and recent rows of a
    // register of tens of thousands stay in memory, and resident memory stays bounded.
    db->db_.exec("PRAGMA cache_size = -8192");
    // Temporary B-trees (an IN list, a sort) and statement journals (a multi-row write that may
    // have to undo itself) stay in memory: SQLite's default puts them in temporary files
    // (etilqs_*), created, written and unlinked, hundreds a minute under writes.
    db->db_.exec("PRAGMA temp_store = MEMORY");
    if (path == ":memory:") copy_migrated_template(db->db_);
    else db->migrate();
    return db;
}

void Database::refuse_newer_schema(SQLite::Database& db, const std::string& path) {
    const auto& plan = embedded_migration_plan();
    syndic::refuse_newer_schema(path, applied_migrations(db, plan), plan);
}

std::map<std::string, std::string> Database::schema_objects(SQLite::Database& db) { return syndic::schema_objects(db); }

std::map<std::string, std::string> Database::schema_objects_at(const std::vector<MigrationKey>& applied) {
    return syndic::schema_objects_at(applied, embedded_migration_plan());
}

int Database::schema_version() { return db_.execAndGet("PRAGMA user_version").getInt(); }

int Database::latest_schema_version() { return static_cast<int>(embedded_migration_plan().size()); }

void Database::migrate() { apply_migrations(db_, path_, embedded_migration_plan()); }

Database::Query Database::prepare(std::string_view sql) {
    auto it = statements_.find(sql);
    if (it == statements_.end()) {
        auto statement = std::make_unique<SQLite::Statement>(db_, std::string(sql));
        const std::string_view key = statement->getQuery();
        it = statements_.emplace(key, std::move(statement)).first;
    } else {
        it->second->clearBindings();
    }
    return Query(*it->second);
}

void Database::run(std::string_view sql) { prepare(sql)->exec(); }

Database::DataStamp Database::data_stamp() {
    auto q = prepare("PRAGMA data_version");
    q->executeStep();
    return {q->getColumn(0).getInt64(), sqlite3_total_changes64(db_.getHandle())};
}

std::shared_ptr<const void> Database::recall(const std::string& key) {
    if (const auto stamp = data_stamp(); stamp != memo_stamp_) {
        memos_.clear();
        memo_weight_ = 0;
        memo_stamp_ = stamp;
        return nullptr;
    }
    for (const auto& m : memos_)
        if (m.key == key) return m.value;
    return nullptr;
}

void Database::remember(const std::string& key, std::shared_ptr<const void> value, std::size_t weight) {
    if (weight > memo_weight_limit || data_stamp() != memo_stamp_) return;
    for (auto it = memos_.begin(); it != memos_.end(); ++it)
        if (it->key == key) {
            memo_weight_ -= it->weight;
            memos_.erase(it);
            break;
        }
    while (!memos_.empty() && (memos_.size() >= memo_limit || memo_weight_ + weight > memo_weight_limit)) {
        memo_weight_ -= memos_.front().weight;
        memos_.pop_front();
    }
    memos_.push_back({key, std::move(value), weight});
    memo_weight_ += weight;
}

const std::vector<AuditedTable>& Database::audited_tables() {
    if (audited_tables_) return *audited_tables_;
    std::vector<AuditedTable> tables;
    SQLite::Statement names(db_,
                            "SELECT m.name FROM sqlite_schema m WHERE m.type = 'table' "
                            "AND m.name NOT IN ('audit_events', 'co_owner_tallies', 'events', 'webhook_deliveries', 'derived_event_marks') "
                            "AND (m.name IN ('syndicates', 'oauth_clients') "
                            "OR EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'syndicate_id')) "
                            "ORDER BY m.name");
    while (names.executeStep()) tables.push_back({names.getColumn(0).getString(), {}, {}, -1});
    for (auto& t : tables) {
        SQLite::Statement columns(db_, "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid");
        columns.bind(1, t.name);
        std::vector<std::pair<int, int>> keys;  // (position in the key, column)
        while (columns.executeStep()) {
            const int column = static_cast<int>(t.columns.size());
            t.columns.push_back(columns.getColumn(0).getString());
            if (const int pk = columns.getColumn(1).getInt(); pk > 0) keys.emplace_back(pk, column);
            if (t.columns.back() == "deleted_at") t.deleted_at_column = column;
            if (t.columns.back() == (t.name == "syndicates" ? "id" : "syndicate_id")) t.syndicate_column = column;
        }
        std::sort(keys.begin(), keys.end());
        for (const auto& [position, column] : keys) t.key_columns.push_back(column);
    }
    audited_tables_ = std::move(tables);
    return *audited_tables_;
}

void Database::remove_staged_files_after(std::size_t kept) {
    for (std::size_t i = std::min(kept, staged_files_.size()); i < staged_files_.size(); ++i) {
        std::error_code ec;
        std::filesystem::remove(staged_files_[i].temporary, ec);
        spdlog::info("removed {}: the write it was made for did not commit", staged_files_[i].final_path);
    }
    staged_files_.resize(std::min(kept, staged_files_.size()));
}

void Database::publish_staged_files() {
    for (const auto& file : staged_files_) put_in_place(file.temporary, file.final_path);
    staged_files_.clear();
}

Savepoint::Savepoint(Database& db, std::string name) : db_(db), name_(std::move(name)) {
    const bool identifier = !name_.empty() && std::all_of(name_.begin(), name_.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!identifier) throw std::logic_error("a savepoint's name is an SQL identifier: '" + name_ + "'");
    if (sqlite3_get_autocommit(db.sql().getHandle()) != 0)
        throw std::logic_error("savepoint " + name_ + " outside a transaction: it would begin one");
    db_.run("SAVEPOINT " + name_);
    if (db_.recorder()) recorded_at_start_ = db_.recorder()->mark();
    files_at_start_ = db_.staged_files_.size();
}

Savepoint::~Savepoint() {
    if (done_) return;
    db_.remove_staged_files_after(files_at_start_);
    try {
        db_.run("ROLLBACK TO " + name_);
        db_.run("RELEASE " + name_);
        if (db_.recorder()) db_.recorder()->forget_after(recorded_at_start_);
    } catch (const std::exception& e) {
        spdlog::error("rolling back savepoint {} failed: {}", name_, e.what());
    }
}

void Savepoint::release() {
    db_.run("RELEASE " + name_);
    done_ = true;
}

WriteTransaction::WriteTransaction(Database& db) : db_(db) {
    if (db.in_handler_)
        throw std::logic_error(
            "a tool handler opens no transaction; the registry's is the call's (a part undone alone is a Savepoint)");
    if (sqlite3_get_autocommit(db.sql().getHandle()) == 0) {
        nested_.emplace(db, "write_transaction");
        return;
    }
    db_.run("BEGIN IMMEDIATE");
    db_.staged_files_.clear();
}

WriteTransaction::~WriteTransaction() {
    if (done_ || nested_) return;  // a nested one's savepoint rolls itself back
    db_.remove_staged_files_after(0);
    try {
        db_.run("ROLLBACK");
    } catch (const std::exception& e) {
        spdlog::error("rollback failed: {}", e.what());
    }
}

void WriteTransaction::commit() {
    if (nested_) {
        nested_->release();
    } else {
        db_.run("COMMIT");
        db_.publish_staged_files();  // recorded: the files go under their final names
    }
    done_ = true;
}

ReadTransaction::ReadTransaction(Database& db)
    : db_(db), owns_(sqlite3_get_autocommit(db.sql().getHandle()) != 0) {
    if (owns_) db_.run("BEGIN");
}

ReadTransaction::~ReadTransaction() {
    if (!owns_) return;
    try {
        db_.run("COMMIT");
    } catch (const std::exception& e) {
        spdlog::error("ending a read transaction failed: {}", e.what());
    }
}

}  // namespace syndic
