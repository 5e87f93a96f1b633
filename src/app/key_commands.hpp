// `keys create|list|revoke`: the API keys of a database's syndicates, each change written in the
// audit trail; and how a new key is printed (init and demo print theirs the same way). Key
// management works on an existing database only: a typo in --db should not create an empty one.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "app/cli_support.hpp"
#include "auth/credentials.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

// The secret alone, or with --json {"<id_name>": id, "apiKey": secret}, where the id is the
// syndicate's for "syndicateId" and the key's otherwise.
void print_key(const IssuedKey& key, const std::string& syndicate_id, bool as_json, const char* id_name);

struct KeysCommand {
    CLI::App* create = nullptr;
    CLI::App* list = nullptr;
    CLI::App* revoke = nullptr;
    std::string syndicate, role = "member", scopes, name = "api key", revoke_id;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const;
    int run(const Common& common, const Clock& clock);

private:
    int run_create(const Common& common, const Clock& clock);
    int run_list(const Common& common);
    int run_revoke(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
