#include "modules/record_table.hpp"

#include <SQLiteCpp/Statement.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace {

bool shown(const RecordField& f) { return f.role != FieldRole::hidden; }
bool written(const RecordField& f) { return f.role != FieldRole::computed; }

// SELECT list: id, the shown fields in order, created_at, updated_at, deleted_at.
std::string select_sql(const RecordTable& t) {
    std::string sql = "SELECT r.id";
    for (const auto& f : t.fields) {
        if (!shown(f)) continue;
        sql += ", ";
        sql += f.role == FieldRole::computed ? std::string(f.sql) : std::string("r.") + f.sql;
    }
    return sql + ", r.created_at, r.updated_at, r.deleted_at FROM " + t.table + " r" + t.joins;
}

json read_value(const SQLite::Column& c, FieldType type) {
    if (c.isNull()) return nullptr;
    switch (type) {
        case FieldType::text:
        case FieldType::required_text:
        case FieldType::reference:
        case FieldType::date: return c.getString();
        case FieldType::integer: return c.getInt64();
        case FieldType::number: return nullable_real(c);
        case FieldType::boolean: return c.getInt64() != 0;
        case FieldType::json_value: return json::parse(c.getString());
    }
    return nullptr;
}

json read_record(const RecordTable& t, SQLite::Statement& q) {
    json record = {{"id", q.getColumn(0).getString()}};
    int column = 1;
    for (const auto& f : t.fields)
        if (shown(f)) record[f.name] = read_value(q.getColumn(column++), f.type);
    record["createdAt"] = shown_time(q.getColumn(column));
    record["updatedAt"] = shown_time(q.getColumn(column + 1));
    if (!q.getColumn(column + 2).isNull()) record["deletedAt"] = shown_time(q.getColumn(column + 2));
    return record;
}

void bind_today(SQLite::Statement& q, const std::string& day) {
    if (q.getBindParameterCount() >= today_parameter) q.bind(today_parameter, day);
}

void bind_value(SQLite::Statement& q, int index, const json& v, FieldType type) {
    if (v.is_null()) q.bind(index);
    else if (type == FieldType::json_value) q.bind(index, v.dump());
    else if (v.is_string()) q.bind(index, v.get<std::string>());
    else if (v.is_boolean()) q.bind(index, v.get<bool>() ? 1 : 0);
    else if (v.is_number_integer()) q.bind(index, v.get<std::int64_t>());
    else q.bind(index, v.get<double>());
}

json read_by_id(const ToolCall& call, const RecordTable& t, const std::string& id, bool active_only) {
    auto q = call.db.prepare(select_sql(t) + " WHERE r.id = ?1 AND r.syndicate_id = ?2" +
                             (active_only ? " AND r.deleted_at IS NULL" : ""));
    bind_parameters(*q, id, call.caller.syndicate_id);
    bind_today(*q, today(call));
    if (!q->executeStep()) return nullptr;
    return read_record(t, *q);
}

const RecordField* field_named(const RecordTable& t, const std::string& name) {
    for (const auto& f : t.fields)
        if (name == f.name) return &f;
    return nullptr;
}

// The stored fields an argument object sets, dates checked and text trimmed, keyed by field name
// (null clears). Hidden fields are the module's rules' to add.
json stored_values(const RecordTable& table, const Arguments& args) {
    json values = json::object();
    for (const auto& f : table.fields) {
        if (f.role != FieldRole::stored) continue;
        if (!args.has(f.name)) continue;
        json v = args.value(f.name);
        if (v.is_string() && f.type == FieldType::text) {
            v = trim(v.get<std::string>());
            if (v.get_ref<const std::string&>().empty()) v = nullptr;
        }
        if (v.is_string() && f.type == FieldType::required_text) v = args.nonblank(f.name);
        if (v.is_string() && f.type == FieldType::date && !is_calendar_date(v.get<std::string>()))
            throw invalid_argument(args.pointer(f.name), "is not a calendar date",
                                   std::string(f.name) + " must be a date that exists, as YYYY-MM-DD.");
        values[f.name] = std::move(v);
    }
    return values;
}

// Inserts a row of the caller's syndicate with `values` (fields by name); returns its id.
std::string insert_record(const ToolCall& call, const RecordTable& table, const json& values) {
    const std::string id = new_record_id();
    const std::string now = to_utc_iso(call.clock.now());
    std::string columns = "id, syndicate_id, created_at, updated_at", marks = "?, ?, ?, ?";
    std::vector<std::pair<const RecordField*, const json*>> bound;
    for (const auto& [key, value] : values.items()) {
        const auto* f = field_named(table, key);
        if (!f || !written(*f)) throw std::logic_error(std::string(table.table) + " has no stored field " + key);
        columns += std::string(", ") + f->sql;
        marks += ", ?";
        bound.emplace_back(f, &value);
    }
    auto q = call.db.prepare(std::string("INSERT INTO ") + table.table + " (" + columns + ") VALUES (" + marks + ")");
    bind_parameters(*q, id, call.caller.syndicate_id, now, now);
    int index = 5;
    for (const auto& [f, v] : bound) bind_value(*q, index++, *v, f->type);
    q->exec();
    return id;
}

// Writes `values` and the update time to an existing row.
void update_record(const ToolCall& call, const RecordTable& table, const std::string& id, const json& values) {
    std::string sql = std::string("UPDATE ") + table.table + " SET ";
    std::vector<std::pair<const RecordField*, const json*>> bound;
    for (const auto& [key, value] : values.items()) {
        const auto* f = field_named(table, key);
        if (!f || !written(*f)) throw std::logic_error(std::string(table.table) + " has no stored field " + key);
        sql += std::string(f->sql) + " = ?, ";
        bound.emplace_back(f, &value);
    }
    sql += "updated_at = ? WHERE id = ? AND syndicate_id = ?";
    auto q = call.db.prepare(sql);
    int index = 1;
    for (const auto& [f, v] : bound) bind_value(*q, index++, *v, f->type);
    q->bind(index++, to_utc_iso(call.clock.now()));
    q->bind(index++, id);
    q->bind(index, call.caller.syndicate_id);
    q->exec();
}

}  // namespace

std::string today(const ToolCall& call) { return montreal_date(call.clock.now()); }


json require_record(const ToolCall& call, const RecordTable& table, const std::string& id, const std::string& field) {
    auto record = read_by_id(call, table, id, true);
    if (record.is_null()) throw record_not_found(table.table, id, field);
    return record;
}

json require_record_any_state(const ToolCall& call, const RecordTable& table, const std::string& id, const std::string& field) {
    auto record = read_by_id(call, table, id, false);
    if (record.is_null()) throw record_not_found(table.table, id, field);
    return record;
}

json list_records(const ToolCall& call, const RecordTable& table, const std::string& where, const std::string& order,
                  const std::function<void(SQLite::Statement&)>& bind) {
    const auto page = page_request(call.arguments());
    const std::string day = today(call);
    const std::string filters =
        " WHERE r.syndicate_id = ?1 AND r.deleted_at IS NULL" + (where.empty() ? "" : " AND (" + where + ")");
    json data = json::array();
    const auto total = read_page(
        call.db, std::string("SELECT count(*) FROM ") + table.table + " r" + table.joins + filters,
        select_sql(table) + filters + " ORDER BY " + order + " LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) {
            q.bind(1, call.caller.syndicate_id);
            bind_today(q, day);
            bind(q);
        },
        [&](SQLite::Statement& q) { data.push_back(read_record(table, q)); });
    return page_envelope(std::move(data), page, total);
}


json merged(json record, const json& values) {
    for (const auto& [key, value] : values.items()) record[key] = value;
    return record;
}



json create_from_arguments(const ToolCall& call, const RecordTable& table, const RecordRules& rules) {
    auto values = stored_values(table, call.arguments());
    rules(call, json::object(), values);
    return require_record(call, table, insert_record(call, table, values));
}

json update_from_arguments(const ToolCall& call, const RecordTable& table, const RecordRules& rules) {
    const std::string id = call.arguments().text("id");
    const auto record = require_record(call, table, id);
    auto values = stored_values(table, call.arguments());
    rules(call, record, values);
    if (!values.empty()) update_record(call, table, id, values);
    return require_record(call, table, id);
}

json archive_record(const ToolCall& call, const RecordTable& table, const std::string& id) {
    require_record(call, table, id);
    auto q = call.db.prepare(std::string("UPDATE ") + table.table +
                             " SET deleted_at = ?1, updated_at = ?1 WHERE id = ?2 AND syndicate_id = ?3");
    bind_parameters(*q, to_utc_iso(call.clock.now()), id, call.caller.syndicate_id);
    q->exec();
    return read_by_id(call, table, id, false);
}

}  // namespace syndic
