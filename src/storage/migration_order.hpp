// The rules of migrations numbered by module: a migration is "<module>/NNN_name.sql", numbered
// from 001 within its module ("core" for the tables below every module); the core's apply first,
// then each module's after those of the modules its manifest's dependsOn names. Knows names and a
// graph of module ids, not SQL, files or manifests.
#pragma once
#include <compare>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

// The module whose migrations apply before every other: the core's tables (storage/migrations).
inline constexpr std::string_view core_module = "core";

struct MigrationKey {
    std::string module;  // "core", "meetings"
    int number = 0;      // within the module, from 1
    auto operator<=>(const MigrationKey&) const = default;
};

// The key of a migration named "<module>/NNN_name.sql" (NNN from 001); nothing when the name is
// not of that form.
std::optional<MigrationKey> migration_key(std::string_view name);

// Each module's migrations are numbered 1, 2, 3... with neither a gap nor a duplicate: a database
// that has a module's migration N has every one before it. Throws std::logic_error naming the
// files at fault. Checked whenever the embedded migrations are read (every open).
void check_migration_names(const std::vector<std::string>& names);

// The order modules' migrations apply in: "core" first, then each module once all the modules it
// depends on are placed, the ready ones by id. `depends_on` maps every module with a manifest
// (never "core") to the ids it depends on; an id only depended on is placed like a module without
// dependencies. Throws std::logic_error when a module depends on itself or dependsOn forms a
// cycle (named).
std::vector<std::string> module_order(const std::map<std::string, std::vector<std::string>>& depends_on);

}  // namespace syndic
