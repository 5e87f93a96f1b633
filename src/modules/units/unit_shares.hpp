// The shares of a unit's fraction its co-owners hold. A unit and the parking and storage units
// linked to it form one lot; the lot's active co-owners share its fraction (undivided
// co-ownership votes by share), so they never hold more than it. Knows storage; not JSON.
#pragma once
#include <string>

#include "core/fraction.hpp"

namespace syndic {

class Database;

struct LotShare {
    std::string lot_id;   // the apartment (or the unit itself when it is linked to none)
    std::string number;   // that unit's number
    Fraction fraction;    // the lot's fraction: the unit's and its linked units'
    Fraction held;        // what the lot's active co-owners hold (but the one excepted)
};

// The lot of an active unit, with what its active co-owners other than `except_co_owner` hold.
LotShare lot_share(Database& db, const std::string& syndicate_id, const std::string& unit_id,
                   const std::string& except_co_owner = "");

// The fraction a new co-owner of the lot gets when none is given: what its co-owners do not hold
// yet (the whole lot for a sole co-owner).
Fraction unheld_fraction(const LotShare& lot);

// Refuses (CO_OWNER_FRACTION_EXCEEDS_UNIT, with unitFraction, alreadyHeld and asked) a co-owner
// holding `asked` in the lot on top of what the others hold.
void check_co_owner_fraction(const LotShare& lot, Fraction asked, const std::string& field);

// Refuses (CO_OWNER_FRACTION_EXCEEDS_UNIT) a unit write after which a lot of the syndicate is
// held beyond its fraction (a link removed, a linked unit deleted).
void check_lots_held(Database& db, const std::string& syndicate_id, const std::string& field);

// Scales the active co-owners of a lot whose fraction moves from `before` to `after`, so each
// keeps their share of it: rounded down to the millionth, and when they held the whole lot the
// remainder goes to the largest (the first by id among equals), so they hold the whole lot still.
void scale_lot_co_owners(Database& db, const std::string& syndicate_id, const std::string& lot_id,
                         Fraction before, Fraction after, const std::string& now);

// The lot a unit belongs to: the apartment it is linked to, or itself.
std::string lot_of(Database& db, const std::string& unit_id);

}  // namespace syndic
