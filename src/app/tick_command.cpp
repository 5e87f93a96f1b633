#include "app/tick_command.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"

namespace syndic::cli {

ToolReader tick_reader() {
    return [](const std::string& tool, const nlohmann::json& arguments, const CallerContext& caller, Database& db,
              const Clock& clock) {
        static const ToolRegistry registry(all_tool_handlers());
        return registry.call(tool, arguments, caller, db, clock);
    };
}

void TickCommand::add_to(CLI::App& app) {
    command = app.add_subcommand(
        "tick", "Emit the day's derived events (water heaters due soon or overdue, insurance policies expiring), each "
                "once per record and state, for the webhooks; the HTTP bridge does it itself at 02:00 (Montreal). "
                "For cron; exits 0 when it ran");
    command->add_flag("--json", as_json, "print {day, syndicates, emitted: {type: count}, total} as JSON");
}

int TickCommand::run(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    const auto day = tick_day(clock.now());
    const auto ticked = run_tick(*db, clock, tick_reader());
    if (as_json) {
        std::cout << nlohmann::json{{"day", day}, {"syndicates", ticked.syndicates}, {"emitted", ticked.emitted},
                                    {"total", ticked.total()}}
                         .dump()
                  << std::endl;
        return 0;
    }
    std::cout << "tick of " << day << ": " << ticked.total() << " derived event(s) over " << ticked.syndicates
              << " syndicate(s)";
    for (const auto& [type, count] : ticked.emitted)
        if (count) std::cout << "; " << type << ": " << count;
    std::cout << std::endl;
    return 0;
}

}  // namespace syndic::cli
