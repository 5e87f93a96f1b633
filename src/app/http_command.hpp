// `http`: the HTTP bridge (MCP at <base-url>/mcp, REST routes, OAuth pages) until SIGTERM or
// SIGINT. Owns the bridge's command-line options and the signal handling of a long-running server;
// the bridge itself is http/bridge's.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "app/cli_support.hpp"
#include "app/smtp_options.hpp"
#include "app/webhook_options.hpp"
#include "app/surface_options.hpp"
#include "http/bridge.hpp"

namespace syndic::cli {

struct HttpCommand {
    CLI::App* command = nullptr;
    http::BridgeOptions options;
    std::string listen = "127.0.0.1:8080", rate = "off";
    SurfaceOptions surface;
    SmtpOptions smtp;  // given: the bridge's delivery thread sends the queued e-mail
    WebhookOptions webhooks;  // --allow-private-webhooks, --allow-loopback-webhooks

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common);
};

}  // namespace syndic::cli
