#include "modules/governance/resolution_outcome.hpp"

#include <array>

namespace syndic::governance {

namespace {

constexpr std::array<const char*, 4> ladder{"simple", "absolute", "double", "special"};

}  // namespace

int majority_rank(std::string_view majority) {
    for (std::size_t i = 0; i < ladder.size(); ++i)
        if (majority == ladder[i]) return static_cast<int>(i);
    return -1;
}

std::string resolution_outcome(const VoteTally& r) {
    // At a reconvened meeting, art. 1097 and 1098 matters need those present or represented to
    // hold a majority of all votes (art. 1089 para 2): without it they cannot pass.
    const bool needs_majority_of_all = r.majority == "absolute" || r.majority == "double";
    if (needs_majority_of_all && r.majority_of_all_votes == false && (r.recorded || r.ballots_recorded)) return "rejected";
    if (r.majority == "double") {
        // A head count is needed (art. 1098): totals alone never decide it (record_votes refuses
        // it), so it stays pending until ballots are recorded; then 3/4 of the co-owners entitled
        // to vote must be for, holding at least 90 % of the votes that count.
        if (!r.ballots_recorded || !r.headcount_for || !r.headcount_entitled || !r.voting_base) return "pending";
        const bool heads = *r.headcount_entitled > 0 && *r.headcount_for * 4 >= *r.headcount_entitled * 3;
        const bool votes = r.voting_base->units() > 0 && r.votes_for.units() * 10 >= r.voting_base->units() * 9;
        return heads && votes ? "passed" : "rejected";
    }
    if (!r.recorded) return "pending";
    const auto cast = (r.votes_for + r.votes_against + r.votes_abstain).units();
    const auto yes = r.votes_for.units();
    bool passed = false;
    if (r.majority == "simple") passed = cast > 0 && yes * 2 > cast;
    else if (r.majority == "absolute") passed = cast > 0 && yes * 4 > cast * 3;
    else passed = cast > 0 && r.votes_against.units() == 0 && r.votes_abstain.units() == 0;
    return passed ? "passed" : "rejected";
}

}  // namespace syndic::governance
