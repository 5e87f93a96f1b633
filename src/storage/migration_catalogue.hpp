// The migrations embedded in this executable, in the order they apply: the files
// "<module>/NNN_name.sql" (tools/embed.py), each module's by number, the modules in the order of
// their manifests' dependsOn (schemas/<module>/module.json, embedded with the tool schemas).
// Knows names, SQL text and the module graph; not databases.
#pragma once
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/embedded.hpp"
#include "storage/migration_order.hpp"

namespace syndic {

struct Migration {
    MigrationKey key;
    std::string_view name;  // "meetings/003_meetings_roll.sql"
    std::string_view sql;
};

// `files` in the order they apply: their names checked (check_migration_names), each module's by
// number, the modules as module_order(depends_on) places them. Throws std::logic_error when a
// migration's module is neither "core" nor in `depends_on`, or when the names or the graph break
// a rule.
std::vector<Migration> order_migrations(std::span<const EmbeddedFile> files,
                                        const std::map<std::string, std::vector<std::string>>& depends_on);

// Every module with an embedded manifest, with the ids its "dependsOn" names.
std::map<std::string, std::vector<std::string>> embedded_module_graph();

// The embedded migrations in the order they apply (order_migrations of the embedded files and
// graph), worked out once; throws std::logic_error as order_migrations does, at every call.
const std::vector<Migration>& embedded_migration_plan();

}  // namespace syndic
