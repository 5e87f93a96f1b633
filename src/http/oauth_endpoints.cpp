#include "http/oauth_endpoints.hpp"

#include <nlohmann/json.hpp>

#include <iterator>

#include "auth/access_tokens.hpp"
#include "auth/oauth.hpp"
#include "auth/users.hpp"
#include "http/oauth_authorize.hpp"
#include "http/oauth_forms.hpp"
#include "http/oauth_registration.hpp"
#include "http/oauth_token.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

constexpr const char* as_metadata = "/.well-known/oauth-authorization-server";
constexpr const char* pr_metadata = "/.well-known/oauth-protected-resource";

// RFC 8414: the authorization server's metadata (also served as OpenID configuration).
void authorization_server_metadata(const OAuthSettings& s, Response& res) {
    send_json(res, 200,
              {{"issuer", s.base_url},
               {"authorization_endpoint", s.base_url + "/oauth/authorize"},
               {"token_endpoint", s.base_url + "/oauth/token"},
               {"registration_endpoint", s.base_url + "/oauth/register"},
               {"revocation_endpoint", s.base_url + "/oauth/revoke"},
               {"jwks_uri", s.base_url + "/oauth/jwks.json"},
               {"scopes_supported", s.scopes},
               {"response_types_supported", {"code"}},
               {"response_modes_supported", {"query"}},
               {"grant_types_supported", {"authorization_code", "refresh_token"}},
               {"code_challenge_methods_supported", {"S256"}},
               {"token_endpoint_auth_methods_supported", {"none", "client_secret_basic", "client_secret_post"}},
               {"revocation_endpoint_auth_methods_supported", {"none", "client_secret_basic", "client_secret_post"}},
               {"authorization_response_iss_parameter_supported", true},
               {"ui_locales_supported", {"fr-CA", "en-CA"}}});
}

// RFC 9728 (3.3): the resource is the one the metadata's address was made from. Tokens for
// either are good at both doors, the MCP endpoint and the REST routes.
void protected_resource_metadata(const OAuthSettings& s, Response& res, bool mcp) {
    send_json(res, 200,
              {{"resource", mcp ? s.base_url + "/mcp" : s.base_url},
               {"authorization_servers", {s.base_url}},
               {"scopes_supported", s.scopes},
               {"bearer_methods_supported", {"header"}},
               {"resource_name", "syndic-mcp"}});
}

// The discovery documents, at the root's /.well-known/ (RFC 8414's and RFC 9728's placement
// for an issuer with a path) and below the base path; false for any other path.
bool serve_metadata(const OAuthSettings& s, const Request& req, Response& res, const std::string& full_path) {
    if (req.method != "GET") return false;
    const auto& base_path = s.base.path;
    if (full_path == as_metadata + base_path || full_path == base_path + as_metadata ||
        full_path == "/.well-known/openid-configuration" + base_path) {
        authorization_server_metadata(s, res);
        return true;
    }
    if (full_path == pr_metadata + base_path || full_path == pr_metadata + base_path + "/mcp") {
        protected_resource_metadata(s, res, full_path.size() > 4 && full_path.compare(full_path.size() - 4, 4, "/mcp") == 0);
        return true;
    }
    return false;
}

void jwks_endpoint(const OAuthContext& c, const Request&, Response& res) {
    send_json(res, 200, jwks(c.db, c.clock));
    res.set_header("Cache-Control", "public, max-age=300");
}

void register_endpoint(const OAuthContext& c, const Request& req, Response& res) {
    send_json(res, 201, register_dynamic_client(c.db, c.clock, req, res));
}

// The endpoints below <base>/oauth/: method and path, and the one function that answers.
struct OAuthRoute {
    const char* method;
    const char* path;
    void (*handle)(const OAuthContext&, const Request&, Response&);
};

constexpr OAuthRoute oauth_routes[] = {
    {"GET", "jwks.json", jwks_endpoint},
    {"POST", "register", register_endpoint},
    {"POST", "token", token_endpoint},
    {"POST", "revoke", revoke_endpoint},
    {"GET", "authorize", authorize_get},
    {"POST", "authorize", authorize_post},
    {"POST", "signin", sign_in_endpoint},
    {"GET", "signout", sign_out_get},
    {"POST", "signout", sign_out_post},
};

const OAuthRoute* find_route(const std::string& method, const std::string& path) {
    for (const auto& route : oauth_routes)
        if (method == route.method && path == route.path) return &route;
    return nullptr;
}

}  // namespace

std::string resource_metadata_url(const OAuthSettings& s, bool mcp_endpoint) {
    return s.base.origin() + pr_metadata + s.base.path + (mcp_endpoint ? "/mcp" : "");
}

TokenCaller caller_from_access_token(const OAuthSettings& s, Database& db, const Clock& clock, const std::string& token) {
    const auto check = verify_access_token(db, clock, token, s.base_url, s.base_url);
    if (!check.claims) return {std::nullopt, check.error};
    const auto user = find_user(db, check.claims->subject);
    if (!user || user->disabled_at) return {std::nullopt, "the user's account is disabled"};
    if (user->syndicate_id != check.claims->syndicate_id) return {std::nullopt, "the token's syndicate is not the user's"};
    const auto client = oauth::find_client(db, check.claims->client_id, clock.now());
    if (!client || client->disabled_at) return {std::nullopt, "the application's access is withdrawn"};
    CallerContext caller;
    caller.syndicate_id = user->syndicate_id;
    caller.api_key_id = "user:" + user->id;
    caller.user_id = user->id;
    caller.client_id = client->id;
    caller.scopes = split_scopes(check.claims->scope);
    caller.role = user->role;  // the user's role now, not when the token was made
    return {caller, ""};
}

bool serve_oauth(const OAuthSettings& s, Database& db, const Clock& clock, const Request& req, Response& res,
                 const std::string& full_path) {
    if (serve_metadata(s, req, res, full_path)) return true;
    const std::string oauth_prefix = s.base.path + "/oauth/";
    if (full_path.rfind(oauth_prefix, 0) != 0) return false;
    const auto* route = find_route(req.method, full_path.substr(oauth_prefix.size()));
    if (!route) return false;
    try {
        route->handle(OAuthContext{s, db, clock}, req, res);
    } catch (const oauth::OAuthError& e) {
        send_oauth_error(res, e);
        if (e.status == 401 && req.has_header("Authorization")) res.set_header("WWW-Authenticate", "Basic realm=\"syndic-mcp\"");
    }
    return true;
}

}  // namespace syndic::http
