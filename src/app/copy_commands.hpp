// `backup --to` (SQLite's online backup, safe while servers run) and `restore --from` (a backup in
// place of the database, the one it replaces saved beside it, the restore written in the audit
// trail). The copying itself is storage/backup's.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "app/cli_support.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

struct CopyCommands {
    CLI::App* backup = nullptr;
    CLI::App* restore = nullptr;
    std::string backup_to, restore_from;
    bool backup_replace = false, restore_replace = false, as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const { return backup->parsed() || restore->parsed(); }
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
