#include "http/oauth_endpoints.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "auth/access_tokens.hpp"
#include "auth/credentials.hpp"
#include "auth/oauth.hpp"
#include "auth/sign_in_throttle.hpp"
#include "auth/users.hpp"
#include "core/base64url.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "core/json_parse.hpp"
#include "http/oauth_registration.hpp"
#include "http/pages.hpp"
#include "http/rate_limiter.hpp"

namespace syndic::http {

using nlohmann::json;
using Fields = std::vector<std::pair<std::string, std::string>>;

namespace {

constexpr const char* session_cookie = "syndic_session";
constexpr int access_token_minutes = 15;

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') out += ' ';
        else if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
                 hex_value(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
            i += 2;
        } else out += text[i];
    }
    return out;
}

std::string percent_encode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

// application/x-www-form-urlencoded; a repeated name keeps its first value.
std::map<std::string, std::string> parse_form(std::string_view body) {
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start <= body.size()) {
        const auto end = std::min(body.find('&', start), body.size());
        const auto pair = body.substr(start, end - start);
        if (!pair.empty()) {
            const auto eq = pair.find('=');
            out.emplace(percent_decode(pair.substr(0, eq)), eq == std::string_view::npos ? "" : percent_decode(pair.substr(eq + 1)));
        }
        start = end + 1;
    }
    return out;
}

std::map<std::string, std::string> query_of(const Request& req) {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : req.params) out.emplace(k, v);
    return out;
}

std::string get(const std::map<std::string, std::string>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? "" : it->second;
}

std::string cookie(const Request& req, const std::string& name) {
    const auto header = req.get_header_value("Cookie");
    std::size_t start = 0;
    while (start < header.size()) {
        const auto end = std::min(header.find(';', start), header.size());
        auto item = header.substr(start, end - start);
        item.erase(0, item.find_first_not_of(' '));
        if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
        start = end + 1;
    }
    return "";
}

std::vector<std::string> split_scopes(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string s; in >> s;)
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    return out;
}

std::string join_scopes(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
    return out;
}

void send_json(Response& res, int status, const json& body) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("Pragma", "no-cache");
    res.set_content(body.dump(), "application/json");
}

void send_oauth_error(Response& res, const oauth::OAuthError& e) {
    send_json(res, e.status, {{"error", e.error}, {"error_description", e.description}});
}

// `form_target`: where a form of the page may lead besides this server (the consent page's
// answer goes to the application's redirect URI: its origin, or its scheme for a private one).
void send_page(Response& res, int status, const std::string& html, const std::string& form_target = "") {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Frame-Options", "DENY");  // no clickjacking of the consent buttons
    res.set_header("Referrer-Policy", "same-origin");  // so forms carry an Origin the bridge can check
    res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" +
                                                  (form_target.empty() ? std::string() : " " + form_target) +
                                                  "; frame-ancestors 'none'");
    res.set_content(html, "text/html; charset=utf-8");
}

// The CSP source of a redirect URI: "https://app.example.org:8443" or "com.example.app:".
std::string csp_source(const std::string& uri) {
    const auto sep = uri.find("://");
    if (sep == std::string::npos) return uri.substr(0, uri.find(':') + 1);
    const auto end = uri.find_first_of("/?", sep + 3);
    return uri.substr(0, end);
}

void redirect(Response& res, const std::string& location) {
    res.status = 303;
    res.set_header("Location", location);
    res.set_header("Cache-Control", "no-store");
}

std::string with_query(const std::string& uri, const Fields& fields) {
    std::string out = uri + (uri.find('?') == std::string::npos ? "?" : "&");
    bool first = true;
    for (const auto& [k, v] : fields) {
        if (!first) out += '&';
        out += percent_encode(k) + "=" + percent_encode(v);
        first = false;
    }
    return out;
}

// An authorization request checked: the client and redirect URI first (their errors are shown,
// never sent to an unchecked address), then the rest (their errors go back to the client).
struct AuthorizeRequest {
    oauth::Client client;
    std::string redirect_uri, state, code_challenge, resource;
    std::vector<std::string> scopes;
    Fields echo;  // the parameters, as the forms carry them on
};

struct PageError {
    std::string title, message;
};

AuthorizeRequest check_authorize(const OAuthSettings& s, Database& db, const std::map<std::string, std::string>& p,
                                 const std::string& lang) {
    const bool e = lang == "en";
    const auto client = oauth::find_client(db, get(p, "client_id"));
    if (!client || client->disabled_at)
        throw PageError{e ? "Unknown application" : "Application inconnue",
                        e ? "The application that sent you here is not registered with this server (client_id)."
                          : "L'application qui vous a envoyé ici n'est pas inscrite auprès de ce serveur (client_id)."};
    std::string redirect_uri = get(p, "redirect_uri");
    if (redirect_uri.empty() && client->redirect_uris.size() == 1) redirect_uri = client->redirect_uris.front();
    if (std::find(client->redirect_uris.begin(), client->redirect_uris.end(), redirect_uri) == client->redirect_uris.end())
        throw PageError{e ? "Wrong return address" : "Adresse de retour invalide",
                        e ? "The return address (redirect_uri) is not one the application registered."
                          : "L'adresse de retour (redirect_uri) n'est pas une de celles que l'application a inscrites."};
    AuthorizeRequest r;
    r.client = *client;
    r.redirect_uri = redirect_uri;
    r.state = get(p, "state");
    const auto fail = [&](const std::string& error, const std::string& description) {
        Fields f = {{"error", error}, {"error_description", description}};
        if (!r.state.empty()) f.emplace_back("state", r.state);
        f.emplace_back("iss", s.base_url);
        return with_query(r.redirect_uri, f);
    };
    if (get(p, "response_type") != "code") throw fail("unsupported_response_type", "response_type must be code.");
    r.code_challenge = get(p, "code_challenge");
    if (r.code_challenge.size() != 43) throw fail("invalid_request", "PKCE is required: a code_challenge of 43 characters (S256).");
    if (get(p, "code_challenge_method") != "S256") throw fail("invalid_request", "code_challenge_method must be S256.");
    r.resource = get(p, "resource").empty() ? s.base_url : get(p, "resource");
    while (r.resource.size() > 1 && r.resource.back() == '/') r.resource.pop_back();
    const auto mcp = s.base_url + "/mcp";
    if (r.resource == mcp) r.resource = s.base_url;  // the MCP endpoint is part of the API
    if (r.resource != s.base_url) throw fail("invalid_target", "resource must be " + s.base_url + ".");
    r.scopes = split_scopes(get(p, "scope"));
    if (r.scopes.empty()) r.scopes = s.scopes;
    for (const auto& scope : r.scopes)
        if (std::find(s.scopes.begin(), s.scopes.end(), scope) == s.scopes.end())
            throw fail("invalid_scope", "Unknown scope " + scope.substr(0, 100) + ".");
    for (const char* key : {"response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
                            "code_challenge_method", "resource", "lang"})
        if (p.count(key)) r.echo.emplace_back(key, p.at(key));
    return r;
}

SignInThrottle& sign_in_throttle() {
    static SignInThrottle throttle;
    return throttle;
}

std::string syndicate_name(Database& db, const std::string& id) {
    for (const auto& s : list_syndicates(db))
        if (s.id == id) return s.name;
    return id;
}

// ?lang= (carried on by the forms), then the user's language, then Accept-Language.
std::string language_of(const Request& req, const std::optional<User>& user,
                        const std::map<std::string, std::string>& form = {}) {
    const auto asked = form.count("lang") ? form.at("lang") : req.get_param_value("lang");
    if (asked == "fr" || asked == "en") return asked;
    if (user) return user->language;
    return page_language(req.get_header_value("Accept-Language"));
}

std::string session_cookie_header(const OAuthSettings& s, const std::string& value, bool clear) {
    std::string header = std::string(session_cookie) + "=" + value + "; Path=" + (s.base.path.empty() ? "/" : s.base.path) +
                         "; HttpOnly; SameSite=Lax";
    if (s.base.scheme == "https") header += "; Secure";
    if (clear) header += "; Max-Age=0";
    return header;
}

// The client a token or revocation request comes from: HTTP Basic (client_secret_basic), a
// client_secret field (client_secret_post), or a public client_id alone.
oauth::Client requesting_client(Database& db, const Request& req, const std::map<std::string, std::string>& form) {
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
    return oauth::authenticate_client(db, id, secret);
}

// `access_scope`: the access token's, when the client asked for less than the grant (RFC 6749, 6:
// the refresh token keeps the grant's).
json token_answer(const OAuthSettings& s, Database& db, const Clock& clock, const oauth::Grant& grant,
                  const std::string& access_scope = "") {
    const auto user = find_user(db, grant.user_id);
    if (!user || user->disabled_at) throw oauth::OAuthError("invalid_grant", "The user's account is disabled.");
    AccessTokenClaims claims;
    claims.issuer = s.base_url;
    claims.subject = user->id;
    claims.audience = grant.resource;
    claims.scope = access_scope.empty() ? grant.scope : access_scope;
    claims.client_id = grant.client_id;
    claims.syndicate_id = user->syndicate_id;
    claims.role = role_name(user->role);
    const auto access = sign_access_token(db, clock, claims, std::chrono::minutes(access_token_minutes));
    // Its jti, so revoking the grant revokes it (the payload is ours, just signed).
    const auto payload = json::parse(base64url_decode(access.substr(access.find('.') + 1, access.rfind('.') - access.find('.') - 1)).value());
    oauth::record_access_token(db, clock, grant.family_id, payload.at("jti").get<std::string>(),
                               to_utc_iso(Instant{std::chrono::seconds(payload.at("exp").get<std::int64_t>())}));
    const auto refresh = oauth::issue_refresh_token(db, clock, grant);
    return {{"access_token", access},
            {"token_type", "Bearer"},
            {"expires_in", access_token_minutes * 60},
            {"refresh_token", refresh},
            {"scope", claims.scope}};
}


}  // namespace

std::string resource_metadata_url(const OAuthSettings& s, bool mcp_endpoint) {
    return s.base.origin() + "/.well-known/oauth-protected-resource" + s.base.path + (mcp_endpoint ? "/mcp" : "");
}

TokenCaller caller_from_access_token(const OAuthSettings& s, Database& db, const Clock& clock, const std::string& token) {
    const auto check = verify_access_token(db, clock, token, s.base_url, s.base_url);
    if (!check.claims) return {std::nullopt, check.error};
    const auto user = find_user(db, check.claims->subject);
    if (!user || user->disabled_at) return {std::nullopt, "the user's account is disabled"};
    if (user->syndicate_id != check.claims->syndicate_id) return {std::nullopt, "the token's syndicate is not the user's"};
    const auto client = oauth::find_client(db, check.claims->client_id);
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
    const auto& base_path = s.base.path;
    const std::string as_metadata = "/.well-known/oauth-authorization-server";
    const std::string pr_metadata = "/.well-known/oauth-protected-resource";
    const std::string oauth = base_path + "/oauth/";

    if (req.method == "GET" && (full_path == as_metadata + base_path || full_path == base_path + as_metadata ||
                                full_path == "/.well-known/openid-configuration" + base_path)) {
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
        return true;
    }
    if (req.method == "GET" && (full_path == pr_metadata + base_path || full_path == pr_metadata + base_path + "/mcp")) {
        // RFC 9728 (3.3): the resource is the one the metadata's address was made from. Tokens
        // for either are good at both doors, the MCP endpoint and the REST routes.
        const bool mcp = full_path.size() > 4 && full_path.compare(full_path.size() - 4, 4, "/mcp") == 0;
        send_json(res, 200,
                  {{"resource", mcp ? s.base_url + "/mcp" : s.base_url},
                   {"authorization_servers", {s.base_url}},
                   {"scopes_supported", s.scopes},
                   {"bearer_methods_supported", {"header"}},
                   {"resource_name", "syndic-mcp"}});
        return true;
    }
    if (full_path.rfind(oauth, 0) != 0) return false;
    const std::string route = full_path.substr(oauth.size());
    const bool is_form = req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0;

    try {
        if (route == "jwks.json" && req.method == "GET") {
            send_json(res, 200, jwks(db, clock));
            res.set_header("Cache-Control", "public, max-age=300");
            return true;
        }
        if (route == "register" && req.method == "POST") {
            send_json(res, 201, register_dynamic_client(db, clock, req, res));
            return true;
        }
        if (route == "token" && req.method == "POST") {
            if (!is_form) throw oauth::OAuthError("invalid_request", "Send the token request as application/x-www-form-urlencoded.");
            const auto form = parse_form(req.body);
            const auto client = requesting_client(db, req, form);
            const auto grant_type = get(form, "grant_type");
            if (grant_type == "authorization_code") {
                const auto grant = oauth::redeem_code(db, clock, get(form, "code"), client.id, get(form, "redirect_uri"),
                                                      get(form, "code_verifier"));
                if (form.count("resource")) {
                    auto asked = get(form, "resource");
                    while (asked.size() > 1 && asked.back() == '/') asked.pop_back();
                    if (asked != grant.resource && asked != s.base_url + "/mcp")
                        throw oauth::OAuthError("invalid_target", "resource differs from the authorization request's.");
                }
                WriteTransaction tx(db);
                const auto answer = token_answer(s, db, clock, grant);
                tx.commit();
                send_json(res, 200, answer);
            } else if (grant_type == "refresh_token") {
                const auto grant = oauth::rotate_refresh_token(db, clock, get(form, "refresh_token"), client.id);
                std::string access_scope;
                if (form.count("scope")) {  // narrowing only (RFC 6749, 6)
                    const auto had = split_scopes(grant.scope);
                    const auto asked = split_scopes(get(form, "scope"));
                    for (const auto& scope : asked)
                        if (std::find(had.begin(), had.end(), scope) == had.end())
                            throw oauth::OAuthError("invalid_scope", "A refresh cannot add the scope " + scope.substr(0, 100) + ".");
                    access_scope = join_scopes(asked);
                }
                WriteTransaction tx(db);
                const auto answer = token_answer(s, db, clock, grant, access_scope);
                tx.commit();
                send_json(res, 200, answer);
            } else {
                throw oauth::OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
            }
            return true;
        }
        if (route == "revoke" && req.method == "POST") {
            if (!is_form) throw oauth::OAuthError("invalid_request", "Send the revocation request as application/x-www-form-urlencoded.");
            const auto form = parse_form(req.body);
            const auto client = requesting_client(db, req, form);
            const auto token = get(form, "token");
            if (!oauth::revoke_refresh_token(db, clock, token, client.id)) {
                const auto check = verify_access_token(db, clock, token, s.base_url, s.base_url);
                if (check.claims && check.claims->client_id == client.id) revoke_access_token(db, clock, check.claims->jti, check.claims->expires_at);
            }
            send_json(res, 200, json::object());  // RFC 7009: the same answer whatever the token was
            return true;
        }
        if (route == "authorize" && (req.method == "GET" || req.method == "POST")) {
            const auto params = req.method == "GET" ? query_of(req) : parse_form(req.body);
            const auto session = session_user(db, clock, cookie(req, session_cookie));
            std::optional<User> user;
            if (session) user = session->first;
            const auto lang = language_of(req, user, params);
            AuthorizeRequest ar;
            try {
                ar = check_authorize(s, db, params, lang);
            } catch (const PageError& e) {
                send_page(res, 400, error_page(lang, e.title, e.message));
                return true;
            } catch (const std::string& location) {
                // An application that registered itself could use this server to bounce people to
                // any address (RFC 9700, 4.11.2): its errors are shown here, signed in or not; it
                // is sent to its redirect URI only after a person's click on the consent page.
                if (oauth::find_client(db, get(params, "client_id"))->registered_by == "dynamic") {
                    const auto error = get(parse_form(location.substr(location.find('?') + 1)), "error_description");
                    send_page(res, 400, error_page(lang, lang == "en" ? "Invalid request" : "Demande invalide", error));
                    return true;
                }
                redirect(res, location);
                return true;
            }
            if (!session) {
                Fields hidden = ar.echo;
                hidden.emplace_back("return_to", base_path + "/oauth/authorize");
                send_page(res, 200, sign_in_page(lang, base_path + "/oauth/signin", hidden, ar.client.name, "",
                                                 ar.client.registered_by == "dynamic"));
                return true;
            }
            if (req.method == "GET") {
                ConsentRequest consent{ar.client.name, ar.client.registered_by == "dynamic", csp_source(ar.redirect_uri), ar.scopes,
                                       user->name, user->email, syndicate_name(db, user->syndicate_id), user->role == Role::admin};
                send_page(res, 200,
                          consent_page(lang, base_path + "/oauth/authorize", ar.echo, consent, base_path + "/oauth/signout?lang=" + lang,
                                       session->second),
                          csp_source(ar.redirect_uri));
                return true;
            }
            // The decision, from the consent form of this session.
            if (!csrf_token_matches(session->second, get(params, "csrf_token"))) {
                send_page(res, 403, error_page(lang, lang == "en" ? "Expired form" : "Formulaire expiré",
                                               lang == "en" ? "This form is no longer valid; go back to the application and start again."
                                                            : "Ce formulaire n'est plus valide ; retournez à l'application et recommencez."));
                return true;
            }
            Fields answer;
            if (get(params, "decision") == "allow") {
                WriteTransaction tx(db);
                const auto code = oauth::issue_code(db, clock, {ar.client.id, user->id, ar.redirect_uri, ar.code_challenge,
                                                               join_scopes(ar.scopes), ar.resource});
                tx.commit();
                answer.emplace_back("code", code);
            } else {
                answer = {{"error", "access_denied"}, {"error_description", "The user refused."}};
            }
            if (!ar.state.empty()) answer.emplace_back("state", ar.state);
            answer.emplace_back("iss", s.base_url);
            redirect(res, with_query(ar.redirect_uri, answer));
            return true;
        }
        if (route == "signin" && req.method == "POST") {
            const auto form = parse_form(req.body);
            const auto lang = language_of(req, std::nullopt, form);
            const auto email = get(form, "email").substr(0, 254);
            if (const int wait = sign_in_throttle().wait(email, req.remote_addr, clock.now()); wait > 0) {
                res.set_header("Retry-After", std::to_string(wait));
                send_page(res, 429, error_page(lang, lang == "en" ? "Too many attempts" : "Trop de tentatives",
                                               lang == "en" ? "Too many failed sign-ins: wait " + std::to_string((wait + 59) / 60) +
                                                                  " minute(s), then try again."
                                                            : "Trop de connexions échouées : attendez " + std::to_string((wait + 59) / 60) +
                                                                  " minute(s), puis réessayez."));
                return true;
            }
            const auto user = sign_in(db, email, get(form, "password"));
            if (user) sign_in_throttle().succeeded(email, req.remote_addr, clock.now());
            else sign_in_throttle().failed(email, req.remote_addr, clock.now());
            // Back to the authorization request, with its parameters (never anywhere else).
            Fields back;
            for (const char* key : {"response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
                                    "code_challenge_method", "resource", "lang"})
                if (form.count(key)) back.emplace_back(key, form.at(key));
            if (!user) {
                const auto client = oauth::find_client(db, get(form, "client_id"));
                Fields hidden = back;
                hidden.emplace_back("return_to", base_path + "/oauth/authorize");
                send_page(res, 401, sign_in_page(lang, base_path + "/oauth/signin", hidden, client ? client->name : "",
                                                 lang == "en" ? "Wrong e-mail or password." : "Courriel ou mot de passe incorrect.",
                                                 client && client->registered_by == "dynamic"));
                return true;
            }
            WriteTransaction tx(db);
            const auto session = start_session(db, clock, user->id);
            tx.commit();
            res.set_header("Set-Cookie", session_cookie_header(s, session.token, false));
            redirect(res, back.empty() ? base_path + "/oauth/signout" : with_query(base_path + "/oauth/authorize", back));
            return true;
        }
        if (route == "signout" && (req.method == "POST" || req.method == "GET")) {
            const auto token = cookie(req, session_cookie);
            const auto session = session_user(db, clock, token);
            const auto lang = language_of(req, session ? std::optional<User>(session->first) : std::nullopt);
            if (!session) {
                send_page(res, 200, signed_out_page(lang));
                return true;
            }
            if (req.method == "GET") {  // signed in: a button, so no link can sign anyone out
                send_page(res, 200, sign_out_page(lang, base_path + "/oauth/signout", session->first.name, session->first.email,
                                                  session->second));
                return true;
            }
            if (!csrf_token_matches(session->second, get(parse_form(req.body), "csrf_token"))) {
                send_page(res, 403, error_page(lang, lang == "en" ? "Expired form" : "Formulaire expiré",
                                               lang == "en" ? "This form is no longer valid; you are still signed in."
                                                            : "Ce formulaire n'est plus valide ; vous êtes toujours connecté."));
                return true;
            }
            WriteTransaction tx(db);
            end_session(db, clock, token);
            tx.commit();
            res.set_header("Set-Cookie", session_cookie_header(s, "", true));
            send_page(res, 200, signed_out_page(lang));
            return true;
        }
    } catch (const oauth::OAuthError& e) {
        send_oauth_error(res, e);
        if (e.status == 401 && req.has_header("Authorization")) res.set_header("WWW-Authenticate", "Basic realm=\"syndic-mcp\"");
        return true;
    }
    return false;
}

}  // namespace syndic::http
