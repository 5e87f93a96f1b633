#include "storage/audit_trail.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <variant>

#include "core/base64url.hpp"
#include "core/json_writer.hpp"
#include "storage/database.hpp"

namespace syndic {

// One stored value, as SQLite gave it.
using Cell = std::variant<std::monostate, long long, double, std::string>;

struct ChangeRecorder::Change {
    int table;                      // index in Database::audited_tables()
    long long rowid;                // the row's rowid (before an update, for an update)
    bool had_before, has_after;     // insert: false/true; update: true/true; delete: true/false
    std::vector<Cell> before, after;
};

namespace {

Cell cell_of(sqlite3_value* v) {
    switch (sqlite3_value_type(v)) {
        case SQLITE_INTEGER: return static_cast<long long>(sqlite3_value_int64(v));
        case SQLITE_FLOAT: return sqlite3_value_double(v);
        case SQLITE_TEXT:
            return std::string(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                               static_cast<std::size_t>(sqlite3_value_bytes(v)));
        case SQLITE_BLOB: {
            const auto* data = static_cast<const unsigned char*>(sqlite3_value_blob(v));
            return "base64url:" + base64url_encode(std::string_view(reinterpret_cast<const char*>(data),
                                                                    static_cast<std::size_t>(sqlite3_value_bytes(v))));
        }
        default: return std::monostate{};
    }
}

// Columns the trail leaves out of a change: the syndicate (the event's own), times the event
// already gives, and the folded copies of names that searches read.
bool left_out(std::string_view column) {
    return column == "syndicate_id" || column == "created_at" || column == "updated_at" ||
           column == "search_text" || column == "sort_key" || column.ends_with("_hash");  // never a secret's hash
}

// "first_name" → "firstName", as the interface names fields.
std::string camel_case(std::string_view column) {
    std::string out;
    bool upper = false;
    for (char c : column) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c) : c;
        upper = false;
    }
    return out;
}

void write_cell(JsonWriter& w, const Cell& c) {
    if (std::holds_alternative<long long>(c)) w.integer(std::get<long long>(c));
    else if (std::holds_alternative<double>(c)) w.number(std::get<double>(c));
    else if (std::holds_alternative<std::string>(c)) w.string(std::get<std::string>(c));
    else w.null();
}

std::string text_of(const Cell& c) {
    if (std::holds_alternative<std::string>(c)) return std::get<std::string>(c);
    if (std::holds_alternative<long long>(c)) return std::to_string(std::get<long long>(c));
    if (std::holds_alternative<double>(c)) return std::to_string(std::get<double>(c));
    return "";
}

}  // namespace

std::string record_type_of(std::string_view table) {
    std::string name(table);
    if (name.size() > 3 && name.ends_with("ies")) name.replace(name.size() - 3, 3, "y");
    else if (name.size() > 1 && name.ends_with("s")) name.pop_back();
    for (auto& c : name)
        if (c == '_') c = '-';
    return name;
}

namespace {

std::vector<std::string> every_syndicate(Database& db) {
    std::vector<std::string> out;
    auto q = db.prepare("SELECT id FROM syndicates ORDER BY id");
    while (q->executeStep()) out.push_back(q->getColumn(0).getString());
    return out;
}

}  // namespace

namespace {

// One audit_events row of a call, before it is written.
struct PendingEvent {
    std::string syndicate_id, record_type, record_id, action, changes;
};

// "INSERT ... VALUES (..), (..)" for `rows` rows: ?1-?5 the call's own columns, then five a row.
std::string insert_events_sql(std::size_t rows) {
    std::string sql =
        "INSERT INTO audit_events (occurred_at, actor_kind, actor_id, client_id, tool, syndicate_id, record_type, "
        "record_id, action, changes) VALUES ";
    for (std::size_t r = 0; r < rows; ++r) {
        const auto n = 6 + 5 * r;
        sql += (r ? ", " : "") + std::string("(?1, ?2, ?3, ?4, ?5");
        for (std::size_t c = 0; c < 5; ++c) sql += ", ?" + std::to_string(n + c);
        sql += ')';
    }
    return sql;
}

// Writes the call's events in as few statements as their number has binary digits (500: 256 +
// 128 + 64 + 32 + 16 + 4), each a multi-row INSERT compiled once and kept, at most 256 rows (1,285
// variables, under SQLite's limit of 32,766): one statement, not one per event, and never more
// than nine statement texts in the connection's cache.
void insert_events(Database& db, const AuditContext& context, const std::vector<PendingEvent>& events) {
    constexpr std::size_t largest = 256;
    std::size_t done = 0;
    while (done < events.size()) {
        std::size_t rows = largest;
        while (rows > events.size() - done) rows /= 2;
        auto q = db.prepare(insert_events_sql(rows));
        q->bind(1, context.occurred_at);
        q->bind(2, context.actor.kind);
        q->bind(3, context.actor.id);
        if (!context.actor.client_id.empty()) q->bind(4, context.actor.client_id);
        q->bind(5, context.tool);
        for (std::size_t r = 0; r < rows; ++r) {
            const auto& e = events[done + r];
            const int n = static_cast<int>(6 + 5 * r);
            q->bind(n, e.syndicate_id);
            q->bind(n + 1, e.record_type);
            q->bind(n + 2, e.record_id);
            q->bind(n + 3, e.action);
            q->bind(n + 4, e.changes);
        }
        q->exec();
        done += rows;
    }
}

// The columns a record's change moved, {"column": {"before", "after"}} (null where the record did
// not exist); empty when none did.
std::string changed_columns(const AuditedTable& table, const std::vector<Cell>* before, const std::vector<Cell>* after) {
    std::string changes;
    JsonWriter w(changes);
    w.begin_object();
    bool changed = false;
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
        if (left_out(table.columns[i])) continue;
        const Cell none;
        const Cell& was = before && i < before->size() ? (*before)[i] : none;
        const Cell& is = after && i < after->size() ? (*after)[i] : none;
        if (was == is) continue;
        changed = true;
        w.key(camel_case(table.columns[i])).begin_object();
        w.key("before");
        write_cell(w, was);
        w.key("after");
        write_cell(w, is);
        w.end_object();
    }
    w.end_object();
    return changed ? changes : std::string();
}

// create, delete, update; an update that sets or clears deleted_at is an archive or a restore.
std::string action_of(const AuditedTable& table, const std::vector<Cell>* before, const std::vector<Cell>* after) {
    if (!before) return "create";
    if (!after) return "delete";
    if (table.deleted_at_column >= 0) {
        const auto column = static_cast<std::size_t>(table.deleted_at_column);
        const bool was_deleted = !std::holds_alternative<std::monostate>((*before)[column]);
        const bool is_deleted = !std::holds_alternative<std::monostate>((*after)[column]);
        if (!was_deleted && is_deleted) return "archive";
        if (was_deleted && !is_deleted) return "restore";
    }
    return "update";
}

// The record as it stands (or stood, deleted), its columns by their camelCase names.
std::string row_json(const AuditedTable& table, const std::vector<Cell>& shown) {
    std::string row;
    JsonWriter r(row);
    r.begin_object();
    for (std::size_t i = 0; i < table.columns.size() && i < shown.size(); ++i) {
        if (left_out(table.columns[i])) continue;
        r.key(camel_case(table.columns[i]));
        write_cell(r, shown[i]);
    }
    r.end_object();
    return row;
}

}  // namespace

void append_audit_event(Database& db, const AuditContext& context, const std::string& syndicate_id,
                        const std::string& record_type, const std::string& record_id, const std::string& action,
                        const std::string& changes) {
    insert_events(db, context, {{syndicate_id, record_type, record_id, action, changes}});
}

ChangeRecorder::ChangeRecorder(Database& db) : db_(db) {
    if (!sqlite3_compileoption_used("ENABLE_PREUPDATE_HOOK"))
        throw std::runtime_error("this SQLite library is built without the pre-update hook the audit trail needs");
    if (db_.recorder()) throw std::logic_error("a connection records one write at a time");
    db_.audited_tables();  // read before any change, outside the hook
    sqlite3_preupdate_hook(db_.sql().getHandle(), &ChangeRecorder::on_change, this);
    db_.set_recorder(this);
}

ChangeRecorder::~ChangeRecorder() { stop(); }

void ChangeRecorder::stop() {
    if (!recording_) return;
    sqlite3_preupdate_hook(db_.sql().getHandle(), nullptr, nullptr);
    db_.set_recorder(nullptr);
    recording_ = false;
}

std::size_t ChangeRecorder::mark() const { return changes_.size(); }

void ChangeRecorder::forget_after(std::size_t mark) {
    if (mark < changes_.size()) changes_.resize(mark);
}

void ChangeRecorder::on_change(void* self, sqlite3* handle, int op, const char* db_name, const char* table,
                               long long old_rowid, long long new_rowid) {
    auto& recorder = *static_cast<ChangeRecorder*>(self);
    if (std::strcmp(db_name, "main") != 0) return;
    const auto& tables = recorder.db_.audited_tables();
    int index = -1;
    for (std::size_t i = 0; i < tables.size(); ++i)
        if (tables[i].name == table) index = static_cast<int>(i);
    if (index < 0) return;

    Change change{index, op == SQLITE_INSERT ? new_rowid : old_rowid, op != SQLITE_INSERT, op != SQLITE_DELETE, {}, {}};
    const int n = sqlite3_preupdate_count(handle);
    sqlite3_value* v = nullptr;
    for (int i = 0; i < n; ++i) {
        if (change.had_before && sqlite3_preupdate_old(handle, i, &v) == SQLITE_OK) change.before.push_back(cell_of(v));
        if (change.has_after && sqlite3_preupdate_new(handle, i, &v) == SQLITE_OK) change.after.push_back(cell_of(v));
    }
    recorder.changes_.push_back(std::move(change));
}

int ChangeRecorder::write_events(const AuditContext& context, std::vector<RecordChange>* written) {
    stop();
    const auto& tables = db_.audited_tables();

    // One record per (table, rowid), in order of first change: the values before its first
    // change and after its last.
    struct Record {
        int table;
        long long rowid;
        const std::vector<Cell>* before;  // null: the call created it
        const std::vector<Cell>* after;   // null: the call deleted it
    };
    std::vector<Record> records;
    for (const auto& c : changes_) {
        auto it = std::find_if(records.begin(), records.end(),
                               [&](const Record& r) { return r.table == c.table && r.rowid == c.rowid; });
        if (it == records.end()) {
            records.push_back({c.table, c.rowid, c.had_before ? &c.before : nullptr, c.has_after ? &c.after : nullptr});
        } else {
            it->after = c.has_after ? &c.after : nullptr;
        }
    }

    std::vector<PendingEvent> events;
    for (const auto& r : records) {
        if (!r.before && !r.after) continue;  // created and deleted again
        const auto& table = tables[static_cast<std::size_t>(r.table)];
        const auto& shown = r.after ? *r.after : *r.before;

        const auto changes = changed_columns(table, r.before, r.after);
        if (changes.empty()) continue;
        const auto action = action_of(table, r.before, r.after);
        std::string record_id;
        for (int column : table.key_columns)
            record_id += (record_id.empty() ? "" : "/") + text_of(shown[static_cast<std::size_t>(column)]);

        std::vector<std::string> syndicates;
        if (!context.syndicate_id.empty()) syndicates = {context.syndicate_id};
        else if (table.syndicate_column >= 0) syndicates = {text_of(shown[static_cast<std::size_t>(table.syndicate_column)])};
        else syndicates = every_syndicate(db_);
        const auto row = written ? row_json(table, shown) : std::string();
        for (const auto& syndicate : syndicates) {
            events.push_back({syndicate, record_type_of(table.name), record_id, action, changes});
            if (written) written->push_back({syndicate, record_type_of(table.name), record_id, action, changes, row});
        }
    }
    changes_.clear();
    insert_events(db_, context, events);
    return static_cast<int>(events.size());
}

}  // namespace syndic
