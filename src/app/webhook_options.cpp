#include "app/webhook_options.hpp"

#include <CLI/CLI.hpp>

#include "delivery/webhook_address.hpp"

namespace syndic::cli {

void WebhookOptions::add_to(CLI::App& command) {
    command.add_flag("--allow-private-webhooks", private_,
                     "let webhooks post to private, link-local and reserved addresses (a receiver on the local network)")
        ->envname("SYNDIC_ALLOW_PRIVATE_WEBHOOKS");
    command.add_flag("--allow-loopback-webhooks", loopback_,
                     "let webhooks post to this machine (localhost, 127.0.0.0/8, ::1; plain http:// then allowed): a "
                     "receiver for development or tests, never on a server other people's syndicates use")
        ->envname("SYNDIC_ALLOW_LOOPBACK_WEBHOOKS");
}

void WebhookOptions::apply() const {
    allow_private_webhooks(private_);
    allow_loopback_webhooks(loopback_);
}

}  // namespace syndic::cli
