// Dynamic client registration (RFC 7591): the metadata read with every type checked, the limits
// per address and per day, the client made. Knows the OAuth store and the request, not the other
// OAuth endpoints or how an answer is sent.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "core/clock.hpp"
#include "http/message.hpp"

namespace syndic {
class Database;
}

namespace syndic::http {

// The registration's answer (201's body). Throws oauth::OAuthError (400 invalid_client_metadata,
// 429 temporarily_unavailable with Retry-After set on `res`).
nlohmann::json register_dynamic_client(Database& db, const Clock& clock, const Request& req, Response& res);

}  // namespace syndic::http
