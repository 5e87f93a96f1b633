#include "jsonrpc/dispatcher.hpp"

#include <spdlog/spdlog.h>

#include "core/json_parse.hpp"
#include "core/text.hpp"

namespace syndic::jsonrpc {

using nlohmann::json;

json Dispatcher::error_response(const json& id, int code, const std::string& message, const json& data) {
    json error = {{"code", code}, {"message", message}};
    if (!data.is_null()) error["data"] = data;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}


namespace {

std::string text_of(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string Dispatcher::message_too_long(std::size_t limit) {
    return text_of(error_response(nullptr, invalid_request, "Invalid Request",
                                  {{"detail", "The line is longer than " + std::to_string(limit) +
                                                  " bytes, the most one message may take; it was not read."},
                                   {"limitBytes", limit}}));
}

std::optional<std::string> Dispatcher::handle(std::string_view text) {
    try {
        return handle_text(text);
    } catch (const std::exception& e) {  // a last guard: one bad line never stops the server
        spdlog::error("failed to handle a message: {}", e.what());
        return text_of(error_response(nullptr, internal_error, "Internal error",
                                      {{"detail", "The server failed unexpectedly; the details are in its log."}}));
    }
}

std::optional<std::string> Dispatcher::handle_text(std::string_view text) {
    json message;
    try {
        message = parse_json(text, {max_depth, max_values});
    } catch (const JsonParseError& e) {  // syntax, a key twice in one object, beyond the limits
        json data = {{"detail", (e.kind == JsonParseError::Kind::syntax ? "The line " : "The message ") + std::string(e.what())}};
        if (e.kind == JsonParseError::Kind::too_many_values) data["limitValues"] = max_values;
        return text_of(error_response(nullptr, parse_error, "Parse error", data));
    }
    return handle_parsed(message);
}

std::optional<std::string> Dispatcher::handle_parsed(const json& message) {
    if (message.is_array()) {
        if (message.empty())
            return text_of(error_response(nullptr, invalid_request, "Invalid Request", {{"detail", "An empty batch."}}));
        if (message.size() > max_batch)
            return text_of(error_response(nullptr, invalid_request, "Invalid Request",
                                          {{"detail", "A batch of " + std::to_string(message.size()) + " messages; one batch takes at most " +
                                                          std::to_string(max_batch) + ", and none of this one was run."},
                                           {"limitMessages", max_batch}}));
        std::string answers;
        for (const auto& m : message)
            if (auto answer = handle_message(m)) (answers += answers.empty() ? "[" : ",") += *answer;
        if (answers.empty()) return std::nullopt;
        return answers + "]";
    }
    return handle_message(message);
}

std::optional<std::string> Dispatcher::handle_message(const json& m) {
    static const json null_id = nullptr;
    if (!m.is_object())
        return text_of(error_response(nullptr, invalid_request, "Invalid Request", {{"detail", "A message must be a JSON object."}}));
    const auto id_it = m.find("id");
    const bool is_request = id_it != m.end();
    const json& id = is_request ? *id_it : null_id;
    const auto method_it = m.find("method");

    if (method_it == m.end() && is_request && (m.contains("result") || m.contains("error")))
        return std::nullopt;  // a response to a request of ours: none are sent, nothing to do
    const auto version_it = m.find("jsonrpc");
    if (version_it == m.end() || !version_it->is_string() || *version_it != "2.0" || method_it == m.end() || !method_it->is_string() ||
        (is_request && !id.is_string() && !id.is_number_integer()) ||
        (m.contains("params") && !m["params"].is_object() && !m["params"].is_array())) {
        return text_of(error_response(is_request && (id.is_string() || id.is_number_integer()) ? id : null_id,
                                      invalid_request, "Invalid Request",
                                      {{"detail", "Expected {\"jsonrpc\":\"2.0\", \"method\": string, \"id\": string or "
                                                  "integer, \"params\": object}."}}));
    }
    const std::string& name = method_it->get_ref<const std::string&>();
    static const json no_params = nullptr;
    const json& params = m.contains("params") ? m["params"] : no_params;

    if (!is_request) {
        if (auto it = notifications_.find(name); it != notifications_.end()) {
            try {
                it->second(params);
            } catch (const std::exception& e) {
                spdlog::warn("notification {} failed: {}", name, e.what());
            }
        } else {
            spdlog::debug("ignoring notification {}", name);
        }
        return std::nullopt;
    }

    auto it = methods_.find(name);
    if (it == methods_.end())
        return text_of(error_response(id, method_not_found, "Method not found", {{"detail", "Unknown method " + name + "."}}));
    try {
        Reply reply = it->second(Request{id, params});
        // Keys in the order nlohmann::json writes them (sorted): id, jsonrpc, result.
        std::string answer = "{\"id\":" + text_of(id) + ",\"jsonrpc\":\"2.0\",\"result\":";
        answer += reply.is_text ? reply.text : text_of(reply.value);
        answer += '}';
        return answer;
    } catch (const Error& e) {
        return text_of(error_response(id, e.code, e.message, e.data));
    } catch (const NoResponse&) {
        return std::nullopt;
    } catch (const std::exception& e) {
        spdlog::error("{} failed: {}", name, e.what());
        return text_of(error_response(id, internal_error, "Internal error",
                                      {{"detail", "The server failed unexpectedly; the details are in its log."}}));
    }
}

}  // namespace syndic::jsonrpc
