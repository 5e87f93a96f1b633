// The token endpoint (authorization code with PKCE, refresh with rotation and narrowing) and the
// revocation endpoint (RFC 7009), and how their client authenticates. Knows the OAuth store and
// the signing of access tokens; not pages, sessions or the routing.
#pragma once
#include "http/oauth_forms.hpp"

namespace syndic::http {

// POST /oauth/token and POST /oauth/revoke; both throw oauth::OAuthError for the router to send.
void token_endpoint(const OAuthContext& c, const Request& req, Response& res);
void revoke_endpoint(const OAuthContext& c, const Request& req, Response& res);

}  // namespace syndic::http
