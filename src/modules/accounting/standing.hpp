// Whether a lot and a person are in good standing (catalogue §4.4, Standing): the one question the
// voting roll (art. 1094), the board (art. 1086) and later the reservations ask of the accounts.
// The accounting module owns the ledger, so it owns the answer, computed live from charges and
// payments as they stood on a day: a payment counts from its receivedOn, and a reversed payment
// counts until its reversedOn, after which it never counted (a bounced cheque paid nothing).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct Standing {
    // "entitled", or "suspended-arrears": a common-expense charge (regular or special contribution;
    // not interest, fees, penalties or reservations) due and unpaid for more than 3 months (art. 1094).
    std::string status = "entitled";
    // The due date that opened the current uninterrupted period during which some common-expense
    // charge was past due and unpaid ("YYYY-MM-DD"); nullopt when none is.
    std::optional<std::string> overdue_since;
    std::int64_t overdue_cents = 0;      // past due and unpaid, common expenses only
    std::int64_t overdue_all_cents = 0;  // past due and unpaid, every kind
    std::int64_t balance_cents = 0;      // everything owed, due or not, less the credit
    std::int64_t credit_cents = 0;       // paid and not imputed yet
    std::int64_t days_overdue = 0;       // as_of less overdue_since
    bool voting_suspended = false;       // as_of after overdue_since + 3 months (the day clamped)
    bool in_arrears = false;             // overdue_since set (art. 1086: no minimum delay)
    bool hypothec_eligible = false;      // more than 30 days (art. 2729)
    bool good_standing = true;           // no common expense overdue beyond reservationGraceDays
    std::string as_of;
    bool entitled() const { return status == "entitled"; }
};

// The standing of the lot `unit_id` belongs to, on the Montreal day `as_of` ("YYYY-MM-DD").
Standing unit_standing(Database& db, const std::string& syndicate_id, const std::string& unit_id, const std::string& as_of);
// The standing of the lot headed by `root` (lot_root), on `as_of`.
Standing lot_standing(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& as_of);

// A person's standing: over every lot the person of `co_owner_id` holds (records joined by
// samePersonAs), as one debtor: one run of days over all their charges (art. 1094: the vote is the
// person's). Entitled when the co-owner is not in the syndicate (the caller checks existence first).
// What a roll, the board and the signers ask: the status, what is past due and since when, and the
// flags. balance_cents and credit_cents are those of a person with a common expense past due, and
// 0 for the others (not read: a lot's balance is lot_standing's).
Standing co_owner_standing(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                           const std::string& as_of);
// The same for many records at once (a voting roll): the register's persons read once, each
// person's standing computed once.
std::vector<Standing> co_owner_standings(Database& db, const std::string& syndicate_id, const std::vector<std::string>& co_owner_ids,
                                         const std::string& as_of);

// A charge of a lot as it stood on a day: what was unpaid of it.
struct ChargeOnDay {
    std::string id, unit_id, kind, due_on, posted_on, description;
    std::int64_t amount_cents = 0, unpaid_cents = 0;
};
// The lot's charges posted by `as_of`, not cancelled by then and that may be unpaid then, by due
// date: a charge settled for good by `as_of` is left out (paid on that day and every later one).
std::vector<ChargeOnDay> lot_charges(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units,
                                     const std::string& as_of);
// The syndicate's charges past due on `as_of` (due before it) and not exactly paid then (unpaid, or
// overpaid in the view of a day before a reversal), of every unit, by due date.
std::vector<ChargeOnDay> past_due_charges(Database& db, const std::string& syndicate_id, const std::string& as_of);

}  // namespace syndic::accounting
