// What tenancy tests compare: the tables whose rows carry a syndicate_id (read from the schema, so
// a module's new table is compared with no edit) and every row of one syndicate in them, byte for
// byte. Knows the database only.
#pragma once
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>
#include <vector>

#include "storage/database.hpp"

namespace syndic::test {

inline std::vector<std::string> tenant_tables(Database& db) {
    std::vector<std::string> out;
    SQLite::Statement q(db.sql(),
                        "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS "
                        "(SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'syndicate_id') ORDER BY m.name");
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
    return out;
}

// Every row of one syndicate, in every tenant table, and its row of syndicates.
inline std::string tenant_rows(Database& db, const std::string& syndicate_id) {
    std::string out;
    auto dump = [&](const std::string& table, const std::string& sql) {
        SQLite::Statement q(db.sql(), sql);
        q.bind(1, syndicate_id);
        const int n = q.getColumnCount();
        std::vector<std::string> rows;
        while (q.executeStep()) {
            std::string row;
            for (int i = 0; i < n; ++i) {
                const auto c = q.getColumn(i);
                row += c.isNull() ? "<null>" : std::string(static_cast<const char*>(c.getBlob()), c.getBytes());
                row += "|";
            }
            rows.push_back(std::move(row));
        }
        std::sort(rows.begin(), rows.end());
        for (const auto& r : rows) out += r + "\n";
        out += table + ": " + std::to_string(rows.size()) + "\n--\n";
    };
    dump("syndicates", "SELECT * FROM syndicates WHERE id = ?");
    for (const auto& table : tenant_tables(db)) dump(table, "SELECT * FROM " + table + " WHERE syndicate_id = ?");
    return out;
}

}  // namespace syndic::test
