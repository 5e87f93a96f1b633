// The command line's accounts: `users create|list|disable` (people who sign in through OAuth, the
// password read from stdin or asked twice on a terminal) and `clients create|list|disable` (OAuth
// applications). Each change is written in the audit trail. Knows nothing of serving.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app/cli_support.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

struct UsersCommand {
    CLI::App* create = nullptr;
    CLI::App* list = nullptr;
    CLI::App* disable = nullptr;
    std::string email, name, role = "member", syndicate, language = "fr", who;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const;
    int run(const Common& common, const Clock& clock);
};

struct ClientsCommand {
    CLI::App* create = nullptr;
    CLI::App* list = nullptr;
    CLI::App* disable = nullptr;
    std::string name, client_uri, who;
    std::vector<std::string> redirect_uris;
    bool confidential = false, as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const;
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
