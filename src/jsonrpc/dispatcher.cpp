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

namespace {

// An error answer, its text and its value.
void add_error(Answer& out, std::string& text, const json& id, int code, const std::string& message, const json& data,
               std::shared_ptr<const DomainError> cause = nullptr) {
    text = text_of(Dispatcher::error_response(id, code, message, data));
    out.refusals.push_back({code, std::move(cause)});
}

// A whole line or body refused before any of its messages was looked at: one error, id null.
Answer refused_whole(int code, const std::string& message, const json& data) {
    Answer out;
    std::string text;
    add_error(out, text, nullptr, code, message, data);
    out.text = std::move(text);
    out.answered = 1;
    return out;
}

}  // namespace

Answer Dispatcher::answer(std::string_view text) {
    try {
        return answer_text(text);
    } catch (const std::exception& e) {  // a last guard: one bad line never stops the server
        spdlog::error("failed to handle a message: {}", e.what());
        return refused_whole(internal_error, "Internal error",
                             {{"detail", "The server failed unexpectedly; the details are in its log."}});
    }
}

Answer Dispatcher::answer_text(std::string_view text) {
    json message;
    try {
        message = parse_json(text, {max_depth, max_values});
    } catch (const JsonParseError& e) {  // syntax, a key twice in one object, beyond the limits
        json data = {{"detail", (e.kind == JsonParseError::Kind::syntax ? "The line " : "The message ") + std::string(e.what())}};
        if (e.kind == JsonParseError::Kind::too_many_values) data["limitValues"] = max_values;
        return refused_whole(parse_error, "Parse error", data);
    }
    return answer_parsed(message);
}

Answer Dispatcher::answer_parsed(const json& message) {
    if (!message.is_array()) {
        Answer out;
        std::string text;
        answer_message(message, text, out);
        if (out.answered) out.text = std::move(text);
        return out;
    }
    if (message.empty()) return refused_whole(invalid_request, "Invalid Request", {{"detail", "An empty batch."}});
    if (message.size() > max_batch)
        return refused_whole(invalid_request, "Invalid Request",
                             {{"detail", "A batch of " + std::to_string(message.size()) + " messages; one batch takes at most " +
                                             std::to_string(max_batch) + ", and none of this one was run."},
                              {"limitMessages", max_batch}});
    Answer out;
    std::string answers;
    for (const auto& m : message) {
        std::string one;
        answer_message(m, one, out);
        if (!one.empty()) (answers += answers.empty() ? "[" : ",") += one;
    }
    if (!answers.empty()) out.text = answers + "]";
    return out;
}

void Dispatcher::answer_message(const json& m, std::string& text, Answer& out) {
    static const json null_id = nullptr;
    if (!m.is_object()) {
        ++out.answered;
        return add_error(out, text, nullptr, invalid_request, "Invalid Request", {{"detail", "A message must be a JSON object."}});
    }
    const auto id_it = m.find("id");
    const bool is_request = id_it != m.end();
    const json& id = is_request ? *id_it : null_id;
    const auto method_it = m.find("method");

    if (method_it == m.end() && is_request && (m.contains("result") || m.contains("error")))
        return;  // a response to a request of ours: none are sent, nothing to do
    const auto version_it = m.find("jsonrpc");
    if (version_it == m.end() || !version_it->is_string() || *version_it != "2.0" || method_it == m.end() || !method_it->is_string() ||
        (is_request && !id.is_string() && !id.is_number_integer()) ||
        (m.contains("params") && !m["params"].is_object() && !m["params"].is_array())) {
        ++out.answered;
        return add_error(out, text, is_request && (id.is_string() || id.is_number_integer()) ? id : null_id, invalid_request,
                         "Invalid Request",
                         {{"detail", "Expected {\"jsonrpc\":\"2.0\", \"method\": string, \"id\": string or "
                                     "integer, \"params\": object}."}});
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
        return;
    }

    auto it = methods_.find(name);
    ++out.answered;
    if (it == methods_.end())
        return add_error(out, text, id, method_not_found, "Method not found", {{"detail", "Unknown method " + name + "."}});
    try {
        Reply reply = it->second(Request{id, params});
        // Keys in the order nlohmann::json writes them (sorted): id, jsonrpc, result. Written
        // once into a string of the right size.
        const std::string id_text = text_of(id);
        const std::string value_text = reply.is_text ? std::string() : text_of(reply.value);
        const std::string& result = reply.is_text ? reply.text : value_text;
        static constexpr std::string_view head = "{\"id\":", middle = ",\"jsonrpc\":\"2.0\",\"result\":";
        text.clear();
        text.reserve(head.size() + id_text.size() + middle.size() + result.size() + 1);
        text.append(head).append(id_text).append(middle).append(result).push_back('}');
    } catch (const Error& e) {
        add_error(out, text, id, e.code, e.message, e.data, e.cause);
    } catch (const NoResponse&) {
        --out.answered;
    } catch (const std::exception& e) {
        spdlog::error("{} failed: {}", name, e.what());
        add_error(out, text, id, internal_error, "Internal error",
                  {{"detail", "The server failed unexpectedly; the details are in its log."}});
    }
}

}  // namespace syndic::jsonrpc
