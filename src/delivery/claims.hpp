// A claim on one row of a delivery table (the outbox, webhook_deliveries): the process that holds it
// (lease_owner) and until when (lease_until). A row is sent only under a claim valid at that moment:
// it is taken or renewed just before the transfer, for the transfer's own time limit and a margin,
// so the transfer is over (done, or cut by its limit) before any other process may take the row.
// Knows the two tables' lease columns, not what their rows hold.
#pragma once
#include <chrono>
#include <string>

#include "core/clock.hpp"

namespace syndic {

class Database;

enum class ClaimTable { outbox, webhook_deliveries };

// How long a claim outlasts its transfer's time limit: the time to write the transfer's result, and
// the clocks of the processes sharing the database (one machine) disagreeing by less than this.
inline constexpr std::chrono::seconds claim_margin{30};

// Extends `worker`'s claim on row `id` to `until` when it still holds it and it has not run out at
// `now`; false when another process may have taken the row (it is then not sent).
bool renew_claim(Database& db, ClaimTable table, const std::string& id, const std::string& worker, Instant now,
                 Instant until);

// Gives back every row `worker` holds in `table` (claimed, not recorded): due again at once. How many.
int release_claims(Database& db, ClaimTable table, const std::string& worker);

}  // namespace syndic
