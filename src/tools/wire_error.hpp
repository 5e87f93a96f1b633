// The one place a DomainError becomes its wire form (decisions 3): the JSON-RPC error data and
// message, and the HTTP status a REST route answers with.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "core/error.hpp"

namespace syndic {

inline constexpr int domain_error_code = -32000;

// {"detail":..., "field":..., figures..., "errors":[...]} for JSON-RPC error.data.
nlohmann::json error_data(const DomainError& error);
// The HTTP status the code's manifest declares; 500 for a code no manifest declares.
int http_status(const std::string& code);

}  // namespace syndic
