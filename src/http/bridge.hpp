// The HTTP bridge (decisions 1): MCP over Streamable HTTP at <base_url>/mcp, the REST routes of
// the tools, and the OpenAPI document, answered on the server's threads (--workers), each holding a database
// connection. Checks Origin and Host, credentials and plan limits, and writes the access log.
// Routes whole requests (http/message.hpp); connections and framing are http/server.hpp's.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "http/rate_limiter.hpp"
#include "mcp/tool_errors.hpp"
#include "tools/registry.hpp"

namespace syndic::http {

struct BridgeOptions {
    std::string db_path;
    std::string listen_host = "127.0.0.1";
    int listen_port = 8080;                   // 0: any free port
    std::string base_url;                     // empty: http://<listen host>:<port>/api
    std::vector<std::string> allowed_origins;  // beyond the base URL's (and loopback's)
    std::vector<std::string> allowed_hosts;    // beyond the base URL's host and loopback names
    RatePlan rate;
    std::size_t workers = 8;
    std::size_t tools_page_size = 0;
    std::size_t max_body_bytes = 4 * 1024 * 1024;
    std::size_t max_connections = 512;  // open at once; beyond it the one longest without progress is closed, or the new one refused
    std::size_t max_connections_per_address = 0;  // from one IPv4 address or IPv6 /64; 0: a sixteenth of max_connections, at least 8
    std::vector<std::string> trusted_proxies;       // addresses counted only against max_connections (--trusted-proxy)
    ToolErrors tool_errors = ToolErrors::jsonrpc;  // how /mcp answers a tool's refusal (--tool-errors)
};

class HttpBridge {
public:
    HttpBridge(const ToolRegistry& registry, const Clock& clock, BridgeOptions options);
    ~HttpBridge();
    HttpBridge(const HttpBridge&) = delete;
    HttpBridge& operator=(const HttpBridge&) = delete;

    // Binds the listening socket; returns the base URL. Throws std::runtime_error when the
    // address cannot be bound or an option is malformed.
    std::string bind();
    // Serves until stop(); requests in flight finish before it returns.
    void run();
    // From any thread (a signal watcher), any number of times: stops accepting, drops idle and
    // half-sent connections, and lets run() return once the requests in flight are answered
    // (within the server's stop grace).
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace syndic::http
