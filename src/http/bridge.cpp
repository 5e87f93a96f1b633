// The bridge's wiring: the per-thread workers (a database connection and an MCP server each), the
// server and its access log, the base URL with what derives from it (policy, OpenAPI, OAuth).
#include "http/bridge.hpp"

#include <spdlog/pattern_formatter.h>

#include "core/log_output.hpp"
#include "http/address_share.hpp"
#include "http/bridge_impl.hpp"
#include "http/openapi.hpp"
#include "mcp/refusals.hpp"
#include "storage/database.hpp"

namespace syndic::http {

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
    mcp_options.caller = [self = w.get()] { return self->caller; };
    mcp_options.no_credentials = "No credentials: send Authorization: Bearer <API key>.";
    mcp_options.tool_errors = options.tool_errors;
    mcp_options.credential_errors_stay = true;  // answered 401/403 with WWW-Authenticate
    w->mcp = std::make_unique<McpServer>(
        registry, [self = w.get()]() -> Database& { return *self->db; }, clock, std::move(mcp_options),
        [](const std::string&) {});  // progress needs a stream; JSON answers carry none
    w->mcp->attach(w->dispatcher);
    std::lock_guard lock(workers_mutex);
    return *(workers[thread] = std::move(w));
}

void HttpBridge::Impl::configure() {
    access_log = logging::stderr_logger(
        "access", std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%eZ access %v", spdlog::pattern_time_type::utc));
    access_log->flush_on(spdlog::level::info);

    ServerLimits limits;
    limits.max_body_bytes = options.max_body_bytes;
    limits.max_connections = std::max<std::size_t>(1, options.max_connections);
    limits.max_connections_per_address = options.max_connections_per_address > 0
                                             ? options.max_connections_per_address
                                             : std::max(limits.max_connections / 16, std::min<std::size_t>(limits.max_connections, 8));
    for (const auto& proxy : options.trusted_proxies) {
        const auto address = canonical_address(proxy);
        if (!address) throw std::runtime_error("--trusted-proxy " + proxy + " is not an IP address, e.g. 127.0.0.1 or ::1");
        limits.proxy_addresses.push_back(*address);
    }
    proxies = limits.proxy_addresses;
    server.emplace(
        limits, std::max<std::size_t>(1, options.workers), [this](Request& req, Response& res) {
            std::vector<std::string> forwarded_for;
            for (auto [it, end] = req.headers.equal_range("X-Forwarded-For"); it != end; ++it) forwarded_for.push_back(it->second);
            req.client = request_client(req.remote_addr, forwarded_for, proxies);
            handle(req, res);
        },
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
