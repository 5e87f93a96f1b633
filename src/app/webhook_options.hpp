// Where the webhooks of a process may post beyond public addresses (serve, http, deliver): the
// operator's opt-ins, from the command line or the environment, never through a tool.
#pragma once

namespace CLI {
class App;
}

namespace syndic::cli {

class WebhookOptions {
public:
    void add_to(CLI::App& command);
    // Sets the process-wide permissions (delivery/webhook_address.hpp).
    void apply() const;

private:
    bool private_ = false, loopback_ = false;
};

}  // namespace syndic::cli
