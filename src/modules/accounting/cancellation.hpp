// Cancelling charges (catalogue §4.5 cancel_assessment_notice): a charge is cancelled by
// counter-entries, never deleted. What its payments imputed to it is released back to their credit
// (an entry per payment: receivable debited, prepayments credited), then its own entry is countered
// (income debited, receivable credited). Both are dated the day of cancellation: the day asked, or
// the day the charge was posted or last paid when that comes later (a counter-entry never comes
// before what it undoes). Interest charged on a cancelled charge goes with it. The credit released
// then meets the paying lots' other debts on the first day both exist. Not JSON-RPC.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct Cancellation {
    std::int64_t cancelled_cents = 0;     // the charges' amounts
    std::int64_t interest_cents = 0;      // the interest charged on them, cancelled with them
    std::int64_t released_cents = 0;      // what payments had paid of both: their credit again
    std::vector<std::string> charge_ids;  // the charges cancelled, the interest on them included
    std::vector<std::string> days;        // the days the counter-entries are dated, in order
};

// Cancels the charges not cancelled yet among `charge_ids` on `day` or later as above, each date in
// an open fiscal year (PERIOD_LOCKED at `field`); `label` heads the entries' descriptions.
Cancellation cancel_charges(Database& db, const std::string& syndicate_id, const std::vector<std::string>& charge_ids,
                            const std::string& day, const std::string& label, const std::string& field, const std::string& now);

}  // namespace syndic::accounting
