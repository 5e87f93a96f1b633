#include "app/copy_commands.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

#include "app/cli_audit.hpp"
#include "storage/backup.hpp"
#include "storage/file_modes.hpp"

namespace syndic::cli {

using nlohmann::json;

void CopyCommands::add_to(CLI::App& app) {
    backup = app.add_subcommand(
        "backup", "Copy the whole database to a file, safely while servers run (SQLite's online backup)");
    backup->add_option("--to", backup_to, "the file to write")->required();
    backup->add_flag("--replace", backup_replace, "overwrite the file if it exists");
    backup->add_flag("--json", as_json, "print what the copy holds as JSON");
    restore = app.add_subcommand(
        "restore", "Put a backup in place of the database (the database it replaces is saved beside it first)");
    restore->add_option("--from", restore_from, "the backup file")->required()->check(CLI::ExistingFile);
    restore->add_flag("--replace", restore_replace, "replace a database that holds syndicates");
    restore->add_flag("--json", as_json, "print what the restored database holds as JSON");
}

int CopyCommands::run(const Common& common, const Clock& clock) {
    const bool restoring = restore->parsed();
    warn_if_readable_by_others(common.db_path);
    if (restoring) warn_file_readable_by_others(restore_from, "the backup");
    std::string saved_as;
    const auto summary = restoring ? restore_database(restore_from, common.db_path, restore_replace, saved_as)
                                   : backup_database(common.db_path, backup_to, backup_replace);
    json rows = json::object();
    for (const auto& [table, n] : summary.rows) rows[table] = n;
    if (as_json) {
        json out = {{"schemaVersion", summary.schema_version}, {"bytes", summary.bytes}, {"rows", rows}};
        if (!saved_as.empty()) out["savedAs"] = saved_as;
        std::cout << out.dump() << "\n";
    }
    auto count = [&](const char* table) { return rows.value(table, std::int64_t{0}); };
    std::cerr << (restoring ? "Restored " + restore_from + " into " + common.db_path
                            : "Backed up " + common.db_path + " to " + backup_to)
              << ": " << count("syndicates") << " syndicate(s), " << count("units") << " units, "
              << count("co_owners") << " co-owners, " << count("meetings") << " meetings, schema "
              << summary.schema_version << ", " << summary.bytes << " bytes; integrity checked.\n";
    if (restoring) audit_restore(common.db_path, restore_from, saved_as, clock);
    if (!saved_as.empty()) std::cerr << "The database it replaced is saved as " << saved_as << ".\n";
    return 0;
}

}  // namespace syndic::cli
