// The HTTP bridge's inside, shared by its files (and by nothing else): the state a bridge holds,
// the per-thread workers, and a refusal as a value. bridge.cpp wires it up, bridge_router.cpp
// takes a request to its endpoint, mcp_endpoint.cpp and rest_endpoint.cpp answer them.
#pragma once
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "http/access_policy.hpp"
#include "http/bridge.hpp"
#include "http/oauth_endpoints.hpp"
#include "http/rest_routes.hpp"
#include "http/server.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "tools/wire_error.hpp"

namespace syndic::http {

using Headers = std::vector<std::pair<std::string, std::string>>;

// A refusal before, around or of a call: the domain error, the HTTP headers it needs (Allow,
// WWW-Authenticate, Retry-After) and, on /mcp, its JSON-RPC code.
struct Refusal {
    DomainError error;
    Headers headers = {};
    int jsonrpc_code = domain_error_code;
};

// "application/json" of "Application/JSON; charset=utf-8".
std::string media_type(const std::string& header);
// Text for a log line or a message: control characters (a decoded %0A in a path) shown as \xHH,
// so no request can forge a line; cut at `limit` bytes.
std::string printable(std::string_view text, std::size_t limit = 300);
std::string joined(const std::vector<std::string>& items);

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
    std::vector<std::string> proxies;  // --trusted-proxy, canonical
    std::shared_ptr<spdlog::logger> access_log;
    const std::chrono::steady_clock::time_point epoch = std::chrono::steady_clock::now();

    std::mutex workers_mutex;
    std::map<std::thread::id, std::unique_ptr<Worker>> workers;

    // bridge.cpp: the wiring.
    Worker& worker();
    void configure();

    // bridge_router.cpp: a request to its endpoint, and the refusals on the way.
    void handle(const Request& req, Response& res);
    void refuse(const Request& req, Response& res, bool is_mcp, nlohmann::json& message, const Refusal& r) const;
    // The body of an answer the server refused before a handler saw the request.
    void refusal(const Request& req, Response& res, int status, const std::string& code, const std::string& detail) const;
    std::optional<CallerContext> authenticate(const Request& req, Response& res, Worker& w);
    void spend(const std::optional<CallerContext>& caller, const Request& req);
    void allow_cors(const Request& req, Response& res);
    void preflight(const std::string& path, bool is_mcp, Response& res) const;
    // Bearer realm="syndic-mcp", resource_metadata="..." and the error part, if any (RFC 9728, 5.1).
    std::string challenge(bool mcp_endpoint, const std::string& error) const;
    // The WWW-Authenticate error part for refusals lacking scopes: error="insufficient_scope",
    // scope="<every scope they name>"; "" when none names one.
    static std::string scope_challenge(const std::vector<const DomainError*>& refusals);

    // mcp_endpoint.cpp: POST <base>/mcp.
    void handle_mcp(const Request& req, Response& res, nlohmann::json& message, const std::optional<CallerContext>& caller);
    void set_mcp_status(const jsonrpc::Answer& answer, Response& res) const;

    // rest_endpoint.cpp: the REST routes of the tools and the download route.
    void handle_rest(const Request& req, Response& res, const std::string& path, const std::optional<CallerContext>& caller);
    bool serve_download(const Request& req, Response& res, const std::string& path, const std::optional<CallerContext>& caller,
                        Database& db);
};

}  // namespace syndic::http
