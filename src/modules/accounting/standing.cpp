// The standing of a lot and of a person (standing.hpp), computed from charges and allocations as
// they stood on the day asked (spec decisions.md, "Standing").
#include "modules/accounting/standing.hpp"

#include <nlohmann/json.hpp>

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/clock.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/co_owners/persons.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::accounting {

namespace {

// What was imputed to each charge, by the day it was applied, in the view of `as_of`: payments
// reversed by then never counted.
using PaidByDay = std::map<std::string, std::map<std::string, std::int64_t>>;  // charge -> day -> cents

PaidByDay paid_by_day(Database& db, const std::vector<ChargeOnDay>& charges, const std::string& as_of) {
    std::vector<std::string> ids;
    for (const auto& c : charges)
        if (is_common_expense(c.kind)) ids.push_back(c.id);
    auto q = db.prepare(
        "SELECT a.charge_id, a.applied_on, sum(a.amount_cents) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
        "WHERE a.charge_id IN (SELECT value FROM json_each(?1)) AND a.applied_on <= ?2 AND (p.status = 'posted' OR p.reversed_on > ?2) "
        "AND (a.released_on IS NULL OR a.released_on > ?2) GROUP BY a.charge_id, a.applied_on");
    bind_parameters(*q, id_set(ids), as_of);
    PaidByDay out;
    while (q->executeStep()) out[q->getColumn(0).getString()][q->getColumn(1).getString()] = q->getColumn(2).getInt64();
    return out;
}

// The day before the first day of the current run of days on which some common-expense charge
// was past due (due before that day) and not fully paid by the end of it; nullopt when `as_of` is
// not such a day. The run can only open the day after a due date, so the answer is that due date.
std::optional<std::string> overdue_since(const std::vector<ChargeOnDay>& charges, const PaidByDay& paid, const std::string& as_of) {
    std::vector<const ChargeOnDay*> common;
    std::set<std::string> turns;  // the days the answer can change
    for (const auto& c : charges) {
        if (!is_common_expense(c.kind) || c.due_on >= as_of) continue;
        common.push_back(&c);
        turns.insert(add_calendar_days(c.due_on, 1));
        if (const auto it = paid.find(c.id); it != paid.end())
            for (const auto& [day, _] : it->second) turns.insert(day);
    }
    const auto overdue_on = [&](const std::string& day) {
        for (const auto* c : common) {
            if (c->due_on >= day) continue;
            std::int64_t settled = 0;
            if (const auto it = paid.find(c->id); it != paid.end())
                for (const auto& [on, cents] : it->second) {
                    if (on > day) break;
                    settled += cents;
                }
            if (settled < c->amount_cents) return true;
        }
        return false;
    };
    if (!overdue_on(as_of)) return std::nullopt;
    const std::vector<std::string> days(turns.begin(), turns.upper_bound(as_of));
    std::string start = days.front();
    for (std::size_t i = days.size(); i-- > 0;) {
        if (overdue_on(days[i])) continue;
        start = days[i + 1];  // the state holds from one turn to the next; the last is overdue
        break;
    }
    return add_calendar_days(start, -1);
}

std::int64_t grace_days(Database& db, const std::string& syndicate_id) {
    return get_setting(db, syndicate_id, "reservationGraceDays").get<std::int64_t>();
}

// The flags that follow from overdueSince on `as_of`.
void settle_flags(Standing& s, std::int64_t grace) {
    s.in_arrears = s.overdue_since.has_value();
    s.days_overdue = s.overdue_since ? calendar_days_between(*s.overdue_since, s.as_of) : 0;
    s.voting_suspended = s.overdue_since && s.as_of > add_calendar_months(*s.overdue_since, 3);
    s.hypothec_eligible = s.days_overdue > 30;
    s.good_standing = s.days_overdue <= grace;
    s.status = s.voting_suspended ? "suspended-arrears" : "entitled";
}

// What the lot's payments had not imputed on `as_of`; a payment spent for good by then has none.
std::int64_t credit_of(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units, const std::string& as_of) {
    auto q = db.prepare(
        "SELECT coalesce(sum(p.amount_cents - coalesce((SELECT sum(a.amount_cents) FROM payment_allocations a "
        "WHERE a.payment_id = p.id AND a.applied_on <= ?3 AND (a.released_on IS NULL OR a.released_on > ?3)), 0)), 0) "
        "FROM payment_credits k CROSS JOIN payments p ON p.id = k.payment_id WHERE k.unit_id IN (SELECT value FROM json_each(?2)) "
        "AND k.spent_on > ?3 AND p.syndicate_id = ?1 AND p.received_on <= ?3 AND (p.status = 'posted' OR p.reversed_on > ?3)");
    bind_parameters(*q, syndicate_id, id_set(units), as_of);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

// A ChargeOnDay's columns on day ?3, of a charge c, and what every reading asks of c: of the
// syndicate ?1, posted by then and not cancelled by then.
constexpr const char* charge_on_day =
    "SELECT c.id, c.unit_id, c.kind, c.due_on, c.posted_on, c.description, c.amount_cents, c.amount_cents - coalesce(("
    "  SELECT sum(a.amount_cents) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id WHERE a.charge_id = c.id "
    "  AND a.applied_on <= ?3 AND (p.status = 'posted' OR p.reversed_on > ?3) AND (a.released_on IS NULL OR a.released_on > ?3)), 0) ";
constexpr const char* on_day = "AND c.syndicate_id = ?1 AND c.posted_on <= ?3 AND (c.cancelled_on IS NULL OR c.cancelled_on > ?3) ";

ChargeOnDay charge_row(SQLite::Statement& q) {
    return {q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getString(), q.getColumn(3).getString(),
            q.getColumn(4).getString(), q.getColumn(5).getString(), q.getColumn(6).getInt64(), q.getColumn(7).getInt64()};
}

// The lot's charges on `as_of`, less those settled for good by `settled_by` (migration 010: paid,
// or cancelled, on every day from then on), by due date.
std::vector<ChargeOnDay> unsettled_charges(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units,
                                           const std::string& as_of, const std::string& settled_by) {
    auto q = db.prepare(std::string(charge_on_day) +
                        "FROM charge_settlements s CROSS JOIN charges c ON c.id = s.charge_id "
                        "WHERE s.unit_id IN (SELECT value FROM json_each(?2)) AND s.settled_on > ?4 " + on_day + "ORDER BY c.due_on, c.id");
    bind_parameters(*q, syndicate_id, id_set(units), as_of, settled_by);
    std::vector<ChargeOnDay> out;
    while (q->executeStep()) out.push_back(charge_row(*q));
    return out;
}

// What a standing adds up on `as_of`: what is unpaid, past due and unpaid (every kind, and common
// expenses), and the credit.
struct Tally {
    std::int64_t unpaid = 0, overdue_all = 0, overdue_common = 0, credit = 0;
    bool common_past_due = false;  // a common expense past due and not exactly paid (overpaid counts)
    void add_charge(const ChargeOnDay& c, const std::string& as_of) {
        unpaid += c.unpaid_cents;
        if (c.due_on >= as_of || c.unpaid_cents == 0) return;
        overdue_all += c.unpaid_cents;
        if (!is_common_expense(c.kind)) return;
        overdue_common += c.unpaid_cents;
        common_past_due = true;
    }
    void add(const Tally& t) {
        unpaid += t.unpaid;
        overdue_all += t.overdue_all;
        overdue_common += t.overdue_common;
        credit += t.credit;
        common_past_due = common_past_due || t.common_past_due;
    }
    void fill(Standing& s) const {
        s.credit_cents = credit;
        s.balance_cents = unpaid - credit;
        s.overdue_all_cents = overdue_all;
        s.overdue_cents = overdue_common;
    }
};

}  // namespace

std::vector<ChargeOnDay> lot_charges(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units,
                                     const std::string& as_of) {
    return unsettled_charges(db, syndicate_id, units, as_of, as_of);
}

std::vector<ChargeOnDay> past_due_charges(Database& db, const std::string& syndicate_id, const std::string& as_of) {
    // Those never settled, then those settled after the day: two ranges of one index, so that a
    // year's charges not yet due (unsettled too) are never read.
    auto q = db.prepare(std::string("WITH open(charge_id) AS ("
                                    "SELECT charge_id FROM charge_settlements WHERE settled_on = '9999-12-31' AND due_on < ?3 UNION ALL "
                                    "SELECT charge_id FROM charge_settlements WHERE settled_on > ?3 AND settled_on < '9999-12-31' "
                                    "AND due_on < ?3) ") +
                        charge_on_day + "FROM open s CROSS JOIN charges c ON c.id = s.charge_id WHERE 1 " + on_day + "ORDER BY c.due_on, c.id");
    bind_parameters(*q, syndicate_id, std::nullopt, as_of);
    std::vector<ChargeOnDay> out;
    while (q->executeStep())
        if (auto c = charge_row(*q); c.unpaid_cents != 0) out.push_back(std::move(c));
    return out;
}

namespace {

// The standing over a set of units: one lot's, or every lot of a person (one run of days over
// them all, art. 1094: the vote is the person's).
// A charge settled for good by day S is paid (or gone) on every day from S on, so the charges not
// settled by S decide every day from S on: the balance and the overdue amounts on `as_of` (S is
// `as_of` first), and the run of overdue days back to S. A run that reaches back to S may go on
// before it: S moves to the run's start and the charges settled since are read too, until the run
// starts after S. A lot that pays on time reads only what is not yet due.
Standing units_standing(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units, const std::string& as_of) {
    Standing s;
    s.as_of = as_of;
    Tally tally;
    tally.credit = credit_of(db, syndicate_id, units, as_of);
    std::string settled_by = as_of;
    auto charges = unsettled_charges(db, syndicate_id, units, as_of, settled_by);
    for (const auto& c : charges) tally.add_charge(c, as_of);
    tally.fill(s);
    while (tally.common_past_due) {
        s.overdue_since = overdue_since(charges, paid_by_day(db, charges, as_of), as_of);
        if (!s.overdue_since || *s.overdue_since >= settled_by) break;
        settled_by = *s.overdue_since;
        charges = unsettled_charges(db, syndicate_id, units, as_of, settled_by);
    }
    settle_flags(s, grace_days(db, syndicate_id));
    return s;
}

}  // namespace

Standing lot_standing(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& as_of) {
    return units_standing(db, syndicate_id, lot_units(db, syndicate_id, root), as_of);
}

Standing unit_standing(Database& db, const std::string& syndicate_id, const std::string& unit_id, const std::string& as_of) {
    return lot_standing(db, syndicate_id, lot_root(db, syndicate_id, unit_id), as_of);
}

Standing co_owner_standing(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                           const std::string& as_of) {
    return co_owner_standings(db, syndicate_id, {co_owner_id}, as_of).front();
}

std::vector<Standing> co_owner_standings(Database& db, const std::string& syndicate_id, const std::vector<std::string>& co_owner_ids,
                                         const std::string& as_of) {
    // A syndicate with no charge has every co-owner in good standing: the roll of a building that
    // keeps no books here costs nothing.
    auto any = db.prepare("SELECT 1 FROM charges WHERE syndicate_id = ? AND posted_on <= ? LIMIT 1");
    bind_parameters(*any, syndicate_id, as_of);
    Standing clean;
    clean.as_of = as_of;
    settle_flags(clean, 0);
    if (!any->executeStep()) return std::vector<Standing>(co_owner_ids.size(), clean);
    // Each person's records (the record asked and the person's active ones), read once.
    const auto persons = co_owners::persons_of(db, syndicate_id);
    std::map<std::string, std::vector<std::string>> units_of_person;  // person key -> units of their active records
    std::map<std::string, std::string> unit_of_record;
    auto q = db.prepare("SELECT id, unit_id, deleted_at IS NULL FROM co_owners WHERE syndicate_id = ?");
    bind_parameters(*q, syndicate_id);
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        unit_of_record[id] = q->getColumn(1).getString();
        if (q->getColumn(2).getInt() == 1) units_of_person[persons.key_of.at(id)].push_back(q->getColumn(1).getString());
    }
    // What is past due and unpaid, read once for the syndicate; only a person with a common expense
    // among it has the run of overdue days read (units_standing).
    std::map<std::string, Tally> by_unit;
    for (const auto& c : past_due_charges(db, syndicate_id, as_of)) by_unit[c.unit_id].add_charge(c, as_of);
    const auto grace = grace_days(db, syndicate_id);
    const auto lots = syndicate_lots(db, syndicate_id);
    const auto standing_of = [&](const std::vector<std::string>& units) {
        Tally tally;
        for (const auto& unit : units)
            if (const auto it = by_unit.find(unit); it != by_unit.end()) tally.add(it->second);
        if (tally.common_past_due) return units_standing(db, syndicate_id, units, as_of);
        Standing s;  // nothing common past due: entitled, its balance not read (standing.hpp)
        s.as_of = as_of;
        s.overdue_all_cents = tally.overdue_all;
        settle_flags(s, grace);
        return s;
    };
    std::map<std::string, Standing> by_person;
    std::vector<Standing> out;
    for (const auto& id : co_owner_ids) {
        const auto record = unit_of_record.find(id);
        if (record == unit_of_record.end()) {
            out.push_back(clean);
            continue;
        }
        const auto person = persons.key_of.at(id);
        auto it = by_person.find(person);
        if (it == by_person.end()) {
            auto held = units_of_person[person];
            held.push_back(record->second);  // an archived record asked for still counts its own lot
            std::vector<std::string> roots, units;
            for (const auto& unit : held) {
                auto root = lots.root(unit);
                if (std::find(roots.begin(), roots.end(), root) != roots.end()) continue;
                for (auto& u : lots.units(root)) units.push_back(std::move(u));
                roots.push_back(std::move(root));
            }
            it = by_person.emplace(person, standing_of(units)).first;
        }
        out.push_back(it->second);
    }
    return out;
}

}  // namespace syndic::accounting
