// Who may vote at a meeting, with how many votes, and why not (catalogue §3.2 get_voting_roll):
// votes are fractions (art. 1090); a co-owner in arrears more than 3 months loses them (art. 1094,
// asked of the accounting module); the developer is capped (art. 1092); in a co-ownership of fewer
// than five fractions a co-owner holding more than half the votes is reduced to the votes of the
// others present or represented (art. 1091); removed votes leave the voting base (art. 1099).
// The quorum (art. 1089) is measured on the roll. Reads rows; knows no JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/fraction.hpp"
#include "modules/accounting/standing.hpp"
#include "modules/governance/resolution_outcome.hpp"
#include "modules/meetings/store.hpp"

namespace SQLite {
class Statement;
}

namespace syndic::meetings {

struct RollEntry {
    std::string co_owner_id, name, unit_id, unit_number;
    Fraction fraction;  // the co-owner's fraction (as recorded at the meeting if attendance was)
    Fraction votes;     // after suspension and reductions
    // entitled | suspended-arrears | reduced-1091 | reduced-developer | syndicate-held
    std::string status = "entitled";
    std::optional<std::string> overdue_since;
    std::int64_t overdue_cents = 0;
    std::optional<std::string> attendance;  // present | proxy | absent, as recorded for the meeting
    bool may_vote() const { return status != "suspended-arrears" && status != "syndicate-held"; }
    bool represented() const { return attendance == "present" || attendance == "proxy"; }
};

struct VotingRoll {
    std::string as_of;  // the Montreal day the standing was read for
    std::vector<RollEntry> entries;
    Fraction all_votes = Fraction::percent(100);  // every fraction of the immovable (art. 1090)
    Fraction suspended_votes, reduced_votes;
    std::int64_t fractions = 0;  // lots of the syndicate (a unit with its linked parking and storage)
    Fraction voting_base() const { return all_votes - suspended_votes - reduced_votes; }
    // Co-owners entitled to vote (not suspended, not the syndicate, holding a fraction): the head
    // count of a double majority (art. 1098).
    std::int64_t entitled_headcount() const;
    const RollEntry* find(const std::string& co_owner_id) const;
};

// The developer's cap in force (art. 1092): the declaration's developer co-owners and residence.
struct DeveloperCap {
    std::vector<std::string> co_owner_ids;
    std::optional<std::string> residence_unit_id;
    Fraction cap;  // of all votes: 60 % from the end of the 2nd year after registration, 25 % from the 3rd
};

// The rules applied to rows already read (each entry's votes its fraction, `standings` one per
// entry in order): suspension (art. 1094), the developer's cap (art. 1092, from 5 fractions), the
// majority holder's reduction under 5 fractions (art. 1091), in that order.
void apply_vote_rules(VotingRoll& roll, const std::vector<accounting::Standing>& standings,
                      const std::optional<DeveloperCap>& developer);
// The first two, which do not depend on who attends (what a frozen roll keeps).
void apply_standing_and_cap(VotingRoll& roll, const std::vector<accounting::Standing>& standings,
                            const std::optional<DeveloperCap>& developer);
// The third (art. 1091), applied each time quorum or votes are computed: it depends on attendance.
void reduce_majority_holder(VotingRoll& roll);

// The day a meeting's roll is read for: today while the meeting is open, its own day once held.
std::string roll_day(const Meeting& m, Instant now);

// The roll of meeting `m` on `as_of` ("YYYY-MM-DD"): the syndicate's active co-owners and the
// co-owners recorded in its attendance (kept as recorded, even if archived since). Once frozen
// (frozen_roll.hpp), the frozen entries whatever `as_of`; art. 1091 applied on the attendance.
VotingRoll voting_roll(Database& db, const std::string& syndicate_id, const Meeting& m, const std::string& as_of);
// An entry's first five columns as both roll queries select them: co-owner id, name, unit id,
// unit number, fraction (units); its votes start as its fraction.
RollEntry roll_entry_head(SQLite::Statement& q);

// The roll read from the co-owners and the ledger on `as_of`, before art. 1091.
VotingRoll live_roll(Database& db, const std::string& syndicate_id, const Meeting& m, const std::string& as_of);

// Present, proxied and total count the votes of those represented who may vote, after the
// reductions of arts. 1091 and 1092 (suspended and syndicate-held votes excluded, catalogue §3.2);
// required is quorumPercent of the voting base (art. 1099).
struct Quorum {
    Fraction present, proxied, required, voting_base, suspended, all_votes;
    std::string rule = "standard";   // "adjourned" at a meeting reconvened after an adjournment
    // votes; or directors at a board meeting (board_roll.hpp), each figure a number of directors
    // held as a whole percent
    std::string basis = "votes";
    std::int64_t represented_headcount = 0;
    Fraction total() const { return present + proxied; }
    // standard: the votes present or represented reach quorumPercent of the voting base
    // (art. 1089 para 1); adjourned: those present or represented form the quorum (para 2).
    bool reached() const { return rule == "adjourned" ? represented_headcount > 0 : total() >= required; }
    // Whether those present or represented hold a majority of all votes that count (the voting
    // base): what art. 1097 (and 1098) decisions need at a reconvened meeting (art. 1089 para 2).
    bool majority_of_all_votes() const { return total().units() * 2 > voting_base.units(); }
    // As kept on a resolution whose votes are recorded at `taken_at` (a stored UTC instant).
    governance::QuorumSnapshot snapshot(const std::string& taken_at) const;
};

// The meeting's quorum on the roll.
Quorum quorum_of(Database& db, const std::string& syndicate_id, const Meeting& m, const VotingRoll& roll);
// The meeting's quorum now: the voting roll's at a co-owners' meeting, the directors' at a board
// meeting (board_roll.hpp).
Quorum quorum_of(Database& db, const std::string& syndicate_id, const Meeting& m, Instant now);

}  // namespace syndic::meetings
