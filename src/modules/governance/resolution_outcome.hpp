// What makes a resolution passed: the majority ladder and the outcome of the votes or ballots
// recorded on it (art. 1096-1098; art. 1089 at a reconvened meeting). The meetings module shows
// the outcome; an act that needs a passed resolution asks it here. Knows no storage, no meeting
// and no JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/fraction.hpp"

namespace syndic::governance {

// The majority ladder: simple (art. 1096) < absolute (art. 1097) < double (art. 1098) < special
// (every vote cast for). -1 for a word that is none of them.
int majority_rank(std::string_view majority);

// What a resolution's outcome is decided from.
struct VoteTally {
    std::string majority;  // simple | absolute | double | special
    bool recorded = false;  // votes recorded
    Fraction votes_for, votes_against, votes_abstain;
    // Ballots (art. 1098): the co-owners for, those entitled to vote and the votes that counted.
    bool ballots_recorded = false;
    std::optional<std::int64_t> headcount_for, headcount_entitled;
    std::optional<Fraction> voting_base;
    // At a reconvened meeting: whether those present or represented held a majority of all votes
    // when the votes were recorded; null elsewhere.
    std::optional<bool> majority_of_all_votes;
};

// pending until votes are recorded; then, of the votes cast, simple passes above 50 %, absolute
// above 75 %, special only when every vote cast is for. double (art. 1098) is pending until
// ballots are recorded, then passes with 3/4 of the co-owners entitled to vote holding 90 % of
// the voting base. At a reconvened meeting where those present did not hold a majority of all
// votes, absolute and double are rejected (art. 1089 para 2).
std::string resolution_outcome(const VoteTally& tally);

// The number of days art. 1103 gives to ask for the annulment of a meeting's decision.
inline constexpr int contestation_days = 90;

}  // namespace syndic::governance
