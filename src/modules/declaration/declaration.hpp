// The declaration of co-ownership: the sum of unit fractions and their rebalancing to exactly 100,
// its particulars and parameters, by-laws, common portions and amendments (catalogue §3.1).
// Knows the units register, resolutions (through governance/authorisation) and storage; not
// JSON-RPC. What others apply of its parameters: declaration/parameters.hpp.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "tools/registry.hpp"

namespace syndic {

void register_declaration_tools(ToolTable& table);

// The active restricted common portions a unit may use, [{id, name}] by name (get_unit shows them).
nlohmann::json restricted_portions_of_unit(Database& db, const std::string& syndicate_id, const std::string& unit_id);

}  // namespace syndic
