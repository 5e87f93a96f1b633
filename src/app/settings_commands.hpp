// The syndicate's settings from the command line: `settings [NAME [VALUE]]` lists them, shows one
// or sets one (checked against its declaration first), and its shortcuts `quorum` (the required
// quorum) and `water-heater-age` (the water heaters' replacement age). A change is written in the
// audit trail. Knows how a setting is printed, not where it is stored (storage/settings).
#pragma once
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "app/cli_support.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

struct SettingsCommand {
    CLI::App* command = nullptr;
    std::string syndicate, name, value;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

struct QuorumCommand {
    CLI::App* command = nullptr;
    std::string syndicate;
    std::optional<double> percent;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

struct WaterHeaterAgeCommand {
    CLI::App* command = nullptr;
    std::string syndicate;
    std::optional<int> years;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
