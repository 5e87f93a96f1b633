// What every sub-command of the command line shares: the database path and logging options, the
// default database, picking the syndicate a command works on, opening an existing database.
// Knows no sub-command.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "storage/database.hpp"

namespace syndic::cli {

std::string env(const char* name);
// "a, b,,c" into {"a", "b", "c"}: items trimmed, empty ones dropped.
std::vector<std::string> split_list(const std::string& text);
// $SYNDIC_DB, else $XDG_DATA_HOME/syndic-mcp/syndic.db, else ~/.local/share/syndic-mcp/syndic.db.
std::string default_db_path();

struct Common {
    std::string db_path = default_db_path();
    std::string log_level = "info";
    std::string log_file;
};

// The syndicate a command works on: the one given, else the only one, else the only one that is not
// the demo (said on stderr); std::runtime_error listing them when that does not settle it.
std::string pick_syndicate(Database& db, const std::string& given);
// The database at `path`, which must exist (checked for a newer schema and its modes first).
std::unique_ptr<Database> open_existing(const std::string& path);
// At a server's start: the files a stopped process left beside the database (storage/
// durable_file.hpp): a temporary whose row was committed is put in place, any other removed; and
// the copies a killed restore left (storage/backup.hpp).
void settle_leftover_files(const std::string& db_path);

}  // namespace syndic::cli
