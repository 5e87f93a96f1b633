// The person's side of OAuth: the authorization endpoint (the request checked, the sign-in page,
// the consent page and its decision), sign-in with its throttle, and sign-out. Knows sessions,
// pages and the OAuth store; not tokens or the routing.
#pragma once
#include "http/oauth_forms.hpp"

namespace syndic::http {

// GET /oauth/authorize: the sign-in page, or the consent page for a signed-in person.
void authorize_get(const OAuthContext& c, const Request& req, Response& res);
// POST /oauth/authorize: the sign-in page, or the consent form's decision sent to the application.
void authorize_post(const OAuthContext& c, const Request& req, Response& res);
// POST /oauth/signin: a session, then back to the authorization request.
void sign_in_endpoint(const OAuthContext& c, const Request& req, Response& res);
// GET /oauth/signout shows a button; POST /oauth/signout ends the session.
void sign_out_get(const OAuthContext& c, const Request& req, Response& res);
void sign_out_post(const OAuthContext& c, const Request& req, Response& res);

}  // namespace syndic::http
