// `syndic-mcp deliver`: sends what is due on the database (webhooks; the outbox's e-mail over SMTP), once
// (`--once`, for cron: exits 0 when it ran) or every `--interval` seconds until SIGTERM or Ctrl-C.
#pragma once
#include <CLI/CLI.hpp>

#include "app/cli_support.hpp"
#include "app/smtp_options.hpp"
#include "app/webhook_options.hpp"
#include "core/clock.hpp"

namespace syndic::cli {

struct DeliverCommand {
    CLI::App* command = nullptr;
    SmtpOptions smtp;
    bool once = false;
    WebhookOptions webhooks;  // --allow-private-webhooks, --allow-loopback-webhooks
    int interval_seconds = 60;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run(const Common& common, const Clock& clock);
};

}  // namespace syndic::cli
