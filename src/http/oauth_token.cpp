#include "http/oauth_token.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "auth/access_tokens.hpp"
#include "auth/credentials.hpp"
#include "auth/oauth.hpp"
#include "core/base64url.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "http/oauth_endpoints.hpp"
#include "storage/database.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

constexpr int access_token_minutes = 15;

bool is_form(const Request& req) {
    return req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0;
}

// The client a token or revocation request comes from: HTTP Basic (client_secret_basic), a
// client_secret field (client_secret_post), or a public client_id alone.
oauth::Client requesting_client(Database& db, Instant now, const Request& req, const Params& form) {
    std::string id = get(form, "client_id");
    std::optional<std::string> secret;
    const auto auth = req.get_header_value("Authorization");
    if (auth.size() > 6 && (auth.rfind("Basic ", 0) == 0 || auth.rfind("basic ", 0) == 0)) {
        const std::string decoded = base64_decode(trim(std::string_view(auth).substr(6))).value_or("");
        const auto colon = decoded.find(':');
        if (colon == std::string::npos) throw oauth::OAuthError("invalid_client", "Malformed Basic credentials.", 401);
        id = percent_decode(decoded.substr(0, colon));
        secret = percent_decode(decoded.substr(colon + 1));
    } else if (form.count("client_secret")) {
        secret = get(form, "client_secret");
    }
    return oauth::authenticate_client(db, id, secret, now);
}

// `access_scope`: the access token's, when the client asked for less than the grant (RFC 6749, 6:
// the refresh token keeps the grant's).
json token_answer(const OAuthContext& c, const oauth::Grant& grant, const std::string& access_scope = "") {
    const auto user = find_user(c.db, grant.user_id);
    if (!user || user->disabled_at) throw oauth::OAuthError("invalid_grant", "The user's account is disabled.");
    AccessTokenClaims claims;
    claims.issuer = c.settings.base_url;
    claims.subject = user->id;
    claims.audience = grant.resource;
    claims.scope = access_scope.empty() ? grant.scope : access_scope;
    claims.client_id = grant.client_id;
    claims.syndicate_id = user->syndicate_id;
    claims.role = role_name(user->role);
    const auto access = sign_access_token(c.db, c.clock, claims, std::chrono::minutes(access_token_minutes));
    // Its jti, so revoking the grant revokes it (the payload is ours, just signed).
    const auto payload = json::parse(base64url_decode(access.substr(access.find('.') + 1, access.rfind('.') - access.find('.') - 1)).value());
    oauth::record_access_token(c.db, c.clock, grant.family_id, payload.at("jti").get<std::string>(),
                               to_utc_iso(Instant{std::chrono::seconds(payload.at("exp").get<std::int64_t>())}));
    const auto refresh = oauth::issue_refresh_token(c.db, c.clock, grant);
    return {{"access_token", access},
            {"token_type", "Bearer"},
            {"expires_in", access_token_minutes * 60},
            {"refresh_token", refresh},
            {"scope", claims.scope}};
}

// Signs and records the tokens of `grant` in one transaction, and sends them.
void send_tokens(const OAuthContext& c, Response& res, const oauth::Grant& grant, const std::string& access_scope = "") {
    WriteTransaction tx(c.db);
    const auto answer = token_answer(c, grant, access_scope);
    tx.commit();
    send_json(res, 200, answer);
}

// The code is redeemed once, by its client, with the verifier of its challenge; a resource named
// again must be the one authorized (or its MCP endpoint).
void authorization_code_grant(const OAuthContext& c, const Params& form, const oauth::Client& client, Response& res) {
    const auto grant = oauth::redeem_code(c.db, c.clock, get(form, "code"), client.id, get(form, "redirect_uri"),
                                          get(form, "code_verifier"));
    if (form.count("resource")) {
        auto asked = get(form, "resource");
        while (asked.size() > 1 && asked.back() == '/') asked.pop_back();
        if (asked != grant.resource && asked != c.settings.base_url + "/mcp")
            throw oauth::OAuthError("invalid_target", "resource differs from the authorization request's.");
    }
    send_tokens(c, res, grant);
}

// The refresh token rotates; a scope asked for may only narrow the grant's (RFC 6749, 6).
void refresh_token_grant(const OAuthContext& c, const Params& form, const oauth::Client& client, Response& res) {
    const auto grant = oauth::rotate_refresh_token(c.db, c.clock, get(form, "refresh_token"), client.id);
    std::string access_scope;
    if (form.count("scope")) {
        const auto had = split_scopes(grant.scope);
        const auto asked = split_scopes(get(form, "scope"));
        for (const auto& scope : asked)
            if (std::find(had.begin(), had.end(), scope) == had.end())
                throw oauth::OAuthError("invalid_scope", "A refresh cannot add the scope " + scope.substr(0, 100) + ".");
        access_scope = join_scopes(asked);
    }
    send_tokens(c, res, grant, access_scope);
}

}  // namespace

void token_endpoint(const OAuthContext& c, const Request& req, Response& res) {
    if (!is_form(req)) throw oauth::OAuthError("invalid_request", "Send the token request as application/x-www-form-urlencoded.");
    const auto form = parse_form(req.body);
    const auto client = requesting_client(c.db, c.clock.now(), req, form);
    const auto grant_type = get(form, "grant_type");
    if (grant_type == "authorization_code") authorization_code_grant(c, form, client, res);
    else if (grant_type == "refresh_token") refresh_token_grant(c, form, client, res);
    else throw oauth::OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
}

void revoke_endpoint(const OAuthContext& c, const Request& req, Response& res) {
    if (!is_form(req)) throw oauth::OAuthError("invalid_request", "Send the revocation request as application/x-www-form-urlencoded.");
    const auto form = parse_form(req.body);
    const auto client = requesting_client(c.db, c.clock.now(), req, form);
    const auto token = get(form, "token");
    if (!oauth::revoke_refresh_token(c.db, c.clock, token, client.id)) {
        const auto check = verify_access_token(c.db, c.clock, token, c.settings.base_url, c.settings.base_url);
        if (check.claims && check.claims->client_id == client.id)
            revoke_access_token(c.db, c.clock, check.claims->jti, check.claims->expires_at);
    }
    send_json(res, 200, json::object());  // RFC 7009: the same answer whatever the token was
}

}  // namespace syndic::http
