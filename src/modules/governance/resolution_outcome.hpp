// What makes a resolution passed: the majority ladder, the quorum snapshot written with its votes,
// and the outcome of the votes or ballots recorded on it (arts. 1096-1098; art. 1089 at a
// reconvened meeting; catalogue §0 "Majorities"). The meetings module shows the outcome; an act that
// needs a passed resolution asks it here. Knows no storage, no meeting and no JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/fraction.hpp"

namespace syndic::governance {

// The majority ladder: simple (art. 1096) < absolute (art. 1097) < double (art. 1098) < special
// (every vote of the syndicate). Each also meets every weaker one. -1 for a word that is none of them.
int majority_rank(std::string_view majority);

// The quorum as it stood when a resolution's votes were recorded (catalogue §3.2), kept on the
// resolution: what its majority is measured against and what the authorising check reads. At a
// co-owners' meeting the figures are votes (percentages of all votes, after the reductions of
// arts. 1091 and 1092, without suspended or syndicate-held votes); at a board meeting they are
// numbers of directors, each held as a whole percent (3 directors = 3 %), so one arithmetic serves.
struct QuorumSnapshot {
    bool reached = false;
    std::string basis = "votes";  // votes | directors
    Fraction votes_present;       // present or represented who may vote: the majority's base
    Fraction voting_base;         // every vote that counts (art. 1099); directors in office
    Fraction required;            // what quorum needed (0 at a reconvened co-owners' meeting)
    std::string rule = "standard";       // standard | adjourned (art. 1089 para 2)
    bool majority_of_all_votes = false;  // votes present > 50 % of the voting base
    std::string taken_at;                // the UTC instant the votes were recorded
};

// What a resolution's outcome is decided from.
struct VoteTally {
    std::string majority;   // simple | absolute | double | special
    bool recorded = false;  // votes (or ballots) recorded
    Fraction votes_for, votes_against, votes_abstain;
    // Ballots (art. 1098): the persons for and the persons entitled to vote.
    bool ballots_recorded = false;
    std::optional<std::int64_t> headcount_for, headcount_entitled;
    std::optional<QuorumSnapshot> quorum;  // written with the votes
};

// pending until votes are recorded; then measured against the votes present or represented (the
// snapshot's votesPresent): simple passes with votes for above 50 % of them, absolute above 75 %;
// abstentions and those present who did not vote stay in the base. special passes only when every
// vote of the syndicate is for (the voting base, absent co-owners included). double (art. 1098)
// is pending until ballots are recorded, then passes with 3/4 of the persons entitled to vote
// for, holding 90 % of the voting base. At a reconvened meeting where those present did not hold
// a majority of all votes, absolute and double are rejected (art. 1089 para 2). A tally without
// a snapshot (none can be written without one) is measured against the votes cast.
std::string resolution_outcome(const VoteTally& tally);

// The number of days art. 1103 gives to ask for the annulment of a meeting's decision.
inline constexpr int contestation_days = 90;

}  // namespace syndic::governance
