// `serve` (the default command): MCP on stdin/stdout for one host process. Owns serve's options
// (API key, modules, page size), given both to the program itself and to its `serve` sub-command.
// Knows nothing of HTTP or of the other commands.
#pragma once
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

#include "app/cli_support.hpp"
#include "app/surface_options.hpp"
#include "app/secrets_options.hpp"
#include "app/smtp_options.hpp"
#include "app/webhook_options.hpp"
#include "app/tool_errors_option.hpp"

namespace syndic::cli {

struct ServeCommand {
    CLI::App* command = nullptr;
    ApiKeyOptions api_key;
    SurfaceOptions surface;
    std::size_t page_size = 0;
    ToolErrors tool_errors = ToolErrors::jsonrpc;
    SmtpOptions smtp;  // given: a thread sends the queued e-mail while the server runs
    WebhookOptions webhooks;  // --allow-private-webhooks, --allow-loopback-webhooks

    // Adds `serve` to `app` and its options to both, as serving is what runs without a sub-command.
    void add_to(CLI::App& app);
    int run(const Common& common);
};

}  // namespace syndic::cli
