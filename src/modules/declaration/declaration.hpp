// The declaration of co-ownership: the sum of unit fractions and their rebalancing to exactly 100,
// its particulars and parameters, by-laws, common portions and amendments (catalogue §3.1).
// Knows the units register, resolutions (through governance/authorisation) and storage; not
// JSON-RPC. What others apply of its parameters: declaration/parameters.hpp.
#pragma once
#include <string>
#include <vector>

#include "modules/units/units.hpp"  // UnitPortion
#include "tools/registry.hpp"

namespace syndic {

void register_declaration_module(ToolTable& table);

// The active restricted common portions a unit may use, by name (get_unit shows them: modules.cpp
// hands this answer to the units' tools).
std::vector<UnitPortion> restricted_portions_of_unit(Database& db, const std::string& syndicate_id,
                                                     const std::string& unit_id);

}  // namespace syndic
