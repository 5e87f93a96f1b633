// The insurance module's claim and certificate handlers (catalogue §3.3): claims.cpp opens and
// lists claims, claim_updates.cpp follows them through the insurer's answer and payment,
// certificates.cpp keeps the co-owners' liability certificates; insurance.cpp (the policies) binds
// them.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "tools/registry.hpp"

namespace syndic {
class Database;
}

namespace syndic::insurance {

nlohmann::json list_insurance_claims(const ToolCall& call);
nlohmann::json record_insurance_claim(const ToolCall& call);
nlohmann::json update_insurance_claim(const ToolCall& call);
nlohmann::json list_co_owner_insurance_certificates(const ToolCall& call);
nlohmann::json record_co_owner_insurance_certificate(const ToolCall& call);

// The claim as the tools show it (its fund use authorisation, the latest naming it).
nlohmann::json claim_json(Database& db, const std::string& syndicate_id, const std::string& id);

}  // namespace syndic::insurance
