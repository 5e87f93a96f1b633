// The SQLite database (SQLiteCpp): opening with WAL, foreign keys and a busy timeout, the
// migrations embedded in the executable (numbered by module: storage/migration_history.hpp),
// cached prepared statements and write transactions.
// A connection is used by one thread at a time (each HTTP worker has its own), so SQLite's own
// locking of it is off. Knows SQL, not tools or JSON-RPC.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <cstdint>
#include <deque>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include "storage/audit_trail.hpp"
#include "storage/migration_order.hpp"

namespace syndic {

class Database {
public:
    // How long a connection waits on another's lock before SQLITE_BUSY (backups open their own).
    static constexpr int busy_timeout_ms = 5000;

    // Opens (creating the file and its folder if missing) and migrates. ":memory:" for tests. A
    // file that cannot be used (not a database, read-only, its folder unwritable, full) is a
    // DomainError naming the file and the cause (storage/storage_error.hpp).
    static std::unique_ptr<Database> open(const std::string& path);

    SQLite::Database& sql() { return db_; }
    const std::string& path() const { return path_; }

    class Query;
    // A prepared statement for this SQL text, compiled once; the Query resets it when it goes
    // out of scope, so no read stays open. Do not hold two Queries of the same text at once.
    Query prepare(std::string_view sql);
    // Runs one statement that returns no rows (BEGIN, COMMIT...), compiled once.
    void run(std::string_view sql);

    // The schema version: how many migrations the database has applied (PRAGMA user_version).
    int schema_version();
    // The version the embedded migrations bring a database to: how many there are.
    static int latest_schema_version();
    // Throws std::runtime_error naming `path`, its schema version and this program's when `db`
    // was written by a newer syndic-mcp (a migration this one does not know, or a higher
    // version): a newer program's data is never read or migrated.
    static void refuse_newer_schema(SQLite::Database& db, const std::string& path);
    // The schema objects (tables, indexes, triggers, views; not SQLite's own) of `db`, as
    // "type name" -> its SQL, and those the embedded migrations among `applied` create.
    static std::map<std::string, std::string> schema_objects(SQLite::Database& db);
    static std::map<std::string, std::string> schema_objects_at(const std::vector<MigrationKey>& applied);

    // Where files the service writes (exports/) live: the database's folder, or a temporary
    // folder for an in-memory database; tests may point it elsewhere.
    const std::string& data_dir() const { return data_dir_; }
    void set_data_dir(std::string dir) { data_dir_ = std::move(dir); }

    // The tables the audit trail follows: every table with a syndicate_id column except the
    // trail itself and co_owner_tallies (derived by triggers). Read from the schema once.
    const std::vector<AuditedTable>& audited_tables();
    // A file staged for the write in progress (a generated or uploaded document, under its
    // temporary name: storage/durable_file.hpp): put under its final name once that write commits,
    // removed if it rolls back. No file is ever under a final name without its committed row.
    void publish_on_commit(std::string temporary, std::string final_path) {
        staged_files_.push_back({std::move(temporary), std::move(final_path)});
    }

    // The recorder of the write in progress on this connection, if any (audit_trail.hpp).
    ChangeRecorder* recorder() const { return recorder_; }
    void set_recorder(ChangeRecorder* recorder) { recorder_ = recorder; }

    // What moves when the data this connection sees changes: a commit of another connection
    // (PRAGMA data_version) or a row written by this one (sqlite3_total_changes64). Read it first
    // in a call, outside a transaction or as the first read of one.
    struct DataStamp {
        std::int64_t data_version = -1;
        std::int64_t total_changes = -1;
        bool operator==(const DataStamp&) const = default;
    };
    DataStamp data_stamp();

    // Results worked out from this connection's data, kept while that data has not changed:
    // `recall` answers what `remember` kept under `key` if no commit of another connection
    // (PRAGMA data_version) and no write of this one (total_changes) came since, else nothing,
    // and forgets everything kept. Call both in one read transaction, recall first: remember
    // keeps the value only if the data is still what recall saw. At most `memo_limit` values
    // (the oldest go first), each counted by the caller's `weight`, at most `memo_weight_limit`.
    static constexpr std::size_t memo_limit = 8;
    static constexpr std::size_t memo_weight_limit = 400'000;
    std::shared_ptr<const void> recall(const std::string& key);
    void remember(const std::string& key, std::shared_ptr<const void> value, std::size_t weight);

private:
    Database(const std::string& path, int flags);
    // open's work, errors raw; the system errno behind an SQLite failure goes to system_errno
    static std::unique_ptr<Database> open_unchecked(const std::string& path, int& system_errno);
    void migrate();

    std::string path_;
    std::string data_dir_;
    SQLite::Database db_;
    // Keyed by a view of each statement's own SQL text, so a lookup copies nothing.
    std::unordered_map<std::string_view, std::unique_ptr<SQLite::Statement>> statements_;
    std::optional<std::vector<AuditedTable>> audited_tables_;
    ChangeRecorder* recorder_ = nullptr;
    struct Staged {
        std::string temporary, final_path;
    };
    std::vector<Staged> staged_files_;  // by the write in progress (publish_on_commit)
    struct Memo {
        std::string key;
        std::shared_ptr<const void> value;
        std::size_t weight;
    };
    std::deque<Memo> memos_;  // oldest first
    std::size_t memo_weight_ = 0;
    DataStamp memo_stamp_;
    bool in_handler_ = false;  // a tool's handler is running (HandlerScope)
    // Removes the files staged after the first `kept` (a write that rolled back).
    void remove_staged_files_after(std::size_t kept);
    // Puts every staged file in place (the write committed).
    void publish_staged_files();
    friend class WriteTransaction;
    friend class Savepoint;
    friend class HandlerScope;
};

class Database::Query {
public:
    explicit Query(SQLite::Statement& statement) : statement_(statement) {}
    ~Query() { statement_.tryReset(); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;
    SQLite::Statement* operator->() { return &statement_; }
    SQLite::Statement& operator*() { return statement_; }

private:
    SQLite::Statement& statement_;
};

// A part of a transaction that may be undone alone, named for what it is ("dry_run"): SAVEPOINT,
// rolled back to and released on destruction unless released. Its rollback also takes its changes
// out of the audit recorder and removes the files written since it began. Inside a tool call this
// is the only nesting a handler may open (HandlerScope); it costs what any savepoint costs (see
// WriteTransaction), so it is for a part that is undone while the call commits.
class Savepoint {
public:
    // std::logic_error outside a transaction (a SAVEPOINT there would begin a deferred one) or for
    // a name that is not an SQL identifier of letters, digits and '_'.
    Savepoint(Database& db, std::string name);
    ~Savepoint();
    Savepoint(const Savepoint&) = delete;
    Savepoint& operator=(const Savepoint&) = delete;
    void release();  // keeps its work in the enclosing transaction

private:
    Database& db_;
    std::string name_;
    bool done_ = false;
    std::size_t recorded_at_start_ = 0;  // the recorder's mark
    std::size_t files_at_start_ = 0;     // the files staged before it (publish_on_commit)
};

// A write transaction: BEGIN IMMEDIATE (so concurrent writers wait on the busy timeout instead of
// failing on a lock upgrade), rolled back on destruction unless committed. Inside another one it
// is a savepoint, so a part can fail alone or several calls can form one whole.
// A tool handler opens none: the registry's transaction is the call's, and while a handler runs
// (HandlerScope) the constructor throws std::logic_error. A savepoint held open makes SQLite copy
// every page each later statement changes into its sub-journal (triggers give every INSERT a
// statement journal), which doubled bulk_create_co_owners (docs/performance.md); a part that may
// be undone alone is a Savepoint, named as one.
class WriteTransaction {
public:
    explicit WriteTransaction(Database& db);
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;
    void commit();

private:
    Database& db_;
    std::optional<Savepoint> nested_;  // inside another transaction
    bool done_ = false;
};

// While alive, a tool's handler is running on the connection (the registry holds one around each
// call's handler): a WriteTransaction opened then throws, naming the rule. Scopes nest.
class HandlerScope {
public:
    explicit HandlerScope(Database& db) : db_(db), was_in_handler_(db.in_handler_) { db.in_handler_ = true; }
    ~HandlerScope() { db_.in_handler_ = was_in_handler_; }
    HandlerScope(const HandlerScope&) = delete;
    HandlerScope& operator=(const HandlerScope&) = delete;

private:
    Database& db_;
    bool was_in_handler_;
};

// A read transaction: the reads inside it see one snapshot, so a page and its total agree even
// while other servers write. Inside another transaction it does nothing.
class ReadTransaction {
public:
    explicit ReadTransaction(Database& db);
    ~ReadTransaction();
    ReadTransaction(const ReadTransaction&) = delete;
    ReadTransaction& operator=(const ReadTransaction&) = delete;

private:
    Database& db_;
    bool owns_;
};

}  // namespace syndic
