#include "app/serve_command.hpp"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>

#include "core/error.hpp"
#include "delivery/delivery_worker.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "transport/stdio_transport.hpp"

namespace syndic::cli {

void ServeCommand::add_to(CLI::App& app) {
    command = app.add_subcommand("serve", "Serve MCP on stdin/stdout (the default)");
    for (auto* cmd : {&app, command}) {
        api_key.add_to(*cmd);
        surface.add_to(*cmd);
        cmd->add_option("--tools-page-size", page_size, "tools per tools/list page (0: all in one page)");
        add_tool_errors_option(*cmd, tool_errors);
        smtp.add_to(*cmd, true);
        webhooks.add_to(*cmd);
    }
}

int ServeCommand::run(const Common& common) {
    const auto key = api_key.resolve();
    const auto mail = smtp.settings();
    webhooks.apply();
    check_database_at_start(common.db_path);
    ToolRegistry registry(all_tool_handlers(), surface.modules(), surface.read_only());
    SystemClock clock;
    settle_leftover_files(common.db_path);
    std::unique_ptr<Database> db;  // opened by the first call that needs it
    StdioTransport transport(STDIN_FILENO, STDOUT_FILENO);
    McpServer server(
        registry,
        [&]() -> Database& {
            // A call never creates a database: without one there is no key to accept.
            if (!db && common.db_path != ":memory:" && !std::filesystem::exists(common.db_path))
                throw DomainError(codes::not_authenticated,
                                  "There is no database at " + common.db_path +
                                      ", so no API key can be valid; create it with `syndic-mcp init`.");
            if (!db) db = Database::open(common.db_path);
            return *db;
        },
        clock, McpOptions{.api_key = key.empty() ? std::nullopt : std::optional(key), .tools_page_size = page_size, .tool_errors = tool_errors},
        [&](const std::string& line) { transport.send(line); });
    jsonrpc::Dispatcher dispatcher;
    server.attach(dispatcher);
    spdlog::info("syndic-mcp {} serving MCP on stdio: {}, database {}{}", server_version(),
                 describe_surface(registry), common.db_path, key.empty() ? " (no API key: calls will fail NOT_AUTHENTICATED)" : "");
    // With SMTP settings, the queued e-mail leaves from here too, on a thread with its own connection.
    std::unique_ptr<DeliveryWorker> delivery;
    if (mail && common.db_path != ":memory:" && std::filesystem::exists(common.db_path))
        delivery = std::make_unique<DeliveryWorker>(common.db_path, mail, false, std::chrono::seconds(smtp.interval_seconds()));
    transport.run([&](const std::string& line) { server.peek(line); },
                  [&](const std::string& line) { return dispatcher.handle(line); },
                  [&](std::size_t limit) { return jsonrpc::Dispatcher::message_too_long(limit); });
    spdlog::info("end of input: stopping");
    return 0;
}

}  // namespace syndic::cli
