#include "modules/governance/quorum_snapshot.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/clock.hpp"
#include "modules/common.hpp"

namespace syndic::governance {

using nlohmann::json;

std::string stored_snapshot(const QuorumSnapshot& q) {
    return json{{"reached", q.reached},
                {"basis", q.basis},
                {"votesPresentUnits", q.votes_present.units()},
                {"votingBaseUnits", q.voting_base.units()},
                {"requiredUnits", q.required.units()},
                {"rule", q.rule},
                {"majorityOfAllVotes", q.majority_of_all_votes},
                {"takenAt", q.taken_at}}
        .dump();
}

std::optional<QuorumSnapshot> read_snapshot(const std::optional<std::string>& stored) {
    if (!stored) return std::nullopt;
    try {
        const auto j = json::parse(*stored);
        QuorumSnapshot q;
        q.reached = j.at("reached").get<bool>();
        q.basis = j.at("basis").get<std::string>();
        q.votes_present = Fraction::from_units(j.at("votesPresentUnits").get<std::int64_t>());
        q.voting_base = Fraction::from_units(j.at("votingBaseUnits").get<std::int64_t>());
        q.required = Fraction::from_units(j.at("requiredUnits").get<std::int64_t>());
        q.rule = j.at("rule").get<std::string>();
        q.majority_of_all_votes = j.at("majorityOfAllVotes").get<bool>();
        q.taken_at = j.at("takenAt").get<std::string>();
        return q;
    } catch (const json::exception& e) {
        throw std::runtime_error("A resolution's stored quorum is not one: " + std::string(e.what()));
    }
}

json shown_snapshot(const QuorumSnapshot& q) {
    const auto figure = [&](Fraction f) -> json {
        if (q.basis == "directors") return f.units() / Fraction::units_per_percent;
        return percent(f);
    };
    return {{"reached", q.reached},
            {"basis", q.basis},
            {"votesPresent", figure(q.votes_present)},
            {"votingBase", figure(q.voting_base)},
            {"required", figure(q.required)},
            {"rule", q.rule},
            {"majorityOfAllVotes", q.majority_of_all_votes},
            {"takenAt", to_montreal_iso(stored_instant(q.taken_at))}};
}

}  // namespace syndic::governance
