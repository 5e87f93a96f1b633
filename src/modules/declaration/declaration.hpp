// The declaration of co-ownership: the sum of unit fractions and their rebalancing to exactly 100,
// its particulars and parameters, by-laws, common portions and amendments (catalogue §3.1).
// Knows the units register, resolutions (through meetings/authorisation) and storage; not JSON-RPC.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/registry.hpp"

namespace syndic {

void register_declaration_tools(ToolTable& table);

// The active restricted common portions a unit may use, [{id, name}] by name (get_unit shows them).
nlohmann::json restricted_portions_of_unit(Database& db, const std::string& syndicate_id, const std::string& unit_id);

namespace declaration {

// The declaration's parameters of the board (catalogue §3.1), as the board module applies them:
// the columns' defaults when none is recorded.
struct BoardParameters {
    std::int64_t size_min = 1;
    std::optional<std::int64_t> size_max;
    std::optional<std::int64_t> term_years;
    bool must_be_co_owners = false;
    bool vacancy_filled_by_board = false;
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

}  // namespace declaration

}  // namespace syndic
