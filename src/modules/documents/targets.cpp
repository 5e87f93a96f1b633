#include "modules/documents/targets.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "storage/audit_trail.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::documents {

namespace {

bool excluded(const std::string& type) {
    return type == "document" || type == "document-link" || type == "api-key" || type == "user";
}

// The table of a record type a document may name, with a single `id` key and a syndicate column.
const AuditedTable* target_table(Database& db, const std::string& type) {
    if (excluded(type)) return nullptr;
    for (const auto& t : db.audited_tables()) {
        if (record_type_of(t.name) != type || t.syndicate_column < 0 || t.key_columns.size() != 1) continue;
        if (t.columns[static_cast<std::size_t>(t.key_columns[0])] != "id") continue;
        return &t;
    }
    return nullptr;
}

}  // namespace

std::vector<std::string> target_types(Database& db) {
    std::vector<std::string> out;
    for (const auto& t : db.audited_tables()) {
        const auto type = record_type_of(t.name);
        if (target_table(db, type) == &t) out.push_back(type);
    }
    std::sort(out.begin(), out.end());
    return out;
}

void require_target(Database& db, const CallerContext& caller, const std::string& record_type,
                    const std::string& record_id, const std::string& field) {
    const auto* table = target_table(db, record_type);
    if (!table) {
        std::string known;
        for (const auto& t : target_types(db)) known += (known.empty() ? "" : ", ") + t;
        throw DomainError(codes::target_not_found,
                          "No record type '" + record_type + "' takes documents; the types are: " + known + ".")
            .at("/recordType")
            .with("recordType", record_type);
    }
    const auto& syndicate_column = table->columns[static_cast<std::size_t>(table->syndicate_column)];
    std::string sql = "SELECT 1 FROM " + table->name + " WHERE id = ? AND " + syndicate_column + " = ?";
    if (table->deleted_at_column >= 0) sql += " AND deleted_at IS NULL";
    auto q = db.prepare(sql);
    bind_parameters(*q, record_id, caller.syndicate_id);
    if (!q->executeStep())
        throw DomainError(codes::target_not_found,
                          "No active " + record_type + " with id " + record_id + " in this syndicate to attach the document to.")
            .at(field)
            .with("recordType", record_type);
}

}  // namespace syndic::documents
