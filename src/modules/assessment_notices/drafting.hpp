// Writing draft notices (catalogue §4.5): one per lot of the units an apportionment billed, its
// lines (a unit's share of a fund and the basis it was shared on), its instalments per unit and
// fund, and its addressees from the register. The year's notices (generation.cpp) and a special
// assessment's (special.cpp) are drafted here. Knows storage; not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "modules/funds/apportionment.hpp"

namespace syndic {
class Database;
}

namespace syndic::assessment_notices {

struct DraftPlan {
    std::string syndicate_id, kind;  // kind: regular or special
    int fiscal_year = 0;
    std::optional<std::string> budget_id, special_assessment_id;
    std::vector<std::string> due_dates;      // one per instalment, in order
    std::vector<std::int64_t> weights;       // each instalment's weight (equal, or percents in millionths)
    std::function<std::string(const funds::UnitLine&)> describe;  // a line's description
    std::string fallback_language, now;
};

// Drafts a notice per lot of `units` (each lot headed by its root unit, in the order first met),
// a no-addressee warning per lot without an active co-owner appended to `warnings`; returns the
// notices as generate_assessment_notices lists them.
nlohmann::json draft_notices(Database& db, const DraftPlan& plan, const std::vector<const funds::UnitShare*>& units,
                             nlohmann::json& warnings);

}  // namespace syndic::assessment_notices
