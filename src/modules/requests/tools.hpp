// The requests module's tool handlers (catalogue §4.9): records.cpp (reading them), opening.cpp
// (create_request), follow_up.cpp (update_request, add_request_comment, resolve_request);
// requests.cpp binds them.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "tools/registry.hpp"

namespace syndic::requests {

nlohmann::json list_requests(const ToolCall& call);
nlohmann::json get_request(const ToolCall& call);
nlohmann::json create_request(const ToolCall& call);
nlohmann::json update_request(const ToolCall& call);
nlohmann::json add_request_comment(const ToolCall& call);
nlohmann::json resolve_request(const ToolCall& call);

// The request as the tools show it (REQUEST_NOT_FOUND at `field` when the syndicate has none).
nlohmann::json request_json(const ToolCall& call, const std::string& id, const std::string& field = "/id");

// The due day of a request made on `made_on` at `priority`: the settings' service delay.
std::string due_on(const ToolCall& call, const std::string& made_on, const std::string& priority);

// A message to the requester (their e-mail, in their language), about the request: queued, or
// withoutEmail when the requester has no address. Returns the number queued (0 or 1).
int tell_requester(const ToolCall& call, const std::string& request_id, const std::string& subject_fr, const std::string& subject_en,
                   const std::string& body, bool& without_email);

}  // namespace syndic::requests
