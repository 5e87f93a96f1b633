// Perils and deductibles of a policy (catalogue §3.3): the perils the self-insurance formula leaves
// out (earthquake and flood: r. 4.1 s. 2), a policy's highest deductible without them, and the
// deductible a claim's peril falls under. The funds module's self-insurance minimum and the
// claims ask here. Knows text; not storage.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace syndic::insurance {

// Earthquake or flood, by the peril's folded text (earthquake, séisme, tremblement, flood,
// inondation, crue).
bool excluded_peril(const std::string& peril);

// The highest deductible of `coverages` ([{peril, amountCents, deductibleCents}]) outside the
// excluded perils; 0 when none.
std::int64_t highest_deductible(const nlohmann::json& coverages);

// The deductible of the coverage whose peril matches `peril` (folded, one naming the other), else
// the policy's highest deductible of all.
std::int64_t deductible_for(const nlohmann::json& coverages, const std::string& peril);

}  // namespace syndic::insurance
