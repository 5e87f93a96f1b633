#include "app/demo.hpp"

#include <map>

#include "auth/credentials.hpp"
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
    // Its webhook is a paused receiver on this machine, posted to only if the operator allows this
    // machine (--allow-loopback-webhooks): run_seeds saves it whatever the permission.
    run_seeds(registry, db, clock, admin, "demo", names);
    whole.commit();
    return syndicate;
}

}  // namespace syndic
