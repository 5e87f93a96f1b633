// The bridge's router: checks Host and Origin, sends the authorization server's routes to it,
// authenticates the Bearer credential and spends the plan's budget, answers CORS preflights, and
// hands the request to the MCP endpoint, the OpenAPI document, the download route or the REST
// routes. Every refusal on the way is written here, as a JSON-RPC error on /mcp or a REST body.
#include <SQLiteCpp/Exception.h>
#include <sqlite3.h>

#include "auth/credentials.hpp"
#include "core/json_parse.hpp"
#include "core/text.hpp"
#include "http/bridge_impl.hpp"
#include "mcp/refusals.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

constexpr const char* realm = "Bearer realm=\"syndic-mcp\"";
constexpr const char* cors_allowed_headers = "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID";
constexpr const char* cors_exposed_headers = "WWW-Authenticate, Retry-After, MCP-Protocol-Version, Mcp-Session-Id, Location";

std::string dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// The id to echo in a JSON-RPC error about a message as a whole: its own, when it is one request.
json message_id(const json& message) {
    if (message.is_object() && message.contains("id") && (message["id"].is_string() || message["id"].is_number_integer()))
        return message["id"];
    return nullptr;
}

}  // namespace

std::string media_type(const std::string& header) {
    return ascii_lower(trim(std::string_view(header).substr(0, header.find(';'))));
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

std::string printable(std::string_view text, std::size_t limit) {
    std::string out;
    for (unsigned char c : text.substr(0, limit)) {
        if (c < 0x20 || c == 0x7f) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string HttpBridge::Impl::challenge(bool mcp_endpoint, const std::string& error) const {
    return std::string(realm) + ", resource_metadata=\"" + resource_metadata_url(oauth_settings, mcp_endpoint) + "\"" +
           (error.empty() ? "" : ", " + error);
}

std::string HttpBridge::Impl::scope_challenge(const std::vector<const DomainError*>& refusals) {
    std::vector<std::string> scopes;
    for (const auto* error : refusals)
        for (const auto& [key, value] : error->figures())
            if (key == "requiredScope" && std::holds_alternative<std::string>(value) &&
                std::find(scopes.begin(), scopes.end(), std::get<std::string>(value)) == scopes.end())
                scopes.push_back(std::get<std::string>(value));
    if (scopes.empty()) return "";
    std::string list;
    for (const auto& scope : scopes) list += (list.empty() ? "" : " ") + scope;
    return "error=\"insufficient_scope\", scope=\"" + list + "\"";
}

// The caller a Bearer credential stands for; nullopt without one. A credential that is there but
// not valid is refused outright, so a client knows to renew it.
std::optional<CallerContext> HttpBridge::Impl::authenticate(const Request& req, Response& res, Worker& w) {
    if (!req.has_header("Authorization")) return std::nullopt;
    const auto header = req.get_header_value("Authorization");
    const auto space = header.find(' ');
    const auto invalid = [](const std::string& detail) {
        return Refusal{DomainError(codes::not_authenticated, detail), {{"WWW-Authenticate", "error=\"invalid_token\""}}};
    };
    if (space == std::string::npos || ascii_lower(header.substr(0, space)) != "bearer")
        throw invalid("The Authorization header must be Bearer <API key or access token>.");
    const auto secret = trim(std::string_view(header).substr(space + 1));
    if (secret.rfind("sk_", 0) == 0) {
        auto caller = syndic::authenticate(*w.db, secret);
        if (!caller) throw invalid("The API key is unknown or revoked.");
        res.key_id = caller->api_key_id;
        return caller;
    }
    auto token = caller_from_access_token(oauth_settings, *w.db, clock, secret);
    if (!token.caller) throw invalid("The access token is not valid: " + token.error + ".");
    res.key_id = token.caller->api_key_id;
    return token.caller;
}

void HttpBridge::Impl::spend(const std::optional<CallerContext>& caller, const Request& req) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch).count();
    const auto wait = limiter.take(caller ? "key " + caller->api_key_id : "address " + req.client, now);
    if (!wait) return;
    throw Refusal{DomainError(codes::rate_limited, "The plan allows " + limiter.plan().describe() +
                                                       " requests; retry in " + std::to_string(*wait) + " s.")
                      .with("retryAfterSeconds", static_cast<std::int64_t>(*wait)),
                  {{"Retry-After", std::to_string(*wait)}}};
}

void HttpBridge::Impl::allow_cors(const Request& req, Response& res) {
    if (!req.has_header("Origin")) return;
    res.set_header("Access-Control-Allow-Origin", req.get_header_value("Origin"));
    res.set_header("Vary", "Origin");
    res.set_header("Access-Control-Expose-Headers", cors_exposed_headers);
}

void HttpBridge::Impl::preflight(const std::string& path, bool is_mcp, Response& res) const {
    std::vector<std::string> methods;
    if (is_mcp) methods = {"POST"};
    else if (path == "/openapi.json") methods = {"GET"};
    else methods = routes.find("OPTIONS", path).allowed;
    if (methods.empty()) throw Refusal{DomainError(codes::route_not_found, "No route " + printable(path, 200) + ".")};
    methods.push_back("OPTIONS");
    res.status = 204;
    res.set_header("Allow", joined(methods));
    res.set_header("Access-Control-Allow-Methods", joined(methods));
    res.set_header("Access-Control-Allow-Headers", cors_allowed_headers);
    res.set_header("Access-Control-Max-Age", "600");
}

void HttpBridge::Impl::refuse(const Request& req, Response& res, bool is_mcp, json& message, const Refusal& r) const {
    std::string challenge_error;  // what WWW-Authenticate adds to the realm and the metadata
    for (const auto& [name, value] : r.headers) {
        if (name == "WWW-Authenticate") challenge_error = value;
        else res.set_header(name, value);
    }
    if (const auto scope = scope_challenge({&r.error}); !scope.empty()) challenge_error = scope;
    if (credential_refusal(r.error)) res.set_header("WWW-Authenticate", challenge(is_mcp, challenge_error));
    res.status = http_status(r.error.code());
    if (!is_mcp) return res.set_content(dump(rest_error_body(r.error)), "application/json");
    // Refused before the message was read (credentials, budget): echo its id if it has one, read
    // by the same bounded parse as the message itself (a short body only: a refused client gets
    // no large parse for free).
    if (message.is_null() && r.jsonrpc_code != jsonrpc::parse_error && req.body.size() < 65536) {
        try {
            message = parse_json(req.body, {jsonrpc::Dispatcher::max_depth, jsonrpc::Dispatcher::max_values});
        } catch (const JsonParseError&) {  // no id to echo
        }
    }
    res.set_content(dump(jsonrpc::Dispatcher::error_response(message_id(message), jsonrpc_error(r.error, r.jsonrpc_code))),
                    "application/json");
}

void HttpBridge::Impl::handle(const Request& req, Response& res) {
    // Every answer, whatever route or refusal made it (issue 28, point 8): never sniffed as another
    // type (a document's bytes, a JSON answer), and not stored by a cache unless the route says how
    // (the metadata documents' public max-age); a syndicate's registers are not for shared caches.
    struct FinalHeaders {
        Response& res;
        ~FinalHeaders() {
            res.set_header("X-Content-Type-Options", "nosniff");
            if (!res.has_header("Cache-Control")) res.set_header("Cache-Control", "no-store");
        }
    } final_headers{res};
    const auto& base_path = base.path;
    const bool under_base = req.path.rfind(base_path + "/", 0) == 0;
    const std::string path = under_base ? req.path.substr(base_path.size()) : req.path;
    const bool is_mcp = under_base && path == "/mcp";
    const std::string method = req.method == "HEAD" ? "GET" : req.method;  // the library drops HEAD's body
    json message;  // the JSON-RPC message, once parsed
    const auto internal = [](const char* code, const char* detail, Headers headers = {}) {
        return Refusal{DomainError(code, detail), std::move(headers), jsonrpc::internal_error};
    };
    try {
        if (!policy->host_allowed(req.get_header_value("Host")))
            throw Refusal{DomainError(codes::host_not_allowed,
                                      "The Host header names a host this server does not answer for (see --allow-host).")};
        if (req.has_header("Origin") && !policy->origin_allowed(req.get_header_value("Origin")))
            throw Refusal{DomainError(codes::origin_not_allowed,
                                      "Requests from the origin " + printable(req.get_header_value("Origin"), 200) +
                                          " are not allowed (see --allow-origin).")};
        allow_cors(req, res);
        // The authorization server's routes have their own credentials (a client's, a session
        // cookie): they count against the client address's budget.
        if (req.path.rfind("/.well-known/", 0) == 0 || req.path.rfind(base_path + "/.well-known/", 0) == 0 ||
            req.path.rfind(base_path + "/oauth/", 0) == 0) {
            spend(std::nullopt, req);
            if (serve_oauth(oauth_settings, *worker().db, clock, req, res, req.path)) return;
            throw Refusal{DomainError(codes::route_not_found, "No route " + printable(req.path, 200) + ".")};
        }

        // Credentials first, so every request counts against a budget: the key's, or the
        // client address's when there is none (or a wrong one).
        auto& w = worker();
        std::optional<CallerContext> caller;
        try {
            caller = authenticate(req, res, w);
            if (caller) caller->remote_base = oauth_settings.base_url;  // remote: download addresses, not paths
        } catch (const Refusal&) {
            spend(std::nullopt, req);
            throw;
        }
        spend(caller, req);

        if (!under_base)
            throw Refusal{DomainError(codes::route_not_found, "Nothing is served here; the API is under " + base.path + "/.")};
        if (method == "OPTIONS") return preflight(path, is_mcp, res);  // a CORS preflight
        if (is_mcp) return handle_mcp(req, res, message, caller);
        if (path == "/openapi.json") {
            if (method != "GET")
                throw Refusal{DomainError(codes::method_not_allowed, "The OpenAPI document answers GET only."),
                              {{"Allow", "GET, OPTIONS"}}};
            return res.set_content(openapi_text, "application/json");
        }
        if (serve_download(req, res, path, caller, *w.db)) return;
        handle_rest(req, res, path, caller);
    } catch (const Refusal& r) {
        refuse(req, res, is_mcp, message, r);
    } catch (const SQLite::Exception& e) {
        const bool busy = e.getErrorCode() == SQLITE_BUSY || e.getErrorCode() == SQLITE_LOCKED;
        spdlog::error("{} {} failed in the database: {}", printable(req.method, 20), printable(req.path), e.what());
        if (auto storage = database_refusal(e, nullptr); storage && !busy) return refuse(req, res, is_mcp, message, Refusal{*storage});
        refuse(req, res, is_mcp, message,
               busy ? internal(codes::server_busy, "The database is busy; retry shortly.", {{"Retry-After", "1"}})
                    : internal(codes::internal_error, "The server failed unexpectedly; the details are in its log."));
    } catch (const DomainError& e) {  // a worker's connection that could not open (Database::open)
        refuse(req, res, is_mcp, message, Refusal{e});
    } catch (const std::exception& e) {
        spdlog::error("{} {} failed: {}", printable(req.method, 20), printable(req.path), e.what());
        refuse(req, res, is_mcp, message, internal(codes::internal_error, "The server failed unexpectedly; the details are in its log."));
    }
}

void HttpBridge::Impl::refusal(const Request& req, Response& res, int status, const std::string& code,
                               const std::string& detail) const {
    res.status = status;
    if (status == 503) res.set_header("Retry-After", "1");
    const DomainError error(code, detail);
    const bool mcp = req.path == base.path + "/mcp";
    res.set_content(dump(mcp ? jsonrpc::Dispatcher::error_response(nullptr, jsonrpc_error(error)) : rest_error_body(error)),
                    "application/json");
}

}  // namespace syndic::http
