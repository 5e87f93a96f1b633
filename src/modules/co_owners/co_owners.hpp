// The register of co-owners: who owns which unit and their share of the votes, one primary
// co-owner per unit, archival (soft delete) that revokes portal access and tells the modules built
// on it, restore, bulk entry; which records are one person (co_owners/persons.hpp).
// Knows storage, core and the units register; not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "tools/registry.hpp"

namespace syndic {

void register_co_owners_module(ToolTable& table);

// What the modules built on the register do when delete_co_owner archives a record: a question the
// co-owners module asks and each such module answers (ToolTable::question), so the register never
// includes them. Each answer runs in the call's transaction after the archive, may change its own
// records (the board ends the mandate of a director who stops being a co-owner) and returns fields
// to add to the call's result (an object), or null.
using CoOwnerArchived = std::function<nlohmann::json(const ToolCall& call, const std::string& co_owner_id)>;
using CoOwnerArchivedAnswers = std::vector<CoOwnerArchived>;
inline constexpr const char* co_owner_archived_question = "what follows when a co-owner record is archived";

}  // namespace syndic
