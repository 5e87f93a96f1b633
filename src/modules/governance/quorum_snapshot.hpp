// The quorum snapshot kept on a resolution (resolutions.quorum, meetings migration 007) as stored
// text and as shown: {reached, basis, votesPresent, votingBase, required, rule,
// majorityOfAllVotes, takenAt}, votes as percentages, directors as whole numbers.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

#include "modules/governance/resolution_outcome.hpp"

namespace syndic::governance {

// As stored: compact JSON, votes in millionths of a percent (exact).
std::string stored_snapshot(const QuorumSnapshot& q);
// The stored text read back; nullopt for NULL or a text that is not one (a broken row is a
// runtime_error, as a stored instant's is).
std::optional<QuorumSnapshot> read_snapshot(const std::optional<std::string>& stored);
// As a record shows it: votes as percentages, directors as numbers, takenAt in Montreal.
nlohmann::json shown_snapshot(const QuorumSnapshot& q);

}  // namespace syndic::governance
