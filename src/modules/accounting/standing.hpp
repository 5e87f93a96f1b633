// Whether a unit's co-owners are in good standing: the one question the voting roll (art. 1094),
// the board (a director in arrears may be replaced, art. 1086) and later the reservations ask of
// the accounts. The accounting module (catalogue §4.4) owns the ledger, so it owns the answer;
// until it exists no charge can be overdue and every unit is entitled. That batch fills in
// unit_standing() alone: every caller already reads status, overdueSince and overdueCents.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct Standing {
    // "entitled", or "suspended-arrears": a common-expense charge of the unit (regular or special
    // contribution; not interest, fees, penalties or reservations) unpaid more than 3 months after
    // its due date (art. 1094).
    std::string status = "entitled";
    std::optional<std::string> overdue_since;  // the due date of the oldest such charge, "YYYY-MM-DD"
    std::int64_t overdue_cents = 0;            // what is unpaid of those charges
    bool entitled() const { return status == "entitled"; }
};

// The unit's standing on the Montreal day `as_of` ("YYYY-MM-DD"), live from the ledger.
Standing unit_standing(Database& db, const std::string& syndicate_id, const std::string& unit_id,
                       const std::string& as_of);

// A co-owner's standing: that of the unit they hold (a co-owner record is one person on one unit).
// Entitled when the co-owner is not in the syndicate (the caller checks existence first).
Standing co_owner_standing(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                           const std::string& as_of);

}  // namespace syndic::accounting
