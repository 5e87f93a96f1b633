#include "app/secrets_options.hpp"

#include <CLI/CLI.hpp>
#include <SQLiteCpp/Database.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "auth/access_tokens.hpp"
#include "auth/signing_key.hpp"
#include "core/clock.hpp"
#include "storage/database.hpp"
#include "storage/file_modes.hpp"

namespace syndic {

void ApiKeyOptions::add_to(CLI::App& command) {
    command.add_option("--api-key", on_command_line_,
                       "API key every call uses; other local users can see it in the process list as it starts: prefer "
                       "SYNDIC_API_KEY or --api-key-file");
    command.add_option("--api-key-file", file_, "read the API key from the first line of this file (mode 600)");
}

std::string ApiKeyOptions::resolve() const {
    if (!file_.empty() && !on_command_line_.empty()) throw std::runtime_error("give --api-key or --api-key-file, not both");
    if (!file_.empty()) {
        std::ifstream in(file_);
        std::string line;
        if (!in || !std::getline(in, line)) throw std::runtime_error("cannot read an API key from " + file_);
        const auto first = line.find_first_not_of(" \t\r\n");
        if (first == std::string::npos) throw std::runtime_error("the first line of " + file_ + " holds no API key");
        warn_file_readable_by_others(file_, "the API key file");
        return line.substr(first, line.find_last_not_of(" \t\r\n") - first + 1);
    }
    if (!on_command_line_.empty()) {
        std::cerr << "syndic-mcp: warning: --api-key shows the key in the process list as the server starts, where "
                     "other local users can read it; set SYNDIC_API_KEY or use --api-key-file FILE instead\n";
        return on_command_line_;
    }
    const char* from_environment = std::getenv("SYNDIC_API_KEY");
    return from_environment ? from_environment : "";
}

void scrub_api_key_arguments(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        char* value = nullptr;
        if (std::strcmp(argv[i], "--api-key") == 0 && i + 1 < argc) value = argv[i + 1];
        else if (std::strncmp(argv[i], "--api-key=", 10) == 0) value = argv[i] + 10;
        if (value) std::memset(value, 'x', std::strlen(value));
    }
}

void check_database_at_start(const std::string& db_path) {
    if (db_path == ":memory:" || !std::filesystem::exists(db_path)) return;
    warn_if_readable_by_others(db_path);
    try {
        SQLite::Database db(db_path, SQLite::OPEN_READONLY);
        // A newer program's database is refused here (a std::runtime_error, not SQLite's).
        Database::refuse_newer_schema(db, db_path);
    } catch (const SQLite::Exception&) {
        // Not a database, unreadable, locked: the first call refuses it with its code and cause
        // (storage/storage_error.hpp), where the host shows it, rather than a server that exits.
        return;
    }
}

void SigningKeyCommand::add_to(CLI::App& app) {
    auto* command = app.add_subcommand("signing-key", "Manage the key that signs OAuth access tokens (kept in <db>.signing-key)");
    command->require_subcommand(1);
    rotate = command->add_subcommand(
        "rotate", "Replace the signing key: every access token signed before is refused from now on (users sign in "
                  "again; applications use their refresh tokens)");
    rotate->add_flag("--json", as_json, "print {\"kid\":..,\"keyFile\":..}");
}

bool SigningKeyCommand::parsed() const { return rotate && rotate->parsed(); }

int SigningKeyCommand::run(const std::string& db_path) const {
    if (db_path == ":memory:" || !std::filesystem::exists(db_path))
        throw std::runtime_error("no database at " + db_path + " (pass --db)");
    auto db = Database::open(db_path);
    SystemClock clock;
    const auto kid = replace_signing_key(*db, clock);
    const auto file = signing_key_path(*db);
    std::cerr << "The new signing key " << kid << " is kept in " << file
              << "; access tokens signed before are refused from now on.\n";
    if (as_json) std::cout << nlohmann::json{{"kid", kid}, {"keyFile", file}}.dump() << "\n";
    else std::cout << kid << "\n";
    return 0;
}

}  // namespace syndic
