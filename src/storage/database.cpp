#include "storage/database.hpp"

#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>
#include <unistd.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "core/embedded.hpp"
#include "storage/file_modes.hpp"
#include "storage/storage_error.hpp"

namespace syndic {
namespace {

constexpr int busy_timeout_ms = 5000;

struct Migration {
    int number;
    std::string_view name;
    std::string_view sql;
};

// The number a migration file's name starts with (after any folder), 0 when it has none.
int migration_number(std::string_view name) {
    if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    int number = 0;
    auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), number);
    if (ec != std::errc{} || number <= 0 || end == name.data() + name.size() || *end != '_' || !name.ends_with(".sql"))
        return 0;
    return number;
}

// The embedded migrations in the order they apply; their names checked first.
std::vector<Migration> migrations() {
    std::vector<Migration> list;
    std::vector<std::string> names;
    for (const auto& file : embedded_migrations()) names.emplace_back(file.name);
    check_migration_names(names);
    for (const auto& file : embedded_migrations()) list.push_back({migration_number(file.name), file.name, file.content});
    std::sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.number < b.number; });
    return list;
}

}  // namespace

void check_migration_names(const std::vector<std::string>& names) {
    std::map<int, std::vector<std::string>> by_number;
    for (const auto& name : names) {
        const int number = migration_number(name);
        if (number == 0)
            throw std::logic_error("migration file without a number: " + name +
                                   " (migrations are named NNN_name.sql, NNN the schema version they bring)");
        by_number[number].push_back(name);
    }
    int expected = 1;
    std::string previous;
    for (const auto& [number, files] : by_number) {
        if (files.size() > 1) {
            std::string listed;
            for (const auto& f : files) listed += (listed.empty() ? "" : " and ") + f;
            throw std::logic_error("two migration files bring schema version " + std::to_string(number) + ": " + listed +
                                   "; a database already at that version would skip one of them. Give each its own number.");
        }
        if (number != expected)
            throw std::logic_error("no migration file brings schema version " + std::to_string(expected) +
                                   (previous.empty() ? " (the numbers start at 001)" : " (after " + previous + ")") +
                                   ", yet " + files.front() + " brings " + std::to_string(number) +
                                   ": migration numbers follow each other without a gap.");
        previous = files.front();
        ++expected;
    }
}

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
    db->migrate();
    return db;
}

void Database::refuse_newer_schema(const std::string& path, int version) {
    const int latest = latest_schema_version();
    if (version > latest)
        throw std::runtime_error(path + " has schema version " + std::to_string(version) +
                                 ", newer than this syndic-mcp's (schema version " + std::to_string(latest) +
                                 "): it was written by a newer syndic-mcp. Run that version, or restore a backup made "
                                 "with this one; nothing was changed.");
}

std::map<std::string, std::string> Database::schema_objects(SQLite::Database& db) {
    std::map<std::string, std::string> out;
    SQLite::Statement q(db, "SELECT type, name, coalesce(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
    while (q.executeStep()) out[q.getColumn(0).getString() + " " + q.getColumn(1).getString()] = q.getColumn(2).getString();
    return out;
}

std::map<std::string, std::string> Database::schema_objects_at(int version) {
    SQLite::Database reference(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    for (const auto& m : migrations())
        if (m.number <= version) reference.exec(std::string(m.sql));
    return schema_objects(reference);
}

int Database::schema_version() { return db_.execAndGet("PRAGMA user_version").getInt(); }

int Database::latest_schema_version() {
    const auto all = migrations();
    return all.empty() ? 0 : all.back().number;
}

void Database::migrate() {
    const auto all = migrations();
    refuse_newer_schema(path_, schema_version());
    if (!all.empty() && schema_version() >= all.back().number) return;
    // Several servers may open the same file at once: take the write lock first, then look again.
    // What a migration deletes is overwritten, not left in free pages a later backup would copy.
    db_.exec("PRAGMA secure_delete = ON");
    SQLite::Transaction tx(db_, SQLite::TransactionBehavior::IMMEDIATE);
    const int current = schema_version();
    refuse_newer_schema(path_, current);
    for (const auto& m : all) {
        if (m.number <= current) continue;
        spdlog::info("applying migration {}", m.name);
        db_.exec(std::string(m.sql));
        db_.exec("PRAGMA user_version = " + std::to_string(m.number));
    }
    tx.commit();
    db_.exec("PRAGMA secure_delete = OFF");
}

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

WriteTransaction::WriteTransaction(Database& db)
    : db_(db), nested_(sqlite3_get_autocommit(db.sql().getHandle()) == 0) {
    db_.run(nested_ ? "SAVEPOINT write_transaction" : "BEGIN IMMEDIATE");
    if (db_.recorder()) recorded_at_start_ = db_.recorder()->mark();
    if (!nested_) db_.written_files_.clear();
    files_at_start_ = db_.written_files_.size();
}

WriteTransaction::~WriteTransaction() {
    if (done_) return;
    auto& files = db_.written_files_;
    for (std::size_t i = std::min(files_at_start_, files.size()); i < files.size(); ++i) {
        std::error_code ec;
        std::filesystem::remove(files[i], ec);
        spdlog::info("removed {}: the write it was made for did not commit", files[i]);
    }
    files.resize(std::min(files_at_start_, files.size()));
    try {
        if (nested_) {
            db_.run("ROLLBACK TO write_transaction");
            db_.run("RELEASE write_transaction");
            if (db_.recorder()) db_.recorder()->forget_after(recorded_at_start_);
        } else {
            db_.run("ROLLBACK");
        }
    } catch (const std::exception& e) {
        spdlog::error("rollback failed: {}", e.what());
    }
}

void WriteTransaction::commit() {
    db_.run(nested_ ? "RELEASE write_transaction" : "COMMIT");
    done_ = true;
    if (!nested_) db_.written_files_.clear();  // recorded: the files are the database's now
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
