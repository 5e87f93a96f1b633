#include "http/oauth_registration.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "auth/oauth.hpp"
#include "core/json_parse.hpp"
#include "core/text.hpp"
#include "http/rate_limiter.hpp"
#include "storage/database.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

// RFC 7591 metadata as this server reads it: every member it uses has its JSON type checked
// before it is read, so a wrong type is invalid_client_metadata (400), never a failure.
struct Metadata {
    std::string name, method;
    std::vector<std::string> redirect_uris;
    std::optional<std::string> client_uri;
};

Metadata read_metadata(std::string_view text) {
    const auto bad = [](const std::string& why) { return oauth::OAuthError("invalid_client_metadata", why); };
    if (text.size() > 16384) throw bad("The registration is larger than 16 KiB.");
    json body;
    try {
        body = parse_json(text, {8, 2000});
    } catch (const JsonParseError& e) {
        throw bad(std::string("The body ") + e.what());
    }
    if (!body.is_object()) throw bad("The body must be a JSON object.");
    for (const char* key : {"client_name", "client_uri", "token_endpoint_auth_method"})
        if (body.contains(key) && !body[key].is_string()) throw bad(std::string(key) + " must be a string.");
    for (const char* key : {"redirect_uris", "grant_types", "response_types"}) {
        if (!body.contains(key)) continue;
        if (!body[key].is_array()) throw bad(std::string(key) + " must be an array of strings.");
        for (const auto& item : body[key])
            if (!item.is_string()) throw bad(std::string(key) + " must be an array of strings.");
    }
    for (const auto& g : body.value("grant_types", json::array({"authorization_code"})))
        if (g != "authorization_code" && g != "refresh_token") throw bad("grant_types may be authorization_code and refresh_token.");
    for (const auto& t : body.value("response_types", json::array({"code"})))
        if (t != "code") throw bad("response_types may only be code.");
    Metadata m;
    if (body.contains("redirect_uris")) m.redirect_uris = body["redirect_uris"].get<std::vector<std::string>>();
    m.name = body.value("client_name", "");
    m.method = body.value("token_endpoint_auth_method", "client_secret_basic");
    if (body.contains("client_uri")) m.client_uri = body["client_uri"].get<std::string>();
    return m;
}

}  // namespace

// Dynamic registration, limited by default: 10 per hour from one client (an IPv4 address, an IPv6
// /64, or the client a trusted proxy names: a bucket of 10 refilled over the hour), and 200 in
// total per 24 hours (counted in the database, so every bridge on it shares the figure), where a
// client that got no authorization code within 15 minutes is forgotten and stops counting;
// beyond either, 429 with Retry-After.
json register_dynamic_client(Database& db, const Clock& clock, const Request& req, Response& res) {
    static RateLimiter per_address(RatePlan{static_cast<double>(oauth::registrations_per_address_per_hour), 3600});
    const double now = std::chrono::duration<double>(clock.now().time_since_epoch()).count();
    if (const auto wait = per_address.take(req.client, now)) {
        res.set_header("Retry-After", std::to_string(*wait));
        throw oauth::OAuthError("temporarily_unavailable",
                                "Too many registrations from this address: at most " +
                                    std::to_string(oauth::registrations_per_address_per_hour) + " per hour.", 429);
    }
    const auto m = read_metadata(req.body);
    WriteTransaction tx(db);
    oauth::forget_unfinished_clients(db, clock.now());
    if (oauth::dynamic_clients_counted(db, clock.now()) >= oauth::registrations_per_day) {
        res.set_header("Retry-After", std::to_string(std::chrono::duration_cast<std::chrono::seconds>(oauth::unfinished_client_lifetime).count()));
        throw oauth::OAuthError("temporarily_unavailable",
                                "This server takes at most " + std::to_string(oauth::registrations_per_day) +
                                    " registrations a day; an administrator can register the application (clients create).", 429);
    }
    const auto made = oauth::register_client(db, clock, m.name, m.redirect_uris, m.method, "dynamic", m.client_uri);
    tx.commit();
    json answer = {{"client_id", made.client.id},
                   {"client_id_issued_at", std::chrono::duration_cast<std::chrono::seconds>(clock.now().time_since_epoch()).count()},
                   {"client_name", made.client.name},
                   {"redirect_uris", made.client.redirect_uris},
                   {"token_endpoint_auth_method", made.client.auth_method},
                   {"grant_types", {"authorization_code", "refresh_token"}},
                   {"response_types", {"code"}}};
    if (made.secret) {
        answer["client_secret"] = *made.secret;
        answer["client_secret_expires_at"] = 0;
    }
    if (made.client.client_uri) answer["client_uri"] = *made.client.client_uri;
    return answer;
}

}  // namespace syndic::http
