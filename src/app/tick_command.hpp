// `syndic-mcp tick`: the daily tick (events/tick.hpp) once, for cron: writes the derived events
// (water heaters due or overdue, policies expiring...) not yet emitted, each once per record and
// state, and prints what it wrote. The HTTP bridge runs the same tick itself at 02:00 in Montreal.
#pragma once
#include <CLI/CLI.hpp>

#include "app/cli_support.hpp"
#include "core/clock.hpp"
#include "events/tick.hpp"

namespace syndic::cli {

// The tools the daily tick reads: every module's, through one registry built on first use (by the
// thread that first ticks). This command and the HTTP bridge's delivery worker tick with it.
ToolReader tick_reader();

struct TickCommand {
    CLI::App* command = nullptr;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
