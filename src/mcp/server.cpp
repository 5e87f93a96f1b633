#include "mcp/server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <optional>

#include "auth/credentials.hpp"
#include "core/json_parse.hpp"
#include "storage/database.hpp"
#include "storage/storage_error.hpp"
#include "tools/manifests.hpp"
#include "tools/wire_error.hpp"

#ifndef SYNDIC_VERSION
#define SYNDIC_VERSION "0.0.0"
#endif

namespace syndic {

using nlohmann::json;

namespace {
constexpr std::array<const char*, 4> protocol_versions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
}

bool supported_protocol_version(const std::string& version) {
    return std::find(protocol_versions.begin(), protocol_versions.end(), version) != protocol_versions.end();
}

std::string server_version() { return SYNDIC_VERSION; }

McpServer::McpServer(const ToolRegistry& registry, std::function<Database&()> database, const Clock& clock,
                     McpOptions options, std::function<void(const std::string&)> send_notification)
    : registry_(registry),
      database_(std::move(database)),
      clock_(clock),
      options_(std::move(options)),
      send_(std::move(send_notification)) {
    for (auto& tool : registry_.tools()) tools_.emplace(tool.name, std::move(tool));
}

void McpServer::attach(jsonrpc::Dispatcher& d) {
    d.method("initialize", [this](const jsonrpc::Request& r) { return initialize(r); });
    d.method("ping", [](const jsonrpc::Request&) { return json::object(); });
    d.method("tools/list", [this](const jsonrpc::Request& r) { return list_tools(r); });
    d.method("tools/call", [this](const jsonrpc::Request& r) { return call_tool(r); });
    d.notification("notifications/initialized", [](const json&) { spdlog::debug("client initialized"); });
    // Cancellations are recorded by peek() as they arrive, while a call may be running; here
    // they have already been seen.
    d.notification("notifications/cancelled", [](const json&) {});
}

json McpServer::initialize(const jsonrpc::Request& r) {
    std::string asked;
    if (r.params.is_object() && r.params.contains("protocolVersion") && r.params["protocolVersion"].is_string())
        asked = r.params["protocolVersion"];
    const std::string version = supported_protocol_version(asked) ? asked : latest_protocol_version;
    std::string client = "an unnamed client";
    if (r.params.is_object() && r.params.contains("clientInfo") && r.params["clientInfo"].is_object()) {
        const auto& info = r.params["clientInfo"];
        if (info.contains("name") && info["name"].is_string()) client = info["name"].get<std::string>();
        if (info.contains("version") && info["version"].is_string()) client += " " + info["version"].get<std::string>();
    }
    spdlog::info("{} asks protocol {}, answering {}", client.substr(0, 200), asked.substr(0, 40), version);
    return {{"protocolVersion", version},
            {"capabilities", {{"tools", {{"listChanged", false}}}}},
            {"serverInfo", {{"name", "syndic-mcp"}, {"title", "Syndic MCP (copropriété)"}, {"version", server_version()}}},
            {"instructions", server_instructions(registry_)}};
}

namespace {

// The registry's own check (scope, then role), asked without calling.
bool may_call(const ToolInfo& tool, const CallerContext& caller) {
    return caller.has_scope(tool.required_scope) && (!tool.admin_only || caller.is_admin());
}

}  // namespace

const CallerContext& McpServer::authenticated_caller() {
    if (options_.caller) {
        auto caller = options_.caller();
        if (!caller) throw DomainError(codes::not_authenticated, options_.no_credentials);
        transport_caller_ = std::move(*caller);
        return transport_caller_;
    }
    if (!options_.api_key || options_.api_key->empty()) throw DomainError(codes::not_authenticated, options_.no_credentials);
    Database& db = database_();
    const CallerContext* caller = with_storage_refusals(db, [&] { return key_callers_.caller(db, *options_.api_key); });
    if (!caller) throw DomainError(codes::not_authenticated, "The API key is unknown or revoked.");
    return *caller;
}

std::vector<const json*> McpServer::visible_tools() {
    const auto& all = registry_.descriptors();
    std::optional<CallerContext> caller;
    try {
        caller = authenticated_caller();
    } catch (const std::exception& e) {
        // No caller known (no key, an unknown one, no database): the whole catalogue, as the
        // calls themselves will say what is wrong.
        spdlog::debug("tools/list for an unknown caller: {}", e.what());
    }
    std::vector<const json*> visible;
    visible.reserve(all.size());
    for (const auto& descriptor : all) {
        const auto tool = tools_.find(descriptor["name"].get_ref<const std::string&>());
        if (!caller || (tool != tools_.end() && may_call(tool->second, *caller))) visible.push_back(&descriptor);
    }
    return visible;
}

json McpServer::list_tools(const jsonrpc::Request& r) {
    const auto all = visible_tools();
    std::size_t start = 0;
    const bool has_cursor = r.params.is_object() && r.params.contains("cursor") && !r.params["cursor"].is_null();
    if (has_cursor) {
        const auto& cursor = r.params["cursor"];
        try {
            if (!cursor.is_string()) throw std::invalid_argument("not a string");
            std::size_t used = 0;
            start = std::stoul(cursor.get<std::string>(), &used);
            if (used != cursor.get<std::string>().size() || start > all.size()) throw std::out_of_range("cursor");
        } catch (const std::exception&) {
            throw jsonrpc::Error(jsonrpc::invalid_params, "Invalid params",
                                 {{"detail", "Unknown cursor; pass the nextCursor of a previous tools/list."}});
        }
    }
    const std::size_t page = options_.tools_page_size ? options_.tools_page_size : all.size();
    const std::size_t end = std::min(all.size(), start + page);
    json tools = json::array();
    for (std::size_t i = start; i < end; ++i) tools.push_back(*all[i]);
    json result = {{"tools", std::move(tools)}};
    if (end < all.size()) result["nextCursor"] = std::to_string(end);
    return result;
}

namespace {

// Whether any of the 8 bytes of `word` is `byte` (the classic "has zero byte" test on word ^ byte).
constexpr std::uint64_t ones = 0x0101010101010101ULL;
bool has_byte(std::uint64_t word, unsigned char byte) {
    const std::uint64_t v = word ^ (ones * byte);
    return ((v - ones) & ~v & (ones * 0x80)) != 0;
}

}  // namespace

std::string tool_result_text(std::string_view dumped) {
    static constexpr std::string_view head = R"({"content":[{"text":")";
    static constexpr std::string_view middle = R"(","type":"text"}],"structuredContent":)";
    // `dumped` is compact JSON in valid UTF-8 with every control character escaped: as a string
    // value it only needs its quotes and backslashes escaped. Eight bytes are looked at a time;
    // most words hold neither and are copied whole.
    std::string out(head.size() + 2 * dumped.size() + middle.size() + dumped.size() + 1, '\0');
    char* at = std::copy(head.begin(), head.end(), out.data());
    const char* p = dumped.data();
    const char* const end = p + dumped.size();
    while (p < end) {
        if (end - p >= 8) {
            std::uint64_t word;
            std::memcpy(&word, p, 8);
            if (!has_byte(word, '"') && !has_byte(word, '\\')) {
                std::memcpy(at, p, 8);
                at += 8;
                p += 8;
                continue;
            }
        }
        const char* stop = std::min(end, p + 8);
        for (; p < stop; ++p) {
            if (*p == '"' || *p == '\\') *at++ = '\\';
            *at++ = *p;
        }
    }
    at = std::copy(middle.begin(), middle.end(), at);
    at = std::copy(dumped.begin(), dumped.end(), at);
    *at++ = '}';
    out.resize(static_cast<std::size_t>(at - out.data()));
    return out;
}

jsonrpc::Reply McpServer::call_tool(const jsonrpc::Request& r) {
    const std::string id_key = r.id.dump();
    struct Finish {  // once the call is over its id is free again, and a late cancellation is moot
        McpServer& s;
        std::string key;
        ~Finish() { s.finished(key); }
    } finish{*this, id_key};
    started(id_key);
    if (is_cancelled(id_key)) throw jsonrpc::NoResponse{};

    if (!r.params.is_object() || !r.params.contains("name") || !r.params["name"].is_string())
        throw jsonrpc::Error(jsonrpc::invalid_params, "Invalid params", {{"detail", "tools/call needs params.name, a string."}});
    const std::string& name = r.params["name"].get_ref<const std::string&>();
    static const json no_arguments = json::object();
    const json& args = r.params.contains("arguments") && !r.params["arguments"].is_null() ? r.params["arguments"] : no_arguments;
    if (!registry_.offers(name))
        throw jsonrpc::Error(jsonrpc::invalid_params, "UNKNOWN_TOOL",
                             {{"detail", "No tool named " + name + " on this server; tools/list shows those it offers."}});

    // One line per call at info level: the tool, "ok" or the refusal's code, the time taken and
    // the key's id; never the arguments (personal data) nor any secret.
    struct CallLog {
        const std::string& tool;
        std::string outcome = codes::internal_error;
        std::string key_id = "-";
        std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
        ~CallLog() {
            const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
            spdlog::info("tools/call {} {} {:.1f} ms key {}", tool, outcome, took.count(), key_id);
        }
    } log{name};
    try {
        // A read-only call with the server's API key runs in one read transaction, the key's check
        // included: one WAL read lock taken and released a call, not two (the handler's own
        // ReadTransaction nests in it).
        std::optional<ReadTransaction> snapshot;
        if (const auto offered = tools_.find(name); offered != tools_.end() && offered->second.read_only &&
                                                    !options_.caller && options_.api_key && !options_.api_key->empty())
            snapshot.emplace(database_());
        const CallerContext& caller = authenticated_caller();
        Database& db = database_();
        log.key_id = caller.api_key_id.empty() ? "-" : caller.api_key_id;

        CallControl control;
        control.cancelled = [this, key = &id_key] { return is_cancelled(*key); };  // id_key outlives the call
        const json* meta = r.params.contains("_meta") ? &r.params["_meta"] : nullptr;
        if (meta && meta->is_object() && meta->contains("progressToken") &&
            ((*meta)["progressToken"].is_string() || (*meta)["progressToken"].is_number_integer())) {
            const json token = (*meta)["progressToken"];
            control.progress = [this, token](double done, double total) {
                send_(json{{"jsonrpc", "2.0"},
                           {"method", "notifications/progress"},
                           {"params", {{"progressToken", token}, {"progress", done}, {"total", total}}}}
                          .dump());
            };
        }
        // A call that completed is answered even if a cancellation came late: its work is done.
        const std::string result = registry_.call_text(name, args, caller, db, clock_, control);
        log.outcome = "ok";
        return jsonrpc::Reply::serialized(tool_result_text(result));
    } catch (const DomainError& e) {
        log.outcome = e.code();
        if (e.code() == codes::cancelled) throw jsonrpc::NoResponse{};
        spdlog::debug("{} refused: {} {}", name, e.code(), e.detail());
        return refused(e);
    }
}

jsonrpc::Reply McpServer::refused(const DomainError& e) const {
    const bool as_result = options_.tool_errors == ToolErrors::result && !(options_.credential_errors_stay && credential_refusal(e));
    if (as_result) return jsonrpc::Reply::serialized(tool_error_result(e));
    throw jsonrpc_error(e);
}

void McpServer::peek(const std::string& line) {
    if (line.find("notifications/cancelled") == std::string::npos) return;
    if (line.size() > 4096) return;  // a cancellation is a short message
    try {
        const json m = parse_json(line, {8, 100});  // the dispatcher refuses what this refuses
        if (m.is_object() && !m.contains("id") && m.contains("jsonrpc") && m["jsonrpc"] == "2.0" &&
            m.contains("method") && m["method"] == "notifications/cancelled" && m.contains("params"))
            cancelled(m["params"]);
    } catch (const std::exception&) {
        // the main loop answers the parse error
    }
}

void McpServer::cancelled(const json& params) {
    if (!params.is_object() || !params.contains("requestId")) return;
    const auto& id = params["requestId"];
    if (!id.is_string() && !id.is_number_integer()) return;
    const std::string key = id.dump();
    std::lock_guard lock(cancel_mutex_);
    if (finished_ids_.count(key)) return;  // already answered: nothing to cancel
    if (cancelled_ids_.size() >= 1024) cancelled_ids_.erase(cancelled_ids_.begin());
    cancelled_ids_.insert(key);
    spdlog::info("request {} cancelled by the client", key);
}

void McpServer::finished(const std::string& id_key) {
    std::lock_guard lock(cancel_mutex_);
    cancelled_ids_.erase(id_key);
    if (finished_ids_.insert(id_key).second) finished_order_.push_back(id_key);
    while (finished_order_.size() > 256) {
        finished_ids_.erase(finished_order_.front());
        finished_order_.pop_front();
    }
}

void McpServer::started(const std::string& id_key) {
    std::lock_guard lock(cancel_mutex_);
    if (finished_ids_.erase(id_key)) std::erase(finished_order_, id_key);
}

bool McpServer::is_cancelled(const std::string& id_key) {
    std::lock_guard lock(cancel_mutex_);
    return cancelled_ids_.count(id_key) > 0;
}

}  // namespace syndic
