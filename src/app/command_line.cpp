// syndic-mcp's command line (decisions 1): the global options (--db, --log-level, --log-file)
// and the dispatch to one command object per sub-command (app/*_command*.hpp); serving MCP on
// stdio when none is named. Wires the layers together; holds no rule of its own.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

#include "app/command_line.hpp"
#include "app/deliver_command.hpp"
#include "app/account_commands.hpp"
#include "app/catalogue_commands.hpp"
#include "app/cli_support.hpp"
#include "app/copy_commands.hpp"
#include "app/http_command.hpp"
#include "app/key_commands.hpp"
#include "app/secrets_options.hpp"
#include "app/serve_command.hpp"
#include "app/settings_commands.hpp"
#include "app/tick_command.hpp"
#include "app/setup_commands.hpp"
#include "core/log_output.hpp"

namespace {

using namespace syndic;
using namespace syndic::cli;

void setup_logging(const std::string& level, const std::string& file) {
    // Through a bounded queue: a log nobody reads never holds up serving or stopping.
    const auto logger = file.empty() ? logging::stderr_logger("syndic-mcp") : logging::file_logger("syndic-mcp", file);
    logger->set_level(spdlog::level::from_str(level));
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
}

void add_global_options(CLI::App& app, Common& common) {
    app.set_version_flag("--version", std::string("syndic-mcp ") + SYNDIC_VERSION);
    app.fallthrough();  // --db, --log-level and --log-file may follow the sub-command
    app.add_option("--db", common.db_path, "SQLite database file (env SYNDIC_DB)")->capture_default_str();
    app.add_option("--log-level", common.log_level, "trace, debug, info, warn, error or off")
        ->capture_default_str()
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    app.add_option("--log-file", common.log_file, "write logs to this file instead of stderr");
}

// Under the program's own help only (set after the sub-commands, which would inherit it).
void add_footer(CLI::App& app) {
    app.footer(
        "Environment: SYNDIC_DB (database file), SYNDIC_API_KEY (credential for serve: the way to give it, unseen by\n"
        "other local users, unlike --api-key), SYNDIC_MODULES (tool subset).\n"
        "Default database: $XDG_DATA_HOME/syndic-mcp/syndic.db, else ~/.local/share/syndic-mcp/syndic.db.\n"
        "Logs go to stderr (or --log-file), never to stdout.");
}

}  // namespace

int syndic::cli::run_command_line(int argc, char** argv) {
    CLI::App app{"syndic-mcp: the administration of a Quebec co-ownership syndicate (syndicat de copropriété), "
                 "served to AI assistants over MCP.",
                 "syndic-mcp"};
    Common common;
    add_global_options(app, common);
    // Added in the order `--help` lists them.
    ServeCommand serve;
    serve.add_to(app);
    HttpCommand http;
    http.add_to(app);
    InitCommand init;
    init.add_to(app);
    KeysCommand keys;
    keys.add_to(app);
    UsersCommand users;
    users.add_to(app);
    ClientsCommand clients;
    clients.add_to(app);
    SigningKeyCommand signing_key;
    signing_key.add_to(app);
    DemoCommand demo;
    demo.add_to(app);
    ToolsCommand tools;
    tools.add_to(app);
    OpenapiCommand openapi;
    openapi.add_to(app);
    SettingsCommand settings;
    settings.add_to(app);
    QuorumCommand quorum;
    quorum.add_to(app);
    WaterHeaterAgeCommand heater_age;
    heater_age.add_to(app);
    CopyCommands copy;
    copy.add_to(app);
    DeliverCommand deliver;
    deliver.add_to(app);
    TickCommand tick;
    tick.add_to(app);
    add_footer(app);

    CLI11_PARSE(app, argc, argv);
    // Parsed: the key given by --api-key is already copied; it leaves the arguments other local
    // users read in /proc/PID/cmdline (issue 28, point 8).
    scrub_api_key_arguments(argc, argv);

    try {
        setup_logging(common.log_level, common.log_file);
        SystemClock clock;
        if (init.parsed()) return init.run(common, clock);
        if (keys.parsed()) return keys.run(common, clock);
        if (users.parsed()) return users.run(common, clock);
        if (clients.parsed()) return clients.run(common, clock);
        if (signing_key.parsed()) return signing_key.run(common.db_path);
        if (demo.parsed()) return demo.run(common, clock);
        if (copy.parsed()) return copy.run(common, clock);
        if (settings.parsed()) return settings.run(common, clock);
        if (quorum.parsed()) return quorum.run(common, clock);
        if (heater_age.parsed()) return heater_age.run(common, clock);
        if (deliver.parsed()) return deliver.run(common, clock);
        if (tick.parsed()) return tick.run(common, clock);
        if (http.parsed()) return http.run(common);
        if (tools.parsed()) return tools.run();
        if (openapi.parsed()) return openapi.run();
        return serve.run(common);
    } catch (const std::exception& e) {
        std::cerr << "syndic-mcp: " << e.what() << "\n";
        return 1;
    }
}
