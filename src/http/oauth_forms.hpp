// What the OAuth endpoints share about HTTP: form and query parameters, cookies, scope lists,
// the answers they send (JSON with no-store, pages with their security headers, 303 redirects),
// the session cookie and the page language. Knows requests and responses; no endpoint's rules.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "auth/users.hpp"
#include "core/clock.hpp"
#include "http/message.hpp"

namespace syndic {
class Database;
}

namespace syndic::oauth {
struct OAuthError;
}

namespace syndic::http {

struct OAuthSettings;

using Fields = std::vector<std::pair<std::string, std::string>>;
using Params = std::map<std::string, std::string>;

// What every endpoint works with.
struct OAuthContext {
    const OAuthSettings& settings;
    Database& db;
    const Clock& clock;
};

inline constexpr const char* session_cookie = "syndic_session";

std::string percent_decode(std::string_view text);
// application/x-www-form-urlencoded; a repeated name keeps its first value.
Params parse_form(std::string_view body);
Params query_of(const Request& req);
std::string get(const Params& m, const std::string& key);  // "" when absent
std::string cookie(const Request& req, const std::string& name);
// Space-separated scopes, each once, in their order.
std::vector<std::string> split_scopes(const std::string& text);
std::string join_scopes(const std::vector<std::string>& scopes);
// `uri` with the fields added to its query, percent-encoded.
std::string with_query(const std::string& uri, const Fields& fields);
// The parameters of an authorization request that its forms carry on, as found in `p`.
Fields authorization_fields(const Params& p);

void send_json(Response& res, int status, const nlohmann::json& body);
void send_oauth_error(Response& res, const oauth::OAuthError& e);
// `form_target`: where a form of the page may lead besides this server (the consent page's
// answer goes to the application's redirect URI: its origin, or its scheme for a private one).
void send_page(Response& res, int status, const std::string& html, const std::string& form_target = "");
// The CSP source of a redirect URI: "https://app.example.org:8443" or "com.example.app:".
std::string csp_source(const std::string& uri);
void redirect(Response& res, const std::string& location);  // 303

// ?lang= (carried on by the forms), then the user's language, then Accept-Language.
std::string language_of(const Request& req, const std::optional<User>& user, const Params& form = {});
std::string session_cookie_header(const OAuthSettings& s, const std::string& value, bool clear);

}  // namespace syndic::http
