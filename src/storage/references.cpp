#include "storage/references.hpp"

#include "storage/database.hpp"

namespace syndic {
namespace {

std::string sql_name(std::string_view name) {
    std::string out = "\"";
    for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

struct ReferringColumn {
    std::string table, column;
    bool has_deleted_at, has_syndicate_id;
};

// The columns whose foreign key points at `table`'s id ("to" is null when the key names the
// table alone, that is its primary key).
std::vector<ReferringColumn> referring_columns(Database& db, std::string_view table) {
    SQLite::Statement q(db.sql(),
                        "SELECT m.name, f.\"from\","
                        " EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'deleted_at'),"
                        " EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'syndicate_id')"
                        " FROM sqlite_master m, pragma_foreign_key_list(m.name) f"
                        " WHERE m.type = 'table' AND f.\"table\" = ?1 COLLATE NOCASE"
                        " AND (f.\"to\" IS NULL OR f.\"to\" = 'id')"
                        " ORDER BY m.rowid, f.id, f.seq");
    q.bind(1, std::string(table));
    std::vector<ReferringColumn> out;
    while (q.executeStep())
        out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getInt() != 0,
                       q.getColumn(3).getInt() != 0});
    return out;
}

}  // namespace

std::vector<Reference> live_references(Database& db, std::string_view table, const std::string& id,
                                       const std::string& syndicate_id) {
    std::vector<Reference> out;
    for (const auto& ref : referring_columns(db, table)) {
        std::string sql = "SELECT count(*) FROM " + sql_name(ref.table) + " WHERE " + sql_name(ref.column) + " = ?1";
        if (ref.has_deleted_at) sql += " AND deleted_at IS NULL";
        if (ref.has_syndicate_id) sql += " AND syndicate_id = ?2";
        SQLite::Statement q(db.sql(), sql);
        q.bind(1, id);
        if (ref.has_syndicate_id) q.bind(2, syndicate_id);
        q.executeStep();
        if (const auto n = q.getColumn(0).getInt64(); n > 0) out.push_back({ref.table, ref.column, n});
    }
    return out;
}

}  // namespace syndic
