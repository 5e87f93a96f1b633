// JSON-RPC 2.0: envelope checks, ids, batches, a method table and the standard error codes.
// Takes one incoming text and gives the text to answer (none for notifications). Knows nothing
// of MCP or tools.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace syndic::jsonrpc {

inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;

// Thrown by a method to answer with an error.
struct Error : std::runtime_error {
    Error(int code, std::string message, nlohmann::json data = nullptr)
        : std::runtime_error(message), code(code), message(std::move(message)), data(std::move(data)) {}
    int code;
    std::string message;
    nlohmann::json data;
};

// Thrown by a method that must not be answered (a request the client cancelled).
struct NoResponse {};

// What a method answers: a JSON value, or the text of one it has already serialized (so a large
// result is not serialized twice). The text must be one compact JSON value.
struct Reply {
    Reply(nlohmann::json value) : value(std::move(value)) {}
    static Reply serialized(std::string json_text) {
        Reply r(nullptr);
        r.text = std::move(json_text);
        r.is_text = true;
        return r;
    }
    nlohmann::json value;
    std::string text;
    bool is_text = false;
};

struct Request {
    const nlohmann::json& id;
    const nlohmann::json& params;  // null when absent
};

class Dispatcher {
public:
    using Method = std::function<Reply(const Request&)>;
    using Notification = std::function<void(const nlohmann::json& params)>;

    void method(std::string name, Method handler) { methods_[std::move(name)] = std::move(handler); }
    void notification(std::string name, Notification handler) { notifications_[std::move(name)] = std::move(handler); }

    // Deeper messages are refused before parsing, so nothing recursive can exhaust the stack.
    static constexpr std::size_t max_depth = 64;
    // So are messages of more values (a parsed value takes tens of bytes for each byte of text:
    // a 4 MiB line of empty objects would take over 100 MB), and batches of more messages (each
    // answer may be far longer than its request).
    static constexpr std::size_t max_values = 100000;
    static constexpr std::size_t max_batch = 100;

    // One line (a message or a batch) in; the line to write back, or nullopt when none is due.
    // Never throws.
    std::optional<std::string> handle(std::string_view text);

    // A message or batch already parsed (by a transport that looked into it); the text of the
    // answer, or nullopt when none is due. Throws only what nlohmann::json may throw.
    std::optional<std::string> handle_parsed(const nlohmann::json& message);

    static nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message,
                                         const nlohmann::json& data = nullptr);
    // The answer to a line longer than a transport accepts (id null: the line was not read).
    static std::string message_too_long(std::size_t limit);

private:
    std::optional<std::string> handle_text(std::string_view text);
    std::optional<std::string> handle_message(const nlohmann::json& message);

    std::map<std::string, Method, std::less<>> methods_;
    std::map<std::string, Notification, std::less<>> notifications_;
};

}  // namespace syndic::jsonrpc
