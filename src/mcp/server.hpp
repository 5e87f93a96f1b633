// MCP over JSON-RPC: initialize with version negotiation, ping, tools/list (the caller's tools,
// with cursor pages), tools/call and cancellation. Turns tool calls into registry calls under the
// caller's credentials; knows nothing of transports or of what a tool does.
#pragma once
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "auth/key_caller_cache.hpp"
#include "core/context.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/refusals.hpp"
#include "tools/registry.hpp"

namespace syndic {

class Database;

inline constexpr const char* latest_protocol_version = "2025-11-25";
bool supported_protocol_version(const std::string& version);
std::string server_version();

struct McpOptions {
    std::optional<std::string> api_key;  // the credential every call on this connection uses
    std::size_t tools_page_size = 0;     // 0: tools/list answers in one page unless given a cursor
    // When set, who makes the tool calls, in place of api_key: a transport that authenticated the
    // request itself (the HTTP bridge); nullopt when the request carried no credentials.
    std::function<std::optional<CallerContext>()> caller = nullptr;
    // The explanation of NOT_AUTHENTICATED when no credentials were given.
    std::string no_credentials = "No credentials: set SYNDIC_API_KEY (or --api-key) to an API key of the syndicate.";
    ToolErrors tool_errors = ToolErrors::jsonrpc;
    // Whether refusals of the credentials (credential_refusal) stay JSON-RPC errors in the result
    // mode: over HTTP they are answered 401/403 with WWW-Authenticate, for the client to act on.
    bool credential_errors_stay = false;
};

// The text of a tools/call result for a tool's result, given as compact JSON text:
// {"content":[{"text":<that text>,"type":"text"}],"structuredContent":<the result>}.
std::string tool_result_text(std::string_view result_json);

class McpServer {
public:
    McpServer(const ToolRegistry& registry, std::function<Database&()> database, const Clock& clock,
              McpOptions options, std::function<void(const std::string&)> send_notification);

    void attach(jsonrpc::Dispatcher& dispatcher);

    // Called on the reader thread for every incoming line: notes cancellations at once, so a
    // running call can stop.
    void peek(const std::string& line);

private:
    nlohmann::json initialize(const jsonrpc::Request& request);
    nlohmann::json list_tools(const jsonrpc::Request& request);
    jsonrpc::Reply call_tool(const jsonrpc::Request& request);
    // Who calls: the transport's caller, else the API key's (kept between calls while the keys
    // cannot have changed); throws DomainError NOT_AUTHENTICATED. Valid until the next call.
    const CallerContext& authenticated_caller();
    // The descriptors tools/list shows: those the caller may call when the caller is known (a key
    // or bearer that authenticates), else every offered tool.
    std::vector<const nlohmann::json*> visible_tools();
    jsonrpc::Reply refused(const DomainError& error) const;
    void cancelled(const nlohmann::json& params);
    bool is_cancelled(const std::string& id_key);
    void started(const std::string& id_key);
    void finished(const std::string& id_key);

    const ToolRegistry& registry_;
    std::function<Database&()> database_;
    const Clock& clock_;
    McpOptions options_;
    std::function<void(const std::string&)> send_;
    std::map<std::string, ToolInfo, std::less<>> tools_;  // the offered tools by name
    KeyCallerCache key_callers_;      // the API key's caller, between calls
    CallerContext transport_caller_;  // the transport's caller of the call in progress

    std::mutex cancel_mutex_;
    std::set<std::string> cancelled_ids_;   // request ids (as JSON text) cancelled before or while running
    std::set<std::string> finished_ids_;    // the last answered ids, whose cancellation comes too late
    std::deque<std::string> finished_order_;
};

}  // namespace syndic
