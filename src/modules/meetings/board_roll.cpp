#include "modules/meetings/board_roll.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>

#include "modules/declaration/parameters.hpp"
#include "modules/governance/in_office.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

std::int64_t BoardRoll::present() const {
    std::int64_t n = 0;
    for (const auto& s : seats) n += s.present() && s.in_office ? 1 : 0;
    return n;
}

const BoardSeat* BoardRoll::find(const std::string& director_id) const {
    for (const auto& s : seats)
        if (s.director_id == director_id) return &s;
    return nullptr;
}

BoardRoll board_roll(Database& db, const std::string& syndicate_id, const Meeting& m) {
    BoardRoll roll;
    roll.day = montreal_date(m.scheduled_at);
    roll.board_quorum = declaration::board_parameters(db, syndicate_id).quorum;
    for (auto& d : governance::directors_in_office(db, syndicate_id, roll.day))
        roll.seats.push_back({std::move(d.id), std::move(d.name), std::move(d.role), std::nullopt, true});
    roll.in_office = static_cast<std::int64_t>(roll.seats.size());
    auto q = db.prepare("SELECT director_id, name, attendance FROM board_attendees WHERE meeting_id = ? ORDER BY name, director_id");
    bind_parameters(*q, m.id);
    while (q->executeStep()) {
        const std::string id = q->getColumn(0).getString();
        auto seat = std::find_if(roll.seats.begin(), roll.seats.end(), [&](const BoardSeat& s) { return s.director_id == id; });
        if (seat == roll.seats.end()) seat = roll.seats.insert(roll.seats.end(), {id, q->getColumn(1).getString(), "director", std::nullopt, false});
        seat->attendance = q->getColumn(2).getString();
    }
    return roll;
}

Quorum board_quorum(const BoardRoll& roll) {
    Quorum q;
    q.basis = "directors";
    q.present = Fraction::percent(roll.present());
    q.voting_base = q.all_votes = Fraction::percent(roll.in_office);
    q.required = Fraction::percent(roll.required());
    q.represented_headcount = roll.present();
    return q;  // a reconvened board meeting keeps the board's quorum: rule standard
}

std::set<std::string> interested_directors(Database& db, const std::string& syndicate_id, const std::string& resolution_id) {
    auto q = db.prepare(
        "SELECT director_id FROM interest_disclosures WHERE syndicate_id = ? AND subject_type = 'resolution' "
        "AND subject_id = ? AND active = 1");
    bind_parameters(*q, syndicate_id, resolution_id);
    std::set<std::string> out;
    while (q->executeStep()) out.insert(q->getColumn(0).getString());
    return out;
}

Fraction board_base(const BoardRoll& roll, const std::set<std::string>& interested) {
    std::int64_t n = 0;
    for (const auto& s : roll.seats) n += s.in_office && s.present() && !interested.count(s.director_id) ? 1 : 0;
    return Fraction::percent(n);
}

governance::QuorumSnapshot board_snapshot(const BoardRoll& roll, const std::set<std::string>& interested,
                                          const std::string& taken_at) {
    auto s = board_quorum(roll).snapshot(taken_at);
    s.votes_present = board_base(roll, interested);
    return s;
}

}  // namespace syndic::meetings
