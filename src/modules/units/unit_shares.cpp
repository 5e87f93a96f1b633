#include "modules/units/unit_shares.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "modules/units/units.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

namespace {

// The active units of a lot: the unit `?2` itself and the units linked to it as their apartment.
// Two lookups by key, so that no plan can read the syndicate's every unit: with the OR form and
// no ANALYZE statistics (a database nobody analysed), SQLite listed all the syndicate's units for
// each co-owner written (a bulk at 50,000 units: 22 ms a row).
constexpr const char* lot_units =
    "SELECT id FROM units WHERE id = ?2 AND syndicate_id = ?1 AND deleted_at IS NULL "
    "UNION ALL SELECT u.id FROM unit_links l JOIN units u ON u.id = l.unit_id "
    "WHERE l.apartment_id = ?2 AND u.syndicate_id = ?1 AND u.deleted_at IS NULL";

Fraction lot_fraction(Database& db, const std::string& syndicate_id, const std::string& lot_id) {
    auto q = db.prepare(std::string("SELECT coalesce(sum(fraction_units), 0) FROM units WHERE id IN (") + lot_units + ")");
    bind_parameters(*q, syndicate_id, lot_id);
    q->executeStep();
    return Fraction::from_units(q->getColumn(0).getInt64());
}

DomainError exceeds(const std::string& number, Fraction fraction, Fraction held, Fraction asked,
                    const std::string& field) {
    return DomainError(codes::co_owner_fraction_exceeds_unit,
                       "The co-owners of unit " + number + " may hold at most its fraction, " + fraction.to_string() +
                           "% (with its linked parking and storage units); they hold " + held.to_string() +
                           "% already and " + asked.to_string() + "% more was asked.")
        .at(field)
        .with("unitNumber", number)
        .with("unitFraction", figure(fraction))
        .with("alreadyHeld", figure(held))
        .with("asked", figure(asked));
}

}  // namespace

std::string lot_of(Database& db, const std::string& unit_id) {
    auto q = db.prepare("SELECT apartment_id FROM unit_links WHERE unit_id = ?");
    q->bind(1, unit_id);
    return q->executeStep() ? q->getColumn(0).getString() : unit_id;
}

LotShare lot_share(Database& db, const std::string& syndicate_id, const std::string& unit_id,
                   const std::string& except_co_owner) {
    LotShare lot;
    lot.lot_id = lot_of(db, unit_id);
    lot.number = active_unit_number(db, syndicate_id, lot.lot_id).value_or(lot.lot_id);
    lot.fraction = lot_fraction(db, syndicate_id, lot.lot_id);
    auto q = db.prepare(std::string("SELECT coalesce(sum(fraction_units), 0) FROM co_owners WHERE unit_id IN (") +
                        lot_units + ") AND deleted_at IS NULL AND id <> ?3");
    bind_parameters(*q, syndicate_id, lot.lot_id, except_co_owner);
    q->executeStep();
    lot.held = Fraction::from_units(q->getColumn(0).getInt64());
    return lot;
}

Fraction unheld_fraction(const LotShare& lot) { return std::max(lot.fraction - lot.held, Fraction{}); }

void check_co_owner_fraction(const LotShare& lot, Fraction asked, const std::string& field) {
    if (asked.units() > 0 && lot.held + asked > lot.fraction) throw exceeds(lot.number, lot.fraction, lot.held, asked, field);
}

void check_lots_held(Database& db, const std::string& syndicate_id, const std::string& field) {
    // Each active co-owner's lot, and each lot's fraction, in one pass over the syndicate.
    auto q = db.prepare(
        "WITH lot AS (SELECT u.id AS unit_id, coalesce(l.apartment_id, u.id) AS lot_id, u.fraction_units "
        "             FROM units u LEFT JOIN unit_links l ON l.unit_id = u.id "
        "             WHERE u.syndicate_id = ?1 AND u.deleted_at IS NULL), "
        "held AS (SELECT lot.lot_id, sum(c.fraction_units) AS held FROM co_owners c JOIN lot ON lot.unit_id = c.unit_id "
        "         WHERE c.syndicate_id = ?1 AND c.deleted_at IS NULL GROUP BY lot.lot_id), "
        "share AS (SELECT lot_id, sum(fraction_units) AS fraction FROM lot GROUP BY lot_id) "
        "SELECT u.number, coalesce(share.fraction, 0), held.held FROM held JOIN units u ON u.id = held.lot_id "
        "LEFT JOIN share ON share.lot_id = held.lot_id WHERE held.held > coalesce(share.fraction, 0) "
        "ORDER BY " SYNDIC_UNIT_NUMBER_ORDER("u.number") " LIMIT 1");
    q->bind(1, syndicate_id);
    if (!q->executeStep()) return;
    const auto fraction = Fraction::from_units(q->getColumn(1).getInt64());
    const auto held = Fraction::from_units(q->getColumn(2).getInt64());
    throw DomainError(codes::co_owner_fraction_exceeds_unit,
                      "After this change the co-owners of unit " + q->getColumn(0).getString() + " would hold " +
                          held.to_string() + "%, more than its fraction of " + fraction.to_string() +
                          "% (with its linked parking and storage units); lower their fractions first.")
        .at(field)
        .with("unitNumber", q->getColumn(0).getString())
        .with("unitFraction", figure(fraction))
        .with("alreadyHeld", figure(held))
        .with("asked", std::int64_t{0});
}

void scale_lot_co_owners(Database& db, const std::string& syndicate_id, const std::string& lot_id,
                         Fraction before, Fraction after, const std::string& now) {
    if (before == after || before.units() <= 0) return;
    struct Holder {
        std::string id;
        std::int64_t before, after;
    };
    std::vector<Holder> holders;
    std::int64_t held = 0, assigned = 0;
    {
        auto q = db.prepare(std::string("SELECT id, fraction_units FROM co_owners WHERE unit_id IN (") + lot_units +
                            ") AND deleted_at IS NULL ORDER BY id");
        bind_parameters(*q, syndicate_id, lot_id);
        while (q->executeStep()) {
            const auto units = q->getColumn(1).getInt64();
            // At most 1e8 * 1e8 = 1e16, well inside 64 bits.
            const auto scaled = units * after.units() / before.units();
            holders.push_back({q->getColumn(0).getString(), units, scaled});
            held += units;
            assigned += scaled;
        }
    }
    if (holders.empty()) return;
    if (held == before.units()) {
        auto largest = std::max_element(holders.begin(), holders.end(),
                                        [](const Holder& a, const Holder& b) { return a.before < b.before; });
        largest->after += after.units() - assigned;
    }
    for (const auto& h : holders) {
        if (h.after == h.before) continue;
        auto q = db.prepare("UPDATE co_owners SET fraction_units = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*q, h.after, now, h.id);
        q->exec();
    }
}

}  // namespace syndic
