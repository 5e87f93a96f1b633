#include "http/bridge.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <SQLiteCpp/Exception.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "auth/credentials.hpp"
#include "core/error.hpp"
#include "core/json_parse.hpp"
#include "core/text.hpp"
#include "http/access_policy.hpp"
#include "http/oauth_endpoints.hpp"
#include "http/openapi.hpp"
#include "http/rest_routes.hpp"
#include "http/document_download.hpp"
#include "http/server.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"
#include "tools/wire_error.hpp"

namespace syndic::http {

using nlohmann::json;
using Headers = std::vector<std::pair<std::string, std::string>>;

namespace {

constexpr const char* realm = "Bearer realm=\"syndic-mcp\"";
constexpr const char* cors_allowed_headers = "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID";
constexpr const char* cors_exposed_headers = "WWW-Authenticate, Retry-After, MCP-Protocol-Version, Mcp-Session-Id, Location";

// A refusal before or around a call: the domain error, the HTTP headers it needs (Allow,
// WWW-Authenticate, Retry-After) and, for JSON-RPC, its code.
struct Refusal {
    DomainError error;
    Headers headers = {};
    int jsonrpc_code = domain_error_code;
};

std::string media_type(const std::string& header) {
    return ascii_lower(trim(std::string_view(header).substr(0, header.find(';'))));
}

bool accepts_json(const std::string& accept) {
    if (trim(accept).empty()) return true;
    std::size_t start = 0;
    while (start <= accept.size()) {
        const auto end = std::min(accept.find(',', start), accept.size());
        const auto type = media_type(accept.substr(start, end - start));
        if (type == "application/json" || type == "application/*" || type == "*/*") return true;
        start = end + 1;
    }
    return false;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

json rest_error_body(const DomainError& e) {
    json error = {{"code", e.code()}, {"message", e.detail()}};
    const json data = error_data(e);
    for (const auto& [key, value] : data.items())
        if (key != "detail") error[key] = value;
    return {{"error", std::move(error)}};
}

std::string dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// The id to echo in a JSON-RPC error about a message as a whole: its own, when it is one request.
json message_id(const json& message) {
    if (message.is_object() && message.contains("id") && (message["id"].is_string() || message["id"].is_number_integer()))
        return message["id"];
    return nullptr;
}

bool calls_a_tool(const json& message) {
    const auto is_call = [](const json& m) {
        return m.is_object() && m.contains("id") && m.contains("method") && m["method"] == "tools/call";
    };
    if (message.is_array()) return std::any_of(message.begin(), message.end(), is_call);
    return is_call(message);
}

// The download route of generated documents (document_download.hpp): true when it answered.
bool serve_download(const Request& req, Response& res, const std::string& path,
                    const std::optional<CallerContext>& caller, Database& db) {
    try {
        auto answer = document_download(req.method, path, caller, db);
        if (!answer) return false;
        res.set_header("Content-Disposition", answer->content_disposition);
        res.set_content(std::move(answer->body), answer->content_type);
        return true;
    } catch (const DomainError& e) {
        throw Refusal{e};
    }
}

// Text for a log line: control characters (a decoded %0A in a path) shown as \xHH, so no request
// can forge a line; cut at `limit` bytes.
std::string printable(std::string_view text, std::size_t limit = 300) {
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

}  // namespace

struct HttpBridge::Impl {
    struct Worker {
        std::unique_ptr<Database> db;
        std::optional<CallerContext> caller;  // of the request being served
        std::unique_ptr<McpServer> mcp;
        jsonrpc::Dispatcher dispatcher;
    };

    Impl(const ToolRegistry& registry, const Clock& clock, BridgeOptions options)
        : registry(registry), clock(clock), options(std::move(options)), routes(registry), limiter(this->options.rate) {}

    const ToolRegistry& registry;
    const Clock& clock;
    BridgeOptions options;
    RestRoutes routes;
    RateLimiter limiter;
    Url base;
    std::optional<AccessPolicy> policy;
    std::string openapi_text;  // the document, made once for the base URL
    OAuthSettings oauth_settings;
    std::optional<HttpServer> server;
    std::shared_ptr<spdlog::logger> access_log;
    const std::chrono::steady_clock::time_point epoch = std::chrono::steady_clock::now();

    std::mutex workers_mutex;
    std::map<std::thread::id, std::unique_ptr<Worker>> workers;

    Worker& worker();
    void configure();
    void handle(const Request& req, Response& res);
    void handle_mcp(const Request& req, Response& res, json& message, const std::optional<CallerContext>& caller);
    void handle_rest(const Request& req, Response& res, const std::string& path,
                     const std::optional<CallerContext>& caller);
    // The body of an answer the server refused before a handler saw the request.
    void refusal(const Request& req, Response& res, int status, const std::string& code, const std::string& detail) const;
    std::optional<CallerContext> authenticate(const Request& req, Response& res, Worker& w);
    void spend(const std::optional<CallerContext>& caller, const Request& req);
    void allow_cors(const Request& req, Response& res);
    // Bearer realm="syndic-mcp", resource_metadata="..." and the error part, if any (RFC 9728, 5.1).
    std::string challenge(bool mcp_endpoint, const std::string& error) const {
        return std::string(realm) + ", resource_metadata=\"" + resource_metadata_url(oauth_settings, mcp_endpoint) + "\"" +
               (error.empty() ? "" : ", " + error);
    }
};

HttpBridge::Impl::Worker& HttpBridge::Impl::worker() {
    const auto thread = std::this_thread::get_id();
    {
        std::lock_guard lock(workers_mutex);
        if (const auto it = workers.find(thread); it != workers.end()) return *it->second;
    }
    // Built whole before it is kept: a failed open leaves nothing half-made behind.
    auto w = std::make_unique<Worker>();
    w->db = Database::open(options.db_path);
    McpOptions mcp_options;
    mcp_options.tools_page_size = options.tools_page_size;
    mcp_options.caller = [self = w.get()] {
        if (!self->caller) throw DomainError(codes::not_authenticated, "No credentials: send Authorization: Bearer <API key>.");
        return *self->caller;
    };
    w->mcp = std::make_unique<McpServer>(
        registry, [self = w.get()]() -> Database& { return *self->db; }, clock, std::move(mcp_options),
        [](const std::string&) {});  // progress needs a stream; JSON answers carry none
    w->mcp->attach(w->dispatcher);
    std::lock_guard lock(workers_mutex);
    return *(workers[thread] = std::move(w));
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
    const auto wait = limiter.take(caller ? "key " + caller->api_key_id : "address " + req.remote_addr, now);
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

void HttpBridge::Impl::handle(const Request& req, Response& res) {
    const auto& base_path = base.path;
    const bool under_base = req.path.rfind(base_path + "/", 0) == 0;
    const std::string path = under_base ? req.path.substr(base_path.size()) : req.path;
    const bool is_mcp = under_base && path == "/mcp";
    const std::string method = req.method == "HEAD" ? "GET" : req.method;  // the library drops HEAD's body
    json message;  // the JSON-RPC message, once parsed
    const auto refuse = [&](const Refusal& r) {
        std::string challenge_error;  // what WWW-Authenticate adds to the realm and the metadata
        for (const auto& [name, value] : r.headers) {
            if (name == "WWW-Authenticate") challenge_error = value;
            else res.set_header(name, value);
        }
        if (r.error.code() == codes::insufficient_scope)
            for (const auto& [key, value] : r.error.figures())
                if (key == "requiredScope")
                    challenge_error = "error=\"insufficient_scope\", scope=\"" + std::get<std::string>(value) + "\"";
        if (r.error.code() == codes::not_authenticated || r.error.code() == codes::insufficient_scope)
            res.set_header("WWW-Authenticate", challenge(is_mcp, challenge_error));
        res.status = http_status(r.error.code());
        if (is_mcp) {
            // Refused before the message was read (credentials, budget): echo its id if it has one.
            if (message.is_null() && r.jsonrpc_code != jsonrpc::parse_error && req.body.size() < 65536 &&
                json_nesting_depth(req.body, jsonrpc::Dispatcher::max_depth) <= jsonrpc::Dispatcher::max_depth)
                message = json::parse(req.body, nullptr, false);
            const std::string text = r.jsonrpc_code == jsonrpc::parse_error ? "Parse error" : r.error.code();
            res.set_content(dump(jsonrpc::Dispatcher::error_response(message_id(message), r.jsonrpc_code, text, error_data(r.error))),
                            "application/json");
        } else {
            res.set_content(dump(rest_error_body(r.error)), "application/json");
        }
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
        if (method == "OPTIONS") {  // a CORS preflight
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
            return;
        }
        if (is_mcp) return handle_mcp(req, res, message, caller);
        if (path == "/openapi.json") {
            if (method != "GET")
                throw Refusal{DomainError(codes::method_not_allowed, "The OpenAPI document answers GET only."),
                              {{"Allow", "GET, OPTIONS"}}};
            res.set_content(openapi_text, "application/json");
            return;
        }
        if (serve_download(req, res, path, caller, *w.db)) return;
        handle_rest(req, res, path, caller);
    } catch (const Refusal& r) {
        refuse(r);
    } catch (const SQLite::Exception& e) {
        const bool busy = e.getErrorCode() == SQLITE_BUSY || e.getErrorCode() == SQLITE_LOCKED;
        spdlog::error("{} {} failed in the database: {}", printable(req.method, 20), printable(req.path), e.what());
        if (auto storage = database_refusal(e, nullptr); storage && !busy) return refuse(Refusal{*storage});
        refuse(busy ? Refusal{DomainError(codes::server_busy, "The database is busy; retry shortly."), {{"Retry-After", "1"}},
                              jsonrpc::internal_error}
                    : Refusal{DomainError(codes::internal_error, "The server failed unexpectedly; the details are in its log."),
                              {}, jsonrpc::internal_error});
    } catch (const DomainError& e) {  // a worker's connection that could not open (Database::open)
        refuse(Refusal{e});
    } catch (const std::exception& e) {
        spdlog::error("{} {} failed: {}", printable(req.method, 20), printable(req.path), e.what());
        refuse(Refusal{DomainError(codes::internal_error, "The server failed unexpectedly; the details are in its log."), {},
                       jsonrpc::internal_error});
    }
}

void HttpBridge::Impl::refusal(const Request& req, Response& res, int status, const std::string& code,
                               const std::string& detail) const {
    res.status = status;
    if (status == 503) res.set_header("Retry-After", "1");
    const DomainError error(code, detail);
    const bool mcp = req.path == base.path + "/mcp";
    res.set_content(dump(mcp ? jsonrpc::Dispatcher::error_response(nullptr, domain_error_code, error.code(), error_data(error))
                             : rest_error_body(error)),
                    "application/json");
}

void HttpBridge::Impl::handle_mcp(const Request& req, Response& res, json& message,
                                  const std::optional<CallerContext>& caller) {
    if (req.method != "POST")  // HEAD included
        throw Refusal{DomainError(codes::method_not_allowed,
                                  "The MCP endpoint takes POST only; this server offers no event stream."),
                      {{"Allow", "POST, OPTIONS"}}};
    if (!accepts_json(req.get_header_value("Accept")))
        throw Refusal{DomainError(codes::not_acceptable, "This server answers application/json; the Accept header excludes it.")};
    if (media_type(req.get_header_value("Content-Type")) != "application/json")
        throw Refusal{DomainError(codes::unsupported_media_type, "Send the JSON-RPC message with Content-Type: application/json.")};
    if (req.has_header("MCP-Protocol-Version") && !supported_protocol_version(req.get_header_value("MCP-Protocol-Version")))
        throw Refusal{DomainError("UNSUPPORTED_PROTOCOL_VERSION",
                                  "MCP-Protocol-Version " + req.get_header_value("MCP-Protocol-Version").substr(0, 40) +
                                      " is not supported (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 are).")};
    try {
        message = parse_json(req.body, {jsonrpc::Dispatcher::max_depth, jsonrpc::Dispatcher::max_values});
    } catch (const JsonParseError& e) {  // syntax, a key twice in one object, beyond the limits
        auto error = DomainError(codes::invalid_json, (e.kind == JsonParseError::Kind::syntax ? "The body " : "The message ") + std::string(e.what()));
        if (e.kind == JsonParseError::Kind::too_many_values) error.with("limitValues", static_cast<std::int64_t>(jsonrpc::Dispatcher::max_values));
        throw Refusal{error, {}, jsonrpc::parse_error};
    }

    if (!caller && calls_a_tool(message))
        throw Refusal{DomainError(codes::not_authenticated, "No credentials: send Authorization: Bearer <API key>.")};
    auto& w = worker();
    w.caller = caller;
    struct Forget {
        Worker& w;
        ~Forget() { w.caller.reset(); }
    } forget{w};
    const auto answer = w.dispatcher.handle_parsed(message);
    if (!answer) {
        res.status = 202;  // notifications and responses only
        return;
    }
    res.status = 200;
    if (answer->rfind("{\"error\":", 0) == 0) {  // one message answered with an error (keys are sorted)
        const json parsed = json::parse(*answer);
        const auto& error = parsed["error"];
        const std::string code = error.value("message", "");
        if (code == codes::not_authenticated) {
            res.status = 401;
            res.set_header("WWW-Authenticate", challenge(true, ""));
        } else if (code == codes::insufficient_scope) {
            res.status = 403;
            const std::string scope = error.contains("data") ? error["data"].value("requiredScope", "") : "";
            res.set_header("WWW-Authenticate", challenge(true, "error=\"insufficient_scope\", scope=\"" + scope + "\""));
        }
    }
    res.set_content(*answer, "application/json");
}

void HttpBridge::Impl::handle_rest(const Request& req, Response& res, const std::string& path,
                                   const std::optional<CallerContext>& caller) {
    const auto lookup = routes.find(req.method == "HEAD" ? "GET" : req.method, path);
    if (!lookup.match) {
        if (lookup.allowed.empty()) throw Refusal{DomainError(codes::route_not_found, "No route " + printable(path, 200) + ".")};
        auto allowed = lookup.allowed;
        allowed.push_back("OPTIONS");
        throw Refusal{DomainError(codes::method_not_allowed, printable(path, 200) + " answers " + joined(lookup.allowed) + " only."),
                      {{"Allow", joined(allowed)}}};
    }
    const auto& tool = *lookup.match->tool;
    if (!caller) throw Refusal{DomainError(codes::not_authenticated, "No credentials: send Authorization: Bearer <API key>.")};
    auto& w = worker();

    const bool takes_body = tool.http.method != "GET" && tool.http.method != "DELETE";
    const bool has_body = req.body.find_first_not_of(" \t\r\n") != std::string::npos;
    if (takes_body && (has_body || req.has_header("Content-Type")) && media_type(req.get_header_value("Content-Type")) != "application/json")
        throw Refusal{DomainError(codes::unsupported_media_type, "Send the body as JSON with Content-Type: application/json.")};
    Pairs query(req.params.begin(), req.params.end());
    try {
        const json args = routes.arguments(*lookup.match, query, req.body);
        std::string result = registry.call_text(tool.name, args, *caller, *w.db, clock);
        res.status = tool.http.success_status;
        res.set_content(std::move(result), "application/json");
    } catch (const DomainError& e) {
        throw Refusal{e};
    }
}

void HttpBridge::Impl::configure() {
    auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    access_log = std::make_shared<spdlog::logger>("access", sink);
    access_log->set_formatter(
        std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%eZ access %v", spdlog::pattern_time_type::utc));
    access_log->flush_on(spdlog::level::info);

    ServerLimits limits;
    limits.max_body_bytes = options.max_body_bytes;
    limits.max_connections = std::max<std::size_t>(1, options.max_connections);
    server.emplace(
        limits, std::max<std::size_t>(1, options.workers), [this](Request& req, Response& res) { handle(req, res); },
        [this](const Request& req, Response& res, int status, const std::string& code, const std::string& detail) {
            refusal(req, res, status, code, detail);
        },
        [this](const Request& req, const Response& res, double ms) {
            access_log->info("{} {} {} {} {:.1f}ms key={}", req.remote_addr.empty() ? "-" : req.remote_addr,
                             req.method.empty() ? "-" : printable(req.method, 20), req.path.empty() ? "-" : printable(req.path),
                             res.status, ms, res.key_id.empty() ? "-" : res.key_id);
        });
}

HttpBridge::HttpBridge(const ToolRegistry& registry, const Clock& clock, BridgeOptions options)
    : impl_(std::make_unique<Impl>(registry, clock, std::move(options))) {}

HttpBridge::~HttpBridge() = default;

std::string HttpBridge::bind() {
    auto& o = impl_->options;
    impl_->configure();
    const int port = impl_->server->bind(o.listen_host, o.listen_port);
    std::string base_url = o.base_url;
    if (base_url.empty()) {
        std::string host = o.listen_host == "0.0.0.0" || o.listen_host == "::" ? "127.0.0.1" : o.listen_host;
        if (host.find(':') != std::string::npos && host.front() != '[') host = "[" + host + "]";
        base_url = "http://" + host + ":" + std::to_string(port) + "/api";
    }
    const auto url = parse_url(base_url);
    if (!url) throw std::runtime_error("--base-url " + base_url + " is not an http(s) URL such as https://syndic.example.org/api");
    impl_->base = *url;
    impl_->policy.emplace(*url, o.listen_host, port, o.allowed_origins, o.allowed_hosts);
    while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
    impl_->openapi_text = openapi_document(impl_->registry, base_url).dump(2);
    impl_->oauth_settings = {*url, base_url, impl_->registry.all_scopes()};
    return base_url;
}

void HttpBridge::run() { impl_->server->run(); }

void HttpBridge::stop() { impl_->server->stop(); }

}  // namespace syndic::http
