#include "modules/meetings/frozen_roll.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>

#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

std::optional<VotingRoll> frozen_roll(Database& db, const Meeting& m) {
    auto head = db.prepare("SELECT roll_as_of, roll_fractions FROM meetings WHERE id = ? AND roll_frozen_at IS NOT NULL");
    bind_parameters(*head, m.id);
    if (!head->executeStep()) return std::nullopt;
    VotingRoll roll;
    roll.as_of = head->getColumn(0).getString();
    roll.fractions = head->getColumn(1).getInt64();
    auto q = db.prepare(
        "SELECT r.co_owner_id, coalesce(a.name, r.name), r.unit_id, r.unit_number, r.fraction_units, "
        "r.votes_units, r.status, r.overdue_since, r.overdue_cents, a.attendance "
        "FROM meeting_roll r LEFT JOIN meeting_attendees a ON a.meeting_id = r.meeting_id AND a.co_owner_id = r.co_owner_id "
        "WHERE r.meeting_id = ? ORDER BY (SELECT sort_key FROM co_owners c WHERE c.id = r.co_owner_id), r.co_owner_id");
    bind_parameters(*q, m.id);
    while (q->executeStep()) {
        auto e = roll_entry_head(*q);
        e.votes = Fraction::from_units(q->getColumn(5).getInt64());
        e.status = q->getColumn(6).getString();
        e.overdue_since = optional_text(*q, 7);
        e.overdue_cents = q->getColumn(8).getInt64();
        if (!q->getColumn(9).isNull()) e.attendance = q->getColumn(9).getString();
        if (e.status == "suspended-arrears" || e.status == "syndicate-held") roll.suspended_votes += e.fraction;
        else if (e.status == "reduced-developer") roll.reduced_votes += e.fraction - e.votes;
        roll.entries.push_back(std::move(e));
    }
    return roll;
}

void freeze_roll(Database& db, const std::string& syndicate_id, const Meeting& m, Instant now) {
    if (m.type == "board" || frozen_roll(db, m)) return;  // a board meeting's roll is its directors
    const auto as_of = std::min(montreal_date(now), montreal_date(m.scheduled_at));
    const auto roll = live_roll(db, syndicate_id, m, as_of);
    for (const auto& e : roll.entries) {
        auto q = db.prepare(
            "INSERT INTO meeting_roll (meeting_id, co_owner_id, syndicate_id, name, unit_id, unit_number, fraction_units, "
            "votes_units, status, overdue_since, overdue_cents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        bind_parameters(*q, m.id, e.co_owner_id, syndicate_id, e.name, e.unit_id, e.unit_number, e.fraction.units(),
                        e.votes.units(), e.status, e.overdue_since, e.overdue_cents);
        q->exec();
    }
    auto q = db.prepare("UPDATE meetings SET roll_frozen_at = ?, roll_as_of = ?, roll_fractions = ? WHERE id = ?");
    bind_parameters(*q, to_utc_iso(now), as_of, roll.fractions, m.id);
    q->exec();
}

}  // namespace syndic::meetings
