// The assessment notices module's tool handlers (catalogue §4.5): generation.cpp drafts the year's
// notices, issuing.cpp issues them, listing.cpp reads them; assessment_notices.cpp binds them.
#pragma once
#include <nlohmann/json.hpp>

#include "tools/registry.hpp"

namespace syndic::assessment_notices {

nlohmann::json list_assessment_notices(const ToolCall& call);
nlohmann::json get_assessment_notice(const ToolCall& call);
nlohmann::json generate_assessment_notices(const ToolCall& call);
nlohmann::json issue_assessment_notices(const ToolCall& call);

}  // namespace syndic::assessment_notices
