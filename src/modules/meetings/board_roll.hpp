// A board meeting is the directors' (catalogue §3.2 "Board meetings"; arts. 1084, 335 ff.): its
// roll is the directors in office on the meeting's day, each with one vote; its quorum is the
// declaration's boardQuorum, else a majority of the directors in office; a director who declared
// an interest in a resolution (an active disclosure, subjectType resolution) abstains on it and
// is out of its base (arts. 324-326). Figures are numbers of directors, held as whole percents
// (3 directors = Fraction::percent(3)) so the arithmetic of votes serves. Reads rows; no JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/fraction.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"

namespace syndic::meetings {

// A number of directors as the board's figures hold it (Fraction::percent(3) = 3 directors).
inline std::int64_t directors_in(Fraction f) { return f.units() / Fraction::percent(1).units(); }

struct BoardSeat {
    std::string director_id, name;
    std::string role = "director";  // the office held (president, secretary...), as the register says now
    std::optional<std::string> attendance;  // present | absent, as recorded for the meeting
    bool in_office = true;  // on the meeting's day (a director recorded then, whose mandate was ended back to before it, is not)
    bool present() const { return attendance == "present"; }
};

struct BoardRoll {
    std::string day;  // the meeting's Montreal day
    std::vector<BoardSeat> seats;  // the directors in office, officers first; then any other recorded
    std::int64_t in_office = 0;
    std::optional<std::int64_t> board_quorum;  // the declaration's; none: a majority of those in office
    std::int64_t present() const;
    // boardQuorum, else a majority of the directors in office.
    std::int64_t required() const { return board_quorum ? *board_quorum : in_office / 2 + 1; }
    const BoardSeat* find(const std::string& director_id) const;
};

// The roll of board meeting `m`: the directors in office on its day, with the attendance recorded.
BoardRoll board_roll(Database& db, const std::string& syndicate_id, const Meeting& m);

// The board meeting's quorum (basis directors): present directors against required; the voting
// base is the directors in office.
Quorum board_quorum(const BoardRoll& roll);

// The directors with an active interest disclosure in the resolution (arts. 324-326).
std::set<std::string> interested_directors(Database& db, const std::string& syndicate_id, const std::string& resolution_id);

// The resolution's base: the directors present who may vote on it (the interested abstain).
Fraction board_base(const BoardRoll& roll, const std::set<std::string>& interested);

// The quorum kept with a board resolution's votes at `taken_at`: reached by the directors present
// (the interested count for quorum), measured against the base.
governance::QuorumSnapshot board_snapshot(const BoardRoll& roll, const std::set<std::string>& interested,
                                          const std::string& taken_at);

}  // namespace syndic::meetings
