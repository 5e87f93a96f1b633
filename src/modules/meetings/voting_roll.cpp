#include "modules/meetings/voting_roll.hpp"

#include <SQLiteCpp/Statement.h>

#include <chrono>
#include <cstdio>

#include "modules/declaration/parameters.hpp"
#include "modules/meetings/board_roll.hpp"
#include "modules/meetings/frozen_roll.hpp"
#include "modules/meetings/rules.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

namespace {

// "YYYY-MM-DD" plus whole years; 29 February becomes 28 February in a common year.
std::string add_years(const std::string& date, int years) {
    int y = 0;
    unsigned m = 0, d = 0;
    if (std::sscanf(date.c_str(), "%d-%u-%u", &y, &m, &d) != 3) return date;
    std::chrono::year_month_day day{std::chrono::year{y + years}, std::chrono::month{m}, std::chrono::day{d}};
    if (!day.ok()) day = std::chrono::year_month_day_last{day.year(), std::chrono::month_day_last{day.month()}};
    char out[16];
    std::snprintf(out, sizeof out, "%04d-%02u-%02u", static_cast<int>(day.year()), static_cast<unsigned>(day.month()),
                  static_cast<unsigned>(day.day()));
    return out;
}

// The lots of the syndicate: its active units, a parking or storage unit linked to an apartment
// counting with it (as co-owners' shares do, co-owners migration 001).
std::int64_t lot_count(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare(
        "SELECT count(*) FROM units u WHERE u.syndicate_id = ? AND u.deleted_at IS NULL "
        "AND NOT EXISTS (SELECT 1 FROM unit_links l WHERE l.unit_id = u.id)");
    q->bind(1, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

// The developer's cap on `as_of` (art. 1092): 60 % of all votes from the end of the second year
// after the declaration's registration, 25 % from the end of the third; none before, nor when
// the declaration names no developer or no registration day.
std::optional<DeveloperCap> developer_cap(Database& db, const std::string& syndicate_id, const std::string& as_of) {
    auto developer = declaration::developer_holding(db, syndicate_id);
    if (!developer) return std::nullopt;
    DeveloperCap d;
    if (as_of >= add_years(developer->registered_on, 3)) d.cap = Fraction::percent(25);
    else if (as_of >= add_years(developer->registered_on, 2)) d.cap = Fraction::percent(60);
    else return std::nullopt;
    d.co_owner_ids = std::move(developer->co_owner_ids);
    d.residence_unit_id = std::move(developer->residence_unit_id);
    return d;
}

bool is_developer(const DeveloperCap& d, const RollEntry& e) {
    if (d.residence_unit_id && e.unit_id == *d.residence_unit_id) return false;  // the residence keeps its votes
    for (const auto& id : d.co_owner_ids)
        if (id == e.co_owner_id) return true;
    return false;
}

void cap_developer(VotingRoll& roll, const DeveloperCap& d) {
    // Art. 1092 is for a co-ownership of five fractions or more.
    if (roll.fractions < 5) return;
    std::int64_t held = 0;
    for (const auto& e : roll.entries)
        if (e.may_vote() && is_developer(d, e)) held += e.votes.units();
    const std::int64_t cap = d.cap.units() * roll.all_votes.units() / Fraction::percent(100).units();
    if (held <= cap) return;
    // Each of the developer's lines keeps its share of the cap, rounded down; the first keeps the rest.
    std::int64_t kept = 0;
    RollEntry* first = nullptr;
    for (auto& e : roll.entries) {
        if (!e.may_vote() || !is_developer(d, e)) continue;
        const std::int64_t now = static_cast<std::int64_t>(static_cast<__int128>(e.votes.units()) * cap / held);
        e.votes = Fraction::from_units(now);
        e.status = "reduced-developer";
        kept += now;
        if (!first) first = &e;
    }
    if (first) first->votes += Fraction::from_units(cap - kept);
    roll.reduced_votes += Fraction::from_units(held - cap);
}

}  // namespace

// Art. 1091: fewer than five fractions, a co-owner holding more than half of all votes is reduced
// to the votes of the other co-owners present or represented. Before any attendance is recorded
// the others are every other co-owner who may vote (the most they can be).
void reduce_majority_holder(VotingRoll& roll) {
    if (roll.fractions >= 5) return;
    bool attendance_recorded = false;
    for (const auto& e : roll.entries) attendance_recorded = attendance_recorded || e.attendance.has_value();
    for (auto& holder : roll.entries) {
        if (!holder.may_vote() || holder.votes.units() * 2 <= roll.all_votes.units()) continue;
        // The rule protects the other co-owners: with none on the roll (a register holding one
        // co-owner who may vote), there is no one to protect and nothing to reduce to.
        bool any_other = false;
        Fraction others;
        for (const auto& e : roll.entries) {
            if (&e == &holder || !e.may_vote()) continue;
            any_other = true;
            if (!attendance_recorded || e.represented()) others += e.votes;
        }
        if (!any_other) continue;
        if (holder.votes > others) {
            roll.reduced_votes += holder.votes - others;
            holder.votes = others;
            holder.status = "reduced-1091";
        }
    }
}

std::int64_t VotingRoll::entitled_headcount() const {
    std::int64_t n = 0;
    for (const auto& e : entries)
        if (e.may_vote() && e.fraction.units() > 0) ++n;
    return n;
}

const RollEntry* VotingRoll::find(const std::string& co_owner_id) const {
    for (const auto& e : entries)
        if (e.co_owner_id == co_owner_id) return &e;
    return nullptr;
}

std::string roll_day(const Meeting& m, Instant now) {
    const bool held = m.status == "held" || m.status == "minutes-sent";
    return montreal_date(held ? m.scheduled_at : now);
}

RollEntry roll_entry_head(SQLite::Statement& q) {
    RollEntry e;
    e.co_owner_id = q.getColumn(0).getString();
    e.name = q.getColumn(1).getString();
    e.unit_id = q.getColumn(2).getString();
    e.unit_number = q.getColumn(3).getString();
    e.fraction = Fraction::from_units(q.getColumn(4).getInt64());
    e.votes = e.fraction;
    return e;
}

VotingRoll live_roll(Database& db, const std::string& syndicate_id, const Meeting& m, const std::string& as_of) {
    VotingRoll roll;
    roll.as_of = as_of;
    roll.fractions = lot_count(db, syndicate_id);
    auto q = db.prepare(
        "SELECT c.id, coalesce(a.name, c.first_name || ' ' || c.last_name), c.unit_id, u.number, "
        "coalesce(a.fraction_units, c.fraction_units), a.attendance "
        "FROM co_owners c JOIN units u ON u.id = c.unit_id "
        "LEFT JOIN meeting_attendees a ON a.meeting_id = ?2 AND a.co_owner_id = c.id "
        "WHERE c.syndicate_id = ?1 AND (c.deleted_at IS NULL OR a.co_owner_id IS NOT NULL) "
        "ORDER BY c.sort_key, c.id");
    bind_parameters(*q, syndicate_id, m.id);
    while (q->executeStep()) {
        auto e = roll_entry_head(*q);
        if (!q->getColumn(5).isNull()) e.attendance = q->getColumn(5).getString();
        roll.entries.push_back(std::move(e));
    }
    // Art. 1094: live from the ledger, so a co-owner who pays votes again at once.
    std::vector<std::string> ids;
    for (const auto& e : roll.entries) ids.push_back(e.co_owner_id);
    const auto standings = accounting::co_owner_standings(db, syndicate_id, ids, as_of);
    apply_standing_and_cap(roll, standings, developer_cap(db, syndicate_id, as_of));
    return roll;
}

VotingRoll voting_roll(Database& db, const std::string& syndicate_id, const Meeting& m, const std::string& as_of) {
    auto frozen = frozen_roll(db, m);
    VotingRoll roll = frozen ? std::move(*frozen) : live_roll(db, syndicate_id, m, as_of);
    reduce_majority_holder(roll);
    return roll;
}

void apply_standing_and_cap(VotingRoll& roll, const std::vector<accounting::Standing>& standings,
                            const std::optional<DeveloperCap>& developer) {
    for (std::size_t i = 0; i < roll.entries.size() && i < standings.size(); ++i) {
        auto& e = roll.entries[i];
        e.overdue_since = standings[i].overdue_since;
        e.overdue_cents = standings[i].overdue_cents;
        if (standings[i].entitled()) continue;
        e.status = "suspended-arrears";
        roll.suspended_votes += e.votes;
        e.votes = Fraction();
    }
    if (developer) cap_developer(roll, *developer);
}

void apply_vote_rules(VotingRoll& roll, const std::vector<accounting::Standing>& standings,
                      const std::optional<DeveloperCap>& developer) {
    apply_standing_and_cap(roll, standings, developer);
    reduce_majority_holder(roll);
}

Quorum quorum_of(Database& db, const std::string& syndicate_id, const Meeting& m, const VotingRoll& roll) {
    Quorum q;
    // The votes of those present or represented, after the reductions (arts. 1091, 1092).
    for (const auto& e : roll.entries) {
        if (!e.may_vote()) continue;
        if (e.attendance == "present") q.present += e.votes;
        else if (e.attendance == "proxy") q.proxied += e.votes;
        if (e.represented()) ++q.represented_headcount;
    }
    q.voting_base = roll.voting_base();
    q.suspended = roll.suspended_votes;
    q.all_votes = roll.all_votes;
    q.rule = m.quorum_rule;
    if (q.rule != "adjourned") {
        // quorumPercent of the voting base, rounded up to the millionth.
        const auto share = static_cast<__int128>(required_quorum_of(db, syndicate_id).units()) * q.voting_base.units();
        const auto whole = static_cast<__int128>(Fraction::percent(100).units());
        q.required = Fraction::from_units(static_cast<std::int64_t>((share + whole - 1) / whole));
    }
    return q;
}

governance::QuorumSnapshot Quorum::snapshot(const std::string& taken_at) const {
    governance::QuorumSnapshot s;
    s.reached = reached();
    s.basis = basis;
    s.votes_present = total();
    s.voting_base = voting_base;
    s.required = required;
    s.rule = rule;
    s.majority_of_all_votes = majority_of_all_votes();
    s.taken_at = taken_at;
    return s;
}

Quorum quorum_of(Database& db, const std::string& syndicate_id, const Meeting& m, Instant now) {
    if (m.type == "board") return board_quorum(board_roll(db, syndicate_id, m));
    return quorum_of(db, syndicate_id, m, voting_roll(db, syndicate_id, m, roll_day(m, now)));
}

}  // namespace syndic::meetings
