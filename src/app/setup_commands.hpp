// `init` (a database and a syndicate with its first admin key) and `demo` (a syndicate of
// realistic data to try the server on, its admin key kept beside the database). The only
// commands that create a database; the demo's data itself is app/demo's.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "app/cli_support.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

struct InitCommand {
    CLI::App* command = nullptr;
    std::string name;
    bool as_json = false, force = false;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

struct DemoCommand {
    CLI::App* command = nullptr;
    std::string key_file;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
