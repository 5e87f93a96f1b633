// The MCP endpoint, POST <base>/mcp (Streamable HTTP, JSON answers only): checks the request's
// headers, parses the body with the bounded parser, runs it through the worker's dispatcher under
// the request's caller, and chooses the status from the refusals the dispatcher reports as values.
#include "core/json_parse.hpp"
#include "core/text.hpp"
#include "http/bridge_impl.hpp"
#include "mcp/refusals.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

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

void check_headers(const Request& req) {
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
}

}  // namespace

// 200, unless every message answered was refused for its credentials (docs/decisions.md, "One
// error path"): then 401 when any had none or an unknown one, else 403 naming the scopes lacking,
// with the challenge. A batch where anything else was answered (a result that did its work, a
// refusal a new token would not cure) stays 200, so a client never takes done work for undone.
void HttpBridge::Impl::set_mcp_status(const jsonrpc::Answer& answer, Response& res) const {
    res.status = 200;
    if (answer.answered == 0 || answer.refusals.size() != answer.answered) return;
    std::vector<const DomainError*> refused;
    for (const auto& r : answer.refusals) {
        if (!r.cause || !credential_refusal(*r.cause)) return;
        refused.push_back(r.cause.get());
    }
    const auto unauthenticated = std::find_if(refused.begin(), refused.end(),
                                              [](const DomainError* e) { return http_status(e->code()) == 401; });
    if (unauthenticated != refused.end()) {
        res.status = http_status((*unauthenticated)->code());
        res.set_header("WWW-Authenticate", challenge(true, ""));
    } else {
        res.status = http_status(refused.front()->code());
        res.set_header("WWW-Authenticate", challenge(true, scope_challenge(refused)));
    }
}

void HttpBridge::Impl::handle_mcp(const Request& req, Response& res, json& message,
                                  const std::optional<CallerContext>& caller) {
    check_headers(req);
    try {
        message = parse_json(req.body, {jsonrpc::Dispatcher::max_depth, jsonrpc::Dispatcher::max_values});
    } catch (const JsonParseError& e) {  // syntax, a key twice in one object, beyond the limits
        auto error = DomainError(codes::invalid_json, (e.kind == JsonParseError::Kind::syntax ? "The body " : "The message ") + std::string(e.what()));
        if (e.kind == JsonParseError::Kind::too_many_values) error.with("limitValues", static_cast<std::int64_t>(jsonrpc::Dispatcher::max_values));
        throw Refusal{error, {}, jsonrpc::parse_error};
    }

    auto& w = worker();
    w.caller = caller;
    struct Forget {
        Worker& w;
        ~Forget() { w.caller.reset(); }
    } forget{w};
    auto answer = w.dispatcher.answer_parsed(message);
    if (!answer.text) {
        res.status = 202;  // notifications and responses only
        return;
    }
    set_mcp_status(answer, res);
    res.set_content(std::move(*answer.text), "application/json");
}

}  // namespace syndic::http
