// What the declaration of co-ownership says that other modules apply: the board's parameters
// (the board module) and the developer's holding (the voting roll's cap, art. 1092). The
// declaration module owns these answers; the others ask here. Knows storage; not JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fraction.hpp"

namespace syndic {
class Database;
}

namespace syndic::declaration {

// The declaration's parameters of the board (catalogue §3.1), as the board module applies them:
// the columns' defaults when none is recorded.
struct BoardParameters {
    std::int64_t size_min = 1;
    std::optional<std::int64_t> size_max;
    std::optional<std::int64_t> term_years;
    bool must_be_co_owners = false;
    bool vacancy_filled_by_board = false;
    // A by-law clause barring a co-owner in arrears from appointment (art. 1086 alone does not).
    bool arrears_make_ineligible = false;
    // Board meetings: the directors needed for quorum (none: a majority of those in office), and
    // the days of notice they need.
    std::optional<std::int64_t> quorum;
    std::int64_t notice_days = 2;
};
BoardParameters board_parameters(Database& db, const std::string& syndicate_id);

// The developer the declaration names and the day it was registered (art. 1092, the voting roll's
// cap); nullopt unless both are recorded and the developer holds as some co-owners.
struct DeveloperHolding {
    std::string registered_on;
    std::vector<std::string> co_owner_ids;
    std::optional<std::string> residence_unit_id;  // the developer's residence keeps its votes
};
std::optional<DeveloperHolding> developer_holding(Database& db, const std::string& syndicate_id);

// What the declaration says of arrears (catalogue §3.1), as the accounts apply it: the interest
// rate (nullopt: none recorded, the legal rate applies), the NSF fee (nullopt: none may be
// charged), and whether the mere lapse of time is a default (arts. 1594, 1617; true when no
// declaration is recorded).
struct ArrearsParameters {
    std::optional<Fraction> interest_rate;
    std::optional<std::int64_t> nsf_fee_cents;
    bool default_by_lapse_of_time = true;
};
ArrearsParameters arrears_parameters(Database& db, const std::string& syndicate_id);

// The first day of the syndicate's fiscal year, "MM-DD" (the declaration's fiscalYearStart;
// "01-01" when none is recorded): the accounts date their entries' fiscal years by it.
std::string fiscal_year_start(Database& db, const std::string& syndicate_id);

// What the declaration says of the building (Reg. 991-2025 s. 5, the logbook's revision interval):
// whether it is horizontal, and its storeys entirely above ground (nullopt: not recorded).
struct BuildingShape {
    bool horizontal = false;
    std::optional<std::int64_t> storeys_above_ground;
};
BuildingShape building_shape(Database& db, const std::string& syndicate_id);

// The by-laws' tendering rule (award_project_contract): at least `min_quotes` quotes for a contract
// of `threshold_cents` or more; none when the declaration sets no minimum.
struct TenderingRule {
    std::optional<std::int64_t> min_quotes, threshold_cents;
};
TenderingRule tendering_rule(Database& db, const std::string& syndicate_id);

}  // namespace syndic::declaration
