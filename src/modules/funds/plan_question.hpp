// The total of the 25-year plan of major works, which get_fund_position shows beside the contingency
// fund (catalogue §4.6, link L17): a question the funds ask and the logbook answers
// (ToolTable::question), the logbook being built on the funds. Empty (no answer) while no module
// answers; the answer is nullopt while the logbook plans nothing.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "tools/registry.hpp"

namespace syndic::funds {

// The plan's total from this year, 25 years, at the syndicate's construction inflation, as of the call's today.
using MajorWorksPlanTotal = std::function<std::optional<std::int64_t>(const ToolCall& call)>;
inline constexpr const char* major_works_plan_question = "the 25-year plan's total of major works";

}  // namespace syndic::funds
