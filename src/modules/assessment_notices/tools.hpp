// The assessment notices module's tool handlers (catalogue §4.5): generation.cpp drafts the year's
// notices, special.cpp a special assessment's, issuing.cpp issues them, cancelling.cpp and
// resending.cpp cancel them and send them again, listing.cpp reads them; assessment_notices.cpp
// binds them.
#pragma once
#include <nlohmann/json.hpp>

#include "tools/registry.hpp"

namespace syndic::assessment_notices {

nlohmann::json list_assessment_notices(const ToolCall& call);
nlohmann::json get_assessment_notice(const ToolCall& call);
nlohmann::json generate_assessment_notices(const ToolCall& call);
nlohmann::json issue_assessment_notices(const ToolCall& call);
nlohmann::json create_special_assessment(const ToolCall& call);
nlohmann::json cancel_assessment_notice(const ToolCall& call);
nlohmann::json resend_assessment_notice(const ToolCall& call);

}  // namespace syndic::assessment_notices
