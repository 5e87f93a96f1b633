// The authorization server and the protected-resource side of the HTTP bridge (docs/oauth.md):
// discovery documents (RFC 8414, RFC 9728), client registration (RFC 7591), the authorization
// endpoint with its sign-in and consent pages, the token and revocation endpoints, the JWKS, and
// turning a Bearer JWT into the caller's context. This file holds the discovery documents and the
// route table (method + path -> one function per endpoint, in oauth_token, oauth_authorize and
// oauth_registration). Knows HTTP requests and the auth/ parts; the bridge routes to it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/context.hpp"
#include "http/access_policy.hpp"
#include "http/message.hpp"
#include "storage/database.hpp"

namespace syndic::http {

struct OAuthSettings {
    Url base;                        // the base URL: the issuer and the resource
    std::string base_url;            // as text, without a trailing slash
    std::vector<std::string> scopes;  // every scope a tool requires, offered to applications
};

// "<origin>/.well-known/oauth-protected-resource<base path>/mcp" (or without /mcp for REST).
std::string resource_metadata_url(const OAuthSettings& settings, bool mcp_endpoint);

// Answers `path` (below the base path, e.g. "/oauth/token") or a root /.well-known/ path when it
// is one of the authorization server's; false otherwise. `full_path` is the request's path.
bool serve_oauth(const OAuthSettings& settings, Database& db, const Clock& clock, const Request& req,
                 Response& res, const std::string& full_path);

// The caller a Bearer access token (a JWT) stands for, or the English reason it is refused.
struct TokenCaller {
    std::optional<CallerContext> caller;
    std::string error;
};
TokenCaller caller_from_access_token(const OAuthSettings& settings, Database& db, const Clock& clock, const std::string& token);

}  // namespace syndic::http
