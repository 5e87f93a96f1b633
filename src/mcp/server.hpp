// MCP over JSON-RPC: initialize with version negotiation, ping, tools/list (with cursor pages),
// tools/call and cancellation. Turns tool calls into registry calls under the caller's
// credentials; knows nothing of transports or of what a tool does.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "core/clock.hpp"
#include "core/context.hpp"
#include "jsonrpc/dispatcher.hpp"
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
    // request itself (the HTTP bridge). Throws DomainError NOT_AUTHENTICATED when nobody did.
    std::function<CallerContext()> caller;
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
    void cancelled(const nlohmann::json& params);
    bool is_cancelled(const std::string& id_key);
    void started(const std::string& id_key);
    void finished(const std::string& id_key);

    const ToolRegistry& registry_;
    std::function<Database&()> database_;
    const Clock& clock_;
    McpOptions options_;
    std::function<void(const std::string&)> send_;

    std::mutex cancel_mutex_;
    std::set<std::string> cancelled_ids_;   // request ids (as JSON text) cancelled before or while running
    std::set<std::string> finished_ids_;    // the last answered ids, whose cancellation comes too late
    std::deque<std::string> finished_order_;
};

}  // namespace syndic
