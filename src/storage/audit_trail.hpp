// The audit trail's storage: catching every row a write changes (SQLite's pre-update hook sees each
// row any statement or trigger writes, with its values before and after) and writing one
// audit_events row per record changed, in the write's own transaction. Knows SQL, not tools or
// JSON-RPC: the caller says who wrote and through which tool.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace syndic {

class Database;

// A table whose rows the trail follows, as its schema says.
struct AuditedTable {
    std::string name;
    std::vector<std::string> columns;  // in the table's order
    std::vector<int> key_columns;      // the primary key's columns
    int deleted_at_column = -1;        // soft delete, when the table has it
    int syndicate_column = -1;         // whose row it is: syndicate_id (syndicates: id); -1 for
                                       // rows of every syndicate (oauth_clients)
};

// Who made a change: an API key, a user through an OAuth application, or the program itself.
struct AuditActor {
    std::string kind;       // "api-key", "user" or "system"
    std::string id;         // api_keys.id, users.id, or "syndic-mcp"
    std::string client_id;  // the OAuth application, empty for a key
};

// What the changes of one call were made by.
struct AuditContext {
    std::string syndicate_id;  // empty: each row's own syndicate (every syndicate for a row of
                               // none), as for the command line's changes
    AuditActor actor;
    std::string tool;
    std::string occurred_at;  // UTC instant, as stored
};

// One record a call changed, as the trail wrote it (the events of catalogue section 6 are written
// from these, after the trail's rows).
struct RecordChange {
    std::string syndicate_id, record_type, record_id;
    std::string action;   // create, update, archive, restore or delete
    std::string changes;  // JSON object {field: {before, after}}, camelCase, as the trail keeps it
    std::string row;      // JSON object of the record's columns (camelCase) after the change, before
                          // it for a deletion; the trail's left-out columns are not in it
};

// While alive, records the changes made on one connection to the syndicate's business tables
// (every table with a syndicate_id column, except the audit trail and derived tallies), the
// syndicates themselves and the OAuth applications (changed from the command line). A nested
// WriteTransaction that rolls back takes its changes out again. One recorder per connection at a
// time.
class ChangeRecorder {
public:
    explicit ChangeRecorder(Database& db);
    ~ChangeRecorder();
    ChangeRecorder(const ChangeRecorder&) = delete;
    ChangeRecorder& operator=(const ChangeRecorder&) = delete;

    // Stops recording and writes one audit_events row per record changed, in order of first
    // change; several changes to one record make one row (its values before the first and after
    // the last). A record created and deleted again, or changed only in columns the trail leaves
    // out (updated_at, derived search columns), makes none. The rows go in together, a few
    // multi-row INSERTs (one per binary digit of their number), not one INSERT a row. Returns the
    // number of rows written; `written`, when given, receives one RecordChange per row.
    int write_events(const AuditContext& context, std::vector<RecordChange>* written = nullptr);

    // For WriteTransaction: how many changes are recorded, and forgetting those after a mark
    // when a savepoint rolls back.
    std::size_t mark() const;
    void forget_after(std::size_t mark);

    struct Change;  // audit_trail.cpp
private:
    void stop();
    static void on_change(void* self, sqlite3* handle, int op, const char* db_name, const char* table,
                          long long old_rowid, long long new_rowid);

    Database& db_;
    bool recording_ = true;
    std::vector<Change> changes_;
};

// Writes one audit_events row as it is (the restore of a whole database, which no row change
// describes); `changes` is a JSON object.
void append_audit_event(Database& db, const AuditContext& context, const std::string& syndicate_id,
                        const std::string& record_type, const std::string& record_id, const std::string& action,
                        const std::string& changes);

// "co_owners" → "co-owner", "insurance_policies" → "insurance-policy": a table's rows as the trail
// names them.
std::string record_type_of(std::string_view table);

}  // namespace syndic
