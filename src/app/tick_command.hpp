// `syndic-mcp tick`: the daily tick (events/tick.hpp) once, for cron: writes the derived events
// (water heaters due or overdue, policies expiring...) not yet emitted, each once per record and
// state, and prints what it wrote. The HTTP bridge runs the same tick itself at 02:00 in Montreal.
#pragma once
#include <CLI/CLI.hpp>

#include "app/cli_support.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

struct TickCommand {
    CLI::App* command = nullptr;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
