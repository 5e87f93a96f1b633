#include "modules/governance/resolution_outcome.hpp"

#include <array>

namespace syndic::governance {

namespace {

constexpr std::array<const char*, 4> ladder{"simple", "absolute", "double", "special"};

// 3/4 of the persons entitled to vote, holding 90 % of the voting base (art. 1098).
std::string double_majority(const VoteTally& r, Fraction all) {
    // A head count is needed: totals alone never decide it (record_votes refuses it), so it stays
    // pending until ballots are recorded.
    if (!r.ballots_recorded || !r.headcount_for || !r.headcount_entitled) return "pending";
    const bool heads = *r.headcount_entitled > 0 && *r.headcount_for * 4 >= *r.headcount_entitled * 3;
    const bool votes = all.units() > 0 && r.votes_for.units() * 10 >= all.units() * 9;
    return heads && votes ? "passed" : "rejected";
}

}  // namespace

int majority_rank(std::string_view majority) {
    for (std::size_t i = 0; i < ladder.size(); ++i)
        if (majority == ladder[i]) return static_cast<int>(i);
    return -1;
}

std::string resolution_outcome(const VoteTally& r) {
    if (!r.recorded && !r.ballots_recorded) return "pending";
    const Fraction cast = r.votes_for + r.votes_against + r.votes_abstain;
    const Fraction base = r.quorum ? r.quorum->votes_present : cast;
    const Fraction all = r.quorum ? r.quorum->voting_base : Fraction::percent(100);
    // At a reconvened meeting, art. 1097 and 1098 matters need those present or represented to
    // hold a majority of all votes (art. 1089 para 2): without it they cannot pass.
    const bool needs_majority_of_all = r.majority == "absolute" || r.majority == "double";
    if (needs_majority_of_all && r.quorum && r.quorum->rule == "adjourned" && !r.quorum->majority_of_all_votes)
        return "rejected";
    const auto yes = r.votes_for.units();
    bool passed = false;
    if (r.majority == "double") return double_majority(r, all);
    if (r.majority == "simple") passed = base.units() > 0 && yes * 2 > base.units();
    else if (r.majority == "absolute") passed = base.units() > 0 && yes * 4 > base.units() * 3;
    else passed = all.units() > 0 && yes >= all.units();  // special: every vote of the syndicate
    return passed ? "passed" : "rejected";
}

}  // namespace syndic::governance
