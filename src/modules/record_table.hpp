// A register of plain records (water heaters, insurance policies, contractors...): a table whose
// columns map one to one to the record's fields, read and written from a table of fields rather
// than by hand. Each row has id, syndicate_id, created_at, updated_at and deleted_at (archive, not
// erase). A module declares its RecordTable, checks its own rules, and calls these. Included only
// by module sources; knows storage and the tool call, not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <SQLiteCpp/Statement.h>

#include <functional>
#include <string>
#include <vector>

#include "tools/arguments.hpp"
#include "tools/registry.hpp"

namespace syndic {

enum class FieldType {
    text,     // trimmed on write; blank (spaces only, Unicode ones too) is stored as null
    required_text,  // trimmed on write; blank is VALIDATION_FAILED
    reference,  // the id of another record, stored as given: the module checks that it exists
    date,     // a calendar date "2026-11-21"; one that does not exist is VALIDATION_FAILED
    integer,  // integer cents, counts
    number,   // whole values shown as integers
    boolean,  // stored 0/1
    json_value,  // stored as JSON text, shown as the JSON value (an array, an object)
};

enum class FieldRole {
    stored,    // an argument of create/update and a member of the record
    computed,  // a member of the record only: `sql` is an expression over the row `r`
    hidden,    // stored, never shown: the module computes it (folded search text...)
};

struct RecordField {
    const char* name;  // the record's member and the argument of the same name (camelCase)
    const char* sql;   // the column (stored, hidden) or the expression (computed)
    FieldType type;
    FieldRole role = FieldRole::stored;
};

// Computed expressions and list filters may use ?99: today's date in Montreal, bound on every read.
inline constexpr int today_parameter = 99;
#define SYNDIC_TODAY "?99"

struct RecordTable {
    // "water_heaters"; read as `r`. An id not in the caller's syndicate (or archived) is refused
    // with the code its manifest declares for the table (modules/record_exists.hpp).
    const char* table;
    std::vector<RecordField> fields;
    const char* joins = "";  // what computed fields join, e.g. " JOIN syndicates s ON s.id = r.syndicate_id"
};

// The record of an active row of the caller's syndicate, refused with the table's not-found code
// (record_not_found) at `field` when there is none.
nlohmann::json require_record(const ToolCall& call, const RecordTable& table, const std::string& id,
                              const std::string& field = "/id");

// The record of a row of the caller's syndicate, archived ones too (with deletedAt), refused as
// require_record refuses.
nlohmann::json require_record_any_state(const ToolCall& call, const RecordTable& table, const std::string& id,
                                        const std::string& field = "/id");

// One page of the caller's active records: `where` adds conditions over `r` using ?2..?98 (bound
// by `bind`, ?1 is the syndicate) and ?99 (today); `order` is the ORDER BY list.
nlohmann::json list_records(const ToolCall& call, const RecordTable& table, const std::string& where,
                            const std::string& order, const std::function<void(SQLite::Statement&)>& bind);

// `record` with `values` applied: what a row will hold after an update, for rules across fields.
nlohmann::json merged(nlohmann::json record, const nlohmann::json& values);

// The rules a module checks before a write. `record` is the record as it is (an empty object
// for a creation); `values` are the stored fields about to be written, which the rules may
// complete (normalized forms, hidden fields). They throw DomainError to refuse.
using RecordRules = std::function<void(const ToolCall& call, const nlohmann::json& record, nlohmann::json& values)>;

// create_*: the arguments' stored fields, checked by `rules`, inserted; returns the new record.
nlohmann::json create_from_arguments(const ToolCall& call, const RecordTable& table, const RecordRules& rules);
// update_*: the record named by the argument `id`, the fields given, checked by `rules` against
// the record, written; returns the record as it now is.
nlohmann::json update_from_arguments(const ToolCall& call, const RecordTable& table, const RecordRules& rules);

// delete_*: archives the active row named by `id` (deleted_at); returns the record as it now is,
// with deletedAt.
nlohmann::json archive_record(const ToolCall& call, const RecordTable& table, const std::string& id);

// Today in Montreal, "2026-11-22", by the call's clock.
std::string today(const ToolCall& call);

}  // namespace syndic
