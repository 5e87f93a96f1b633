// JSON-RPC 2.0: envelope checks, ids, batches, a method table and the standard error codes.
// Takes one incoming text and gives the text to answer (none for notifications), with the errors
// it wrote as values. Knows nothing of MCP, tools or HTTP statuses.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {
class DomainError;
}

namespace syndic::jsonrpc {

inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;

// Thrown by a method to answer with an error. `cause` is the domain refusal it writes, when it
// writes one (mcp/refusals.hpp builds those), so a transport can read the refusal as a value.
struct Error : std::runtime_error {
    Error(int code, std::string message, nlohmann::json data = nullptr, std::shared_ptr<const DomainError> cause = nullptr)
        : std::runtime_error(message), code(code), message(std::move(message)), data(std::move(data)), cause(std::move(cause)) {}
    int code;
    std::string message;
    nlohmann::json data;
    std::shared_ptr<const DomainError> cause;
};

// One message answered with an error, as a value: its JSON-RPC code and the domain refusal behind
// it (null for the protocol's own errors: parse, invalid request, unknown method...).
struct Refused {
    int code;
    std::shared_ptr<const DomainError> cause;
};

// What one line or body gave: the text to write back (none when no answer is due), how many
// messages it answers, and the errors among them, in order (a batch's included).
struct Answer {
    std::optional<std::string> text;
    std::size_t answered = 0;
    std::vector<Refused> refusals;
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
    std::optional<std::string> handle(std::string_view text) { return answer(text).text; }
    // The same, with the errors written as values. Never throws.
    Answer answer(std::string_view text);

    // A message or batch already parsed (by a transport that looked into it, with parse_json's
    // limits). Throws only what nlohmann::json may throw.
    Answer answer_parsed(const nlohmann::json& message);

    // The one writer of a JSON-RPC error response.
    static nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message,
                                         const nlohmann::json& data = nullptr);
    static nlohmann::json error_response(const nlohmann::json& id, const Error& error) {
        return error_response(id, error.code, error.message, error.data);
    }
    // The answer to a line longer than a transport accepts (id null: the line was not read).
    static std::string message_too_long(std::size_t limit);

private:
    Answer answer_text(std::string_view text);
    // Appends the message's answer, if one is due, to `out` (its text and its error).
    void answer_message(const nlohmann::json& message, std::string& text, Answer& out);

    std::map<std::string, Method, std::less<>> methods_;
    std::map<std::string, Notification, std::less<>> notifications_;
};

}  // namespace syndic::jsonrpc
