// The declaration module's handlers and what its files share, registered by declaration.cpp.
// Included only by the module's own sources.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "tools/registry.hpp"

namespace syndic::declaration {

// particulars.cpp: the declaration's particulars and governance parameters.
nlohmann::json get_declaration(const ToolCall& call);
nlohmann::json update_declaration(const ToolCall& call);
// Whether the declaration provides for penalties (false until recorded).
bool penalties_allowed(Database& db, const std::string& syndicate_id);
// The day the declaration was registered at the Land Registry, when recorded.
std::optional<std::string> registered_on(Database& db, const std::string& syndicate_id);

// amendment_records.cpp: amendments as records.
nlohmann::json amendment_json(Database& db, const std::string& syndicate_id, const std::string& id);
nlohmann::json amendments_json(Database& db, const std::string& syndicate_id);
// AMENDMENT_NOT_FOUND at `field` unless the syndicate has the amendment.
void require_amendment(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field);

// bylaws.cpp
nlohmann::json list_bylaws(const ToolCall& call);
nlohmann::json set_bylaw(const ToolCall& call);

// common_portions.cpp
nlohmann::json list_common_portions(const ToolCall& call);
nlohmann::json set_common_portion(const ToolCall& call);

// amendments.cpp
nlohmann::json record_declaration_amendment(const ToolCall& call);

// ADMIN_REQUIRED unless the caller is an admin; `act` completes "Only a syndicate admin may ...".
void require_admin(const ToolCall& call, const std::string& act);

}  // namespace syndic::declaration
