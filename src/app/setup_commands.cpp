#include "app/setup_commands.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "app/demo.hpp"
#include "app/key_commands.hpp"
#include "auth/credentials.hpp"
#include "core/text.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"

namespace syndic::cli {

void InitCommand::add_to(CLI::App& app) {
    command = app.add_subcommand("init", "Create the database if missing and a syndicate; print its admin API key once");
    command->add_option("--name", name, "the syndicate's name")->required();
    command->add_flag("--json", as_json, "print {\"syndicateId\":..,\"apiKey\":..}");
    command->add_flag("--force", force, "create the syndicate even if one of that name exists already");
}

int InitCommand::run(const Common& common, const Clock& clock) {
    auto db = Database::open(common.db_path);
    WriteTransaction tx(*db);
    // Running init again must not add a second syndicate (and admin key) by the same name.
    for (const auto& existing : list_syndicates(*db))
        if (!force && fold_for_search(trim(existing.name)) == fold_for_search(trim(name))) {
            std::cerr << "syndic-mcp: a syndicate named \"" << existing.name << "\" exists already ("
                      << existing.id << "); nothing was created. Its admin key was printed when it was "
                      << "created; for a new one: syndic-mcp keys create --syndicate " << existing.id
                      << " --role admin. Give --force to create another syndicate of that name.\n";
            return 1;
        }
    const auto id = create_syndicate(*db, clock, name, false);
    const auto key = issue_api_key(*db, clock, id, Role::admin, {all_scopes}, "admin (init)");
    tx.commit();
    std::cerr << "Created syndicate \"" << name << "\" (" << id << ") in " << common.db_path
              << ".\nIts admin API key follows; it is shown only this once:\n";
    print_key(key, id, as_json, "syndicateId");
    return 0;
}

void DemoCommand::add_to(CLI::App& app) {
    command = app.add_subcommand("demo", "Create (or reuse) a demo syndicate with realistic data and print an admin key for it");
    command->add_flag("--json", as_json, "print {\"syndicateId\":..,\"apiKey\":..}");
    command->add_option("--key-file", key_file,
                        "keep the key in this file (mode 600) and print that one again while it is valid "
                        "(default: demo-admin.key beside the database)");
}

namespace {

// `secret` and a newline in `path`, readable by its owner only from the moment it exists.
void write_key_file(const std::string& path, const std::string& secret) {
    const auto folder = std::filesystem::path(path).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || ::fchmod(fd, 0600) != 0) throw std::runtime_error("cannot write " + path);
    const std::string line = secret + "\n";
    const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    ::close(fd);
    if (!written) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int DemoCommand::run(const Common& common, const Clock& clock) {
    ToolRegistry registry(all_tool_handlers());
    auto db = Database::open(common.db_path);
    // The demo's admin key is kept beside the database unless told otherwise, so running demo
    // again prints the same key instead of adding one.
    if (key_file.empty()) key_file = (std::filesystem::path(common.db_path).parent_path() / "demo-admin.key").string();
    const bool existed = find_demo_syndicate(*db).has_value();
    const auto syndicate = ensure_demo_syndicate(*db, clock, registry);
    if (!key_file.empty()) {
        std::ifstream in(key_file);
        std::string kept;
        if (in >> kept) {
            if (auto caller = authenticate(*db, kept); caller && caller->syndicate_id == syndicate) {
                std::cerr << "Demo syndicate " << syndicate << ": using the admin key kept in " << key_file << "\n";
                print_key({caller->api_key_id, kept}, syndicate, as_json, "syndicateId");
                return 0;
            }
        }
    }
    const auto key = issue_api_key(*db, clock, syndicate, Role::admin, {all_scopes}, "demo admin");
    if (!key_file.empty()) write_key_file(key_file, key.secret);
    std::cerr << (existed ? "Reusing" : "Created") << " the demo syndicate \"" << demo_syndicate_name << "\" ("
              << syndicate << ") in " << common.db_path << "; a new admin key for it follows:\n";
    print_key(key, syndicate, as_json, "syndicateId");
    return 0;
}

}  // namespace syndic::cli
