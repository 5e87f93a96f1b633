#include "mcp/refusals.hpp"

#include <nlohmann/json.hpp>

#include <memory>

#include "core/error.hpp"
#include "tools/wire_error.hpp"

namespace syndic {

using nlohmann::json;

namespace {
std::string text_of(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }
}  // namespace

jsonrpc::Error jsonrpc_error(const DomainError& error, int code) {
    std::string message = code == jsonrpc::parse_error ? "Parse error" : error.code();
    return jsonrpc::Error(code, std::move(message), error_data(error), std::make_shared<const DomainError>(error));
}

std::string tool_error_result(const DomainError& error) {
    json structured = error_data(error);
    structured["code"] = error.code();
    std::string text = error.code() + ": " + error.detail();
    if (!error.field().empty()) text += " (field " + error.field() + ")";
    // No structuredContent: the TypeScript SDK's client (1.32) checks it against the tool's
    // outputSchema even on an isError result, and throws away the whole answer when it does not
    // match; the same object rides as the JSON text of a second content block instead.
    const json result = {{"content", json::array({{{"type", "text"}, {"text", std::move(text)}},
                                                  {{"type", "text"}, {"text", text_of(structured)}}})},
                         {"isError", true}};
    return text_of(result);
}

json rest_error_body(const DomainError& error) {
    json body = {{"code", error.code()}, {"message", error.detail()}};
    const json data = error_data(error);
    for (const auto& [key, value] : data.items())
        if (key != "detail") body[key] = value;
    return {{"error", std::move(body)}};
}

bool credential_refusal(const DomainError& error) {
    return http_status(error.code()) == 401 || error.code() == codes::insufficient_scope;
}

}  // namespace syndic
