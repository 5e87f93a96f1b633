// What protocol_test.cpp and protocol_tools_test.cpp share: Rpc, a dispatcher with a few plain
// methods as a transport holds it, and Mcp, an McpServer on an in-memory database with a fixed clock
// and the real registry. It knows the server only through jsonrpc/ and mcp/, as a transport does.
#pragma once
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"

#include "catalogue.hpp"

namespace syndic::test::protocol {

using nlohmann::json;

// A dispatcher with a few plain methods, as a transport would hold it.
struct Rpc {
    jsonrpc::Dispatcher dispatcher;
    std::vector<json> notified;

    Rpc() {
        dispatcher.method("echo", [](const jsonrpc::Request& r) { return json{{"params", r.params}}; });
        dispatcher.method("fail", [](const jsonrpc::Request&) -> json {
            throw std::runtime_error("sqlite: disk I/O error at /home/secret/path password=hunter2");
        });
        dispatcher.method("refuse", [](const jsonrpc::Request&) -> json {
            throw jsonrpc::Error(-32000, "UNIT_NOT_FOUND", {{"detail", "No such unit."}});
        });
        dispatcher.method("silent", [](const jsonrpc::Request&) -> json { throw jsonrpc::NoResponse{}; });
        dispatcher.notification("note", [this](const json& p) { notified.push_back(p); });
        dispatcher.notification("note_fails", [](const json&) { throw std::runtime_error("boom"); });
    }

    std::optional<std::string> raw(const std::string& line) { return dispatcher.handle(line); }

    // The parsed answer; fails the test when there is none.
    json answer(const std::string& line) {
        auto out = dispatcher.handle(line);
        REQUIRE_MESSAGE(out.has_value(), "no answer to " << line);
        CHECK_MESSAGE(out->find('\n') == std::string::npos, "an answer is one line");
        return json::parse(*out);
    }
};

inline void check_error(const json& answer, int code) {
    REQUIRE_MESSAGE(answer.contains("error"), answer.dump());
    CHECK(answer["jsonrpc"] == "2.0");
    CHECK(answer["error"]["code"] == code);
    CHECK(answer["error"]["message"].is_string());
    CHECK_FALSE(answer.contains("result"));
}

// An McpServer on an in-memory database with a fixed clock and the real registry, wired to a
// dispatcher; notifications it sends are collected in `sent`.
struct Mcp {
    std::unique_ptr<Database> db = Database::open(":memory:");
    FixedClock clock{*parse_iso_instant("2026-11-21T15:00:00Z")};
    ToolRegistry registry{all_tool_handlers()};
    std::string syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    std::vector<std::string> sent;
    std::function<void(const std::string&)> on_send;  // test hook run on each sent notification
    jsonrpc::Dispatcher dispatcher;
    std::unique_ptr<McpServer> server;
    int next_id = 1;

    explicit Mcp(McpOptions options = {}) {
        server = std::make_unique<McpServer>(
            registry, [this]() -> Database& { return *db; }, clock, std::move(options),
            [this](const std::string& line) {
                sent.push_back(line);
                if (on_send) on_send(line);
            });
        server->attach(dispatcher);
    }

    static McpOptions with_key(std::string key, std::size_t page_size = 0) {
        McpOptions o;
        o.api_key = std::move(key);
        o.tools_page_size = page_size;
        return o;
    }

    // One incoming line, as the transport handles it: peeked first, then dispatched.
    std::optional<std::string> line(const json& message) {
        const std::string text = message.dump();
        server->peek(text);
        return dispatcher.handle(text);
    }

    json request(const std::string& method, const json& params = nullptr, json id = nullptr) {
        if (id.is_null()) id = next_id++;
        json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
        if (!params.is_null()) message["params"] = params;
        auto out = line(message);
        REQUIRE_MESSAGE(out.has_value(), "no answer to " << message.dump());
        json answer = json::parse(*out);
        CHECK(answer["id"] == id);
        return answer;
    }

    json call(const std::string& tool, const json& args = json::object(), json id = nullptr) {
        return request("tools/call", {{"name", tool}, {"arguments", args}}, std::move(id));
    }
};

inline std::string admin_key(Mcp& m, std::vector<std::string> scopes = {"*"}, Role role = Role::admin) {
    return issue_api_key(*m.db, m.clock, m.syndicate, role, scopes, "test").secret;
}

inline long long count(Database& db, const std::string& table) {
    return db.sql().execAndGet("SELECT count(*) FROM " + table).getInt64();
}

}  // namespace syndic::test::protocol
