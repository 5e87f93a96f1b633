#include "app/cli_support.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "app/secrets_options.hpp"
#include "auth/credentials.hpp"
#include "modules/documents/document_files.hpp"
#include "storage/backup.hpp"
#include "storage/durable_file.hpp"

namespace syndic::cli {

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const auto first = item.find_first_not_of(' ');
        if (first == std::string::npos) continue;
        out.push_back(item.substr(first, item.find_last_not_of(' ') - first + 1));
    }
    return out;
}

std::string default_db_path() {
    if (auto p = env("SYNDIC_DB"); !p.empty()) return p;
    if (auto x = env("XDG_DATA_HOME"); !x.empty()) return x + "/syndic-mcp/syndic.db";
    if (auto h = env("HOME"); !h.empty()) return h + "/.local/share/syndic-mcp/syndic.db";
    return "syndic.db";
}


// The syndicate a command works on: the one given, else the only one, else the only one that is not
// the demo (the quick start's demo and the user's `init` side by side), said on stderr.
std::string pick_syndicate(Database& db, const std::string& given) {
    const auto all = list_syndicates(db);
    if (!given.empty()) {
        for (const auto& s : all)
            if (s.id == given) return s.id;
        throw std::runtime_error("no syndicate with id " + given + " in " + db.path());
    }
    if (all.size() == 1) return all.front().id;
    if (all.empty()) throw std::runtime_error("the database has no syndicate yet: run `syndic-mcp init --name \"...\"`");
    std::vector<const Syndicate*> real;
    for (const auto& s : all)
        if (!s.is_demo) real.push_back(&s);
    if (real.size() == 1) {
        std::cerr << "syndic-mcp: using " << real.front()->name << " (" << real.front()->id
                  << "), the database's syndicate besides the demo; --syndicate ID chooses another" << std::endl;
        return real.front()->id;
    }
    std::string list;
    for (const auto& s : all) list += "\n  " + s.id + "  " + s.name + (s.is_demo ? " (the demo)" : "");
    throw std::runtime_error("the database has several syndicates; pass --syndicate ID:" + list);
}

std::unique_ptr<Database> open_existing(const std::string& path) {
    if (path != ":memory:" && !std::filesystem::exists(path))
        throw std::runtime_error("no database at " + path + ": create it with `syndic-mcp init --name \"...\"` (or pass --db)");
    check_database_at_start(path);
    return Database::open(path);
}

void settle_leftover_files(const std::string& db_path) {
    if (db_path == ":memory:") return;
    for (const auto& copy : remove_leftover_restores(db_path))
        spdlog::warn("removed {}: the copy of a backup left by a restore that stopped", copy);
    if (!std::filesystem::exists(db_path)) return;
    std::unique_ptr<Database> db;
    try {
        db = Database::open(db_path);
    } catch (const std::exception& e) {
        // Whether a temporary's row was committed cannot be told: left for a start that can. The
        // calls will say what is wrong with the database.
        spdlog::debug("leftover files not settled: {}", e.what());
        return;
    }
    settle_leftover_exports(db_path, [&](const std::string& folder, const std::string& name) {
        return file_is_recorded(*db, folder, name);
    });
}

}  // namespace syndic::cli
