#include "app/demo.hpp"

#include <map>

#include "auth/credentials.hpp"
#include "delivery/webhook_address.hpp"
#include "tools/seeds.hpp"

namespace syndic {

std::string ensure_demo_syndicate(Database& db, const Clock& clock, const ToolRegistry& registry) {
    WriteTransaction whole(db);  // created entirely or not at all, and by one process at a time
    if (auto existing = find_demo_syndicate(db)) return existing->id;
    const std::string syndicate = create_syndicate(db, clock, demo_syndicate_name, true);
    // The program's own call (no key, no user): what the audit trail shows as syndic-mcp.
    const CallerContext admin{syndicate, "", {"*"}, Role::admin};
    // The records are the "demo" sections of the modules' seed files (schemas/<module>/seed.json).
    std::map<std::string, std::string> names;
    // The demo's webhook is a paused receiver on this machine (schemas/administration/seed.json):
    // saved for the tour; posted to only if the operator allows this machine
    // (--allow-loopback-webhooks). Only the demo command seeds, before anything is served.
    const bool loopback = loopback_webhooks_allowed();
    allow_loopback_webhooks(true);
    try {
        run_seeds(registry, db, clock, admin, "demo", names);
    } catch (...) {
        allow_loopback_webhooks(loopback);
        throw;
    }
    allow_loopback_webhooks(loopback);
    whole.commit();
    return syndicate;
}

}  // namespace syndic
