// The board module's handlers and what its files share, registered by board.cpp. Included only by
// the module's own sources.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "modules/board/arrears.hpp"
#include "modules/declaration/parameters.hpp"  // board_parameters
#include "modules/list_query.hpp"                // date_argument
#include "modules/record_table.hpp"  // today(call)
#include "tools/registry.hpp"

namespace syndic::board {

// The declaration's board parameters, from the declaration module; a syndicate without a
// declaration has the columns' defaults, as get_declaration shows them.
using BoardRules = declaration::BoardParameters;
inline BoardRules board_rules(Database& db, const std::string& syndicate_id) {
    return declaration::board_parameters(db, syndicate_id);
}

// records.cpp: directors as the tools show them, their standing computed on `as_of`.
nlohmann::json director_json(Database& db, const std::string& syndicate_id, const std::string& id,
                             const std::string& as_of);
// The director's status, or DIRECTOR_NOT_FOUND at `field`.
std::string require_director(Database& db, const std::string& syndicate_id, const std::string& id,
                             const std::string& field);
// Directors with status active.
std::int64_t active_director_count(Database& db, const std::string& syndicate_id);
// DUPLICATE_OFFICER at `field` when `role` is a single office another active director holds.
void check_single_office(Database& db, const std::string& syndicate_id, const std::string& role,
                         const std::string& except_id, const std::string& field);
// DOCUMENT_NOT_FOUND at `field` unless the syndicate has it (not archived).
void require_document(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field);

// directors.cpp
nlohmann::json appoint_director(const ToolCall& call);
nlohmann::json update_director(const ToolCall& call);
nlohmann::json end_director_mandate(const ToolCall& call);

// disclosures.cpp
nlohmann::json record_interest_disclosure(const ToolCall& call);
nlohmann::json list_interest_disclosures(const ToolCall& call);

// management_mandate.cpp
nlohmann::json set_management_mandate(const ToolCall& call);
// The mandate in force on `as_of` (startOn <= as_of, no endOn before it), or null.
nlohmann::json mandate_in_force(Database& db, const std::string& syndicate_id, const std::string& as_of);

// board.cpp
nlohmann::json get_board(const ToolCall& call);

// ownership.cpp: the answer to the co-owners' question "a co-owner record is archived"
// (co_owners.hpp): the mandates that end because the director is no longer a co-owner, as
// {"directorMandatesEnded": [directors]}, or null.
nlohmann::json end_mandates_of_former_co_owner(const ToolCall& call, const std::string& co_owner_id);

}  // namespace syndic::board
