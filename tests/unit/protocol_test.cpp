// jsonrpc/ (envelopes, ids, batches, standard error codes) and mcp/ (initialize, tools/list with
// cursors, tools/call with credentials, errors, cancellation and progress), driven line by line
// the way the stdio transport drives them.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
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

using namespace syndic;
using namespace syndic::test;
using nlohmann::json;

namespace {

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

void check_error(const json& answer, int code) {
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

std::string admin_key(Mcp& m, std::vector<std::string> scopes = {"*"}, Role role = Role::admin) {
    return issue_api_key(*m.db, m.clock, m.syndicate, role, scopes, "test").secret;
}

long long count(Database& db, const std::string& table) {
    return db.sql().execAndGet("SELECT count(*) FROM " + table).getInt64();
}

}  // namespace

TEST_SUITE("protocol") {

// ---------------------------------------------------------------------------------------------
// JSON-RPC

TEST_CASE("a request is answered with its id and result") {
    Rpc rpc;
    auto a = rpc.answer(R"({"jsonrpc":"2.0","id":7,"method":"echo","params":{"x":1}})");
    CHECK(a == json{{"jsonrpc", "2.0"}, {"id", 7}, {"result", {{"params", {{"x", 1}}}}}});
    a = rpc.answer(R"({"jsonrpc":"2.0","id":"abc","method":"echo"})");
    CHECK(a["id"] == "abc");
    CHECK(a["result"]["params"].is_null());
    a = rpc.answer(R"({"jsonrpc":"2.0","id":8,"method":"echo","params":[1,2]})");
    CHECK(a["result"]["params"] == json::array({1, 2}));
}

TEST_CASE("a line that is not JSON: -32700 with id null, and the next line still works") {
    Rpc rpc;
    for (std::string bad : {"{not json", R"({"jsonrpc":"2.0","id":1,"method":"echo")", "", "\xff\xfe"}) {
        CAPTURE(bad);
        const auto a = rpc.answer(bad);
        check_error(a, -32700);
        CHECK(a.contains("id"));
        CHECK(a["id"].is_null());
    }
    const auto a = rpc.answer(R"({"jsonrpc":"2.0","id":2,"method":"echo"})");
    CHECK(a["id"] == 2);
    CHECK(a.contains("result"));
}

TEST_CASE("a raw NUL byte anywhere makes a line invalid JSON, even after a whole message") {
    Rpc rpc;
    const std::string message = R"({"jsonrpc":"2.0","id":1,"method":"echo"})";
    for (const std::string& bad : {message + std::string(1, '\0'), message + std::string("\0{garbage", 9),
                                   std::string(1, '\0') + message, std::string(R"({"jsonrpc":"2.0",)") + '\0' + R"("id":1,"method":"echo"})"}) {
        CAPTURE(bad);
        const auto a = rpc.answer(bad);
        check_error(a, -32700);
        CHECK(a["id"].is_null());
    }
    CHECK(rpc.answer(message)["id"] == 1);
}

TEST_CASE("a message of more values than the limit is refused before parsing, a larger batch before running") {
    Rpc rpc;
    const auto n = jsonrpc::Dispatcher::max_values;
    // A million empty objects: parsed, over 100 MB; each answered -32600, far more.
    std::string objects = "[{}";
    for (std::size_t i = 1; i < 1000000; ++i) objects += ",{}";
    auto a = rpc.answer(objects + "]");
    check_error(a, -32700);
    CHECK(a["error"]["data"]["limitValues"] == n);
    std::string numbers = R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":[0)";
    for (std::size_t i = 1; i < n; ++i) numbers += ",0";
    CHECK(rpc.answer(numbers + "]}}")["error"]["data"]["limitValues"] == n);

    const auto batch = [](std::size_t size) {
        std::string text = "[";
        for (std::size_t i = 0; i < size; ++i) text += (i ? "," : "") + std::string(R"({"jsonrpc":"2.0","method":"note"})");
        return text + "]";
    };
    a = rpc.answer(batch(jsonrpc::Dispatcher::max_batch + 1));
    check_error(a, -32600);
    CHECK(a["id"].is_null());
    CHECK(a["error"]["data"]["limitMessages"] == jsonrpc::Dispatcher::max_batch);
    CHECK(rpc.notified.empty());  // none of it ran
    CHECK_FALSE(rpc.raw(batch(jsonrpc::Dispatcher::max_batch)).has_value());
    CHECK(rpc.notified.size() == jsonrpc::Dispatcher::max_batch);
}

TEST_CASE("invalid requests: -32600") {
    Rpc rpc;
    SUBCASE("wrong jsonrpc version") {
        const auto a = rpc.answer(R"({"jsonrpc":"1.0","id":1,"method":"echo"})");
        check_error(a, -32600);
        CHECK(a["id"] == 1);
        check_error(rpc.answer(R"({"id":1,"method":"echo"})"), -32600);
    }
    SUBCASE("missing or non-string method") {
        check_error(rpc.answer(R"({"jsonrpc":"2.0","id":1})"), -32600);
        check_error(rpc.answer(R"({"jsonrpc":"2.0","id":1,"method":42})"), -32600);
    }
    SUBCASE("not an object") {
        for (std::string line : {"42", R"("echo")", "null", "true"}) {
            CAPTURE(line);
            const auto a = rpc.answer(line);
            check_error(a, -32600);
            CHECK(a["id"].is_null());
        }
    }
    SUBCASE("null, fractional or structured id") {
        for (std::string line : {R"({"jsonrpc":"2.0","id":null,"method":"echo"})",
                                 R"({"jsonrpc":"2.0","id":{"a":1},"method":"echo"})",
                                 R"({"jsonrpc":"2.0","id":[1],"method":"echo"})"}) {
            CAPTURE(line);
            const auto a = rpc.answer(line);
            check_error(a, -32600);
            CHECK(a["id"].is_null());
        }
    }
    SUBCASE("params neither object nor array") {
        check_error(rpc.answer(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":"x"})"), -32600);
    }
    SUBCASE("empty batch: one error, not an array") {
        const auto a = rpc.answer("[]");
        CHECK(a.is_object());
        check_error(a, -32600);
        CHECK(a["id"].is_null());
    }
    // Whatever was wrong, the next request is served.
    CHECK(rpc.answer(R"({"jsonrpc":"2.0","id":9,"method":"echo"})").contains("result"));
}

TEST_CASE("a jsonrpc member that is not a string is an invalid request, not a crash") {
    Rpc rpc;
    for (std::string line : {R"({"jsonrpc":2.0,"id":1,"method":"echo"})", R"({"jsonrpc":null,"id":1,"method":"echo"})",
                             R"({"jsonrpc":["2.0"],"id":1,"method":"echo"})"}) {
        CAPTURE(line);
        std::optional<std::string> out;
        CHECK_NOTHROW(out = rpc.raw(line));
        REQUIRE(out.has_value());
        check_error(json::parse(*out), -32600);
    }
    SUBCASE("inside a batch, the other requests are still answered") {
        std::optional<std::string> out;
        CHECK_NOTHROW(out = rpc.raw(R"([{"jsonrpc":2.0,"id":1,"method":"echo"},{"jsonrpc":"2.0","id":2,"method":"echo"}])"));
        REQUIRE(out.has_value());
        const auto a = json::parse(*out);
        REQUIRE(a.is_array());
        REQUIRE(a.size() == 2);
        CHECK(a[0]["error"]["code"] == -32600);
        CHECK(a[1]["id"] == 2);
        CHECK(a[1].contains("result"));
    }
}

TEST_CASE("an unknown method: -32601 with the id echoed") {
    Rpc rpc;
    auto a = rpc.answer(R"({"jsonrpc":"2.0","id":"probe-1","method":"server/discover","params":{}})");
    check_error(a, -32601);
    CHECK(a["id"] == "probe-1");
    a = rpc.answer(R"({"jsonrpc":"2.0","id":12,"method":"nope"})");
    check_error(a, -32601);
    CHECK(a["id"] == 12);
}

TEST_CASE("notifications are never answered") {
    Rpc rpc;
    CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","method":"note","params":{"n":1}})").has_value());
    REQUIRE(rpc.notified.size() == 1);
    CHECK(rpc.notified[0] == json{{"n", 1}});
    CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","method":"unknown/notification"})").has_value());
    CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","method":"note_fails"})").has_value());
    // Even a known method called as a notification gets no answer.
    CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","method":"echo"})").has_value());
    CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","method":"fail"})").has_value());
    // A response to a request the server never made is not answered either.
    CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","id":5,"result":{}})").has_value());
}

TEST_CASE("a batch answers only its requests") {
    Rpc rpc;
    const auto a = rpc.answer(R"([
        {"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1}},
        {"jsonrpc":"2.0","method":"note","params":{"n":2}},
        {"jsonrpc":"2.0","id":"b","method":"nope"},
        {"jsonrpc":"2.0","method":"nope"},
        42,
        {"jsonrpc":"2.0","id":3,"method":"echo","params":{"n":3}}
    ])");
    REQUIRE(a.is_array());
    REQUIRE(a.size() == 4);
    CHECK(a[0]["id"] == 1);
    CHECK(a[0]["result"]["params"]["n"] == 1);
    CHECK(a[1]["id"] == "b");
    CHECK(a[1]["error"]["code"] == -32601);
    CHECK(a[2]["id"].is_null());
    CHECK(a[2]["error"]["code"] == -32600);
    CHECK(a[3]["id"] == 3);
    CHECK(a[3]["result"]["params"]["n"] == 3);
    CHECK(rpc.notified.size() == 1);

    SUBCASE("a batch of notifications only: no answer at all") {
        CHECK_FALSE(rpc.raw(R"([{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","method":"note"}])").has_value());
        CHECK(rpc.notified.size() == 3);
    }
}

TEST_CASE("a method's own errors") {
    Rpc rpc;
    SUBCASE("a crash is -32603 with a generic message that leaks nothing") {
        const auto line = rpc.raw(R"({"jsonrpc":"2.0","id":4,"method":"fail"})");
        REQUIRE(line.has_value());
        CHECK(line->find("hunter2") == std::string::npos);
        CHECK(line->find("/home/secret") == std::string::npos);
        CHECK(line->find("disk I/O") == std::string::npos);
        const auto a = json::parse(*line);
        check_error(a, -32603);
        CHECK(a["id"] == 4);
    }
    SUBCASE("jsonrpc::Error keeps its code, message and data") {
        const auto a = rpc.answer(R"({"jsonrpc":"2.0","id":5,"method":"refuse"})");
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "UNIT_NOT_FOUND");
        CHECK(a["error"]["data"] == json{{"detail", "No such unit."}});
    }
    SUBCASE("NoResponse means no answer") {
        CHECK_FALSE(rpc.raw(R"({"jsonrpc":"2.0","id":6,"method":"silent"})").has_value());
    }
    CHECK(rpc.answer(R"({"jsonrpc":"2.0","id":7,"method":"echo"})").contains("result"));
}

// ---------------------------------------------------------------------------------------------
// MCP lifecycle

TEST_CASE("initialize negotiates the protocol version") {
    Mcp m;
    for (const char* version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
        CAPTURE(version);
        const auto a = m.request("initialize", {{"protocolVersion", version},
                                                {"capabilities", json::object()},
                                                {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
        REQUIRE(a.contains("result"));
        CHECK(a["result"]["protocolVersion"] == version);
        CHECK(a["result"]["serverInfo"]["name"] == "syndic-mcp");
        CHECK(a["result"]["serverInfo"]["version"].is_string());
        CHECK(a["result"]["capabilities"].contains("tools"));
    }
    SUBCASE("an unknown version is answered with the latest") {
        const auto a = m.request("initialize", {{"protocolVersion", "1999-01-01"}, {"capabilities", json::object()}});
        CHECK(a["result"]["protocolVersion"] == "2025-11-25");
    }
    SUBCASE("no version at all is answered with the latest") {
        const auto a = m.request("initialize", json::object());
        CHECK(a["result"]["protocolVersion"] == "2025-11-25");
    }
    CHECK(supported_protocol_version("2025-06-18"));
    CHECK_FALSE(supported_protocol_version("2025-01-01"));
}

TEST_CASE("initialized, ping and an unknown method") {
    Mcp m;
    CHECK_FALSE(m.line({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).has_value());
    CHECK(m.request("ping")["result"] == json::object());
    const auto a = m.request("server/discover", json::object());
    check_error(a, -32601);
    CHECK(m.sent.empty());
}

// ---------------------------------------------------------------------------------------------
// tools/list

TEST_CASE("tools/list: every descriptor, no credentials needed") {
    Mcp m;  // no API key at all
    const auto a = m.request("tools/list");
    REQUIRE(a.contains("result"));
    const auto& tools = a["result"]["tools"];
    REQUIRE(tools.is_array());
    CHECK(tools.size() == catalogue().size());
    CHECK_FALSE(a["result"].contains("nextCursor"));
    std::set<std::string> names;
    for (const auto& t : tools) {
        CAPTURE(t.value("name", "?"));
        for (const char* key : {"name", "title", "description"}) {
            REQUIRE(t.contains(key));
            CHECK(t[key].is_string());
            CHECK_FALSE(t[key].get<std::string>().empty());
        }
        for (const char* key : {"inputSchema", "outputSchema", "annotations"}) {
            REQUIRE(t.contains(key));
            CHECK(t[key].is_object());
        }
        CHECK(t["inputSchema"]["type"] == "object");
        names.insert(t["name"].get<std::string>());
    }
    const auto expected = catalogue_names();
    CHECK(names == std::set<std::string>(expected.begin(), expected.end()));
    for (const char* name : {"list_co_owners", "get_co_owner", "create_co_owner", "update_co_owner", "delete_co_owner",
                             "restore_co_owner", "bulk_create_co_owners", "list_units", "get_unit", "create_unit",
                             "update_unit", "delete_unit", "get_fraction_sum", "rebalance_fractions"})
        CHECK_MESSAGE(names.count(name) == 1, name);
}

TEST_CASE("tools/list pages: the cursors walk every tool exactly once") {
    Mcp m(Mcp::with_key("", 5));
    std::vector<std::string> walked;
    std::vector<std::size_t> page_sizes;
    json cursor = nullptr;
    for (int pages = 0; pages < 100; ++pages) {
        const auto a = cursor.is_null() ? m.request("tools/list", json::object())
                                        : m.request("tools/list", {{"cursor", cursor}});
        REQUIRE(a.contains("result"));
        page_sizes.push_back(a["result"]["tools"].size());
        for (const auto& t : a["result"]["tools"]) walked.push_back(t["name"]);
        if (!a["result"].contains("nextCursor")) break;
        cursor = a["result"]["nextCursor"];
        CHECK(cursor.is_string());
    }
    std::vector<std::size_t> expected_pages;  // pages of 5, the last one holding what is left
    for (std::size_t left = catalogue().size(); left > 0; left -= std::min<std::size_t>(5, left))
        expected_pages.push_back(std::min<std::size_t>(5, left));
    CHECK(page_sizes == expected_pages);
    CHECK(walked.size() == catalogue().size());
    CHECK(std::set<std::string>(walked.begin(), walked.end()).size() == catalogue().size());

    // The pages are the one-page list, in the same order.
    Mcp whole;
    std::vector<std::string> all;
    const auto whole_list = whole.request("tools/list");
    for (const auto& t : whole_list["result"]["tools"]) all.push_back(t["name"]);
    CHECK(walked == all);

    SUBCASE("a bad cursor is -32602") {
        for (const json& bad : {json("abc"), json("999"), json(5), json("-1"), json("3x"), json("")}) {
            CAPTURE(bad.dump());
            check_error(m.request("tools/list", {{"cursor", bad}}), -32602);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// tools/call

TEST_CASE("tools/call of an unknown tool: -32602 UNKNOWN_TOOL") {
    Mcp m(Mcp::with_key("sk_whatever"));
    auto a = m.call("no_such_tool");
    check_error(a, -32602);
    CHECK(a["error"]["message"] == "UNKNOWN_TOOL");
    SUBCASE("also without credentials") {
        Mcp anonymous;
        a = anonymous.call("list_spaceships");
        check_error(a, -32602);
        CHECK(a["error"]["message"] == "UNKNOWN_TOOL");
    }
    SUBCASE("a tool outside the offered modules is unknown too") {
        Mcp units_only;
        ToolRegistry subset(all_tool_handlers(), {"units"});
        McpServer server(subset, [&]() -> Database& { return *units_only.db; }, units_only.clock,
                         Mcp::with_key(admin_key(units_only)), [](const std::string&) {});
        jsonrpc::Dispatcher d;
        server.attach(d);
        auto out = d.handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_co_owners"}})");
        REQUIRE(out.has_value());
        a = json::parse(*out);
        check_error(a, -32602);
        CHECK(a["error"]["message"] == "UNKNOWN_TOOL");
        out = d.handle(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_units"}})");
        REQUIRE(out.has_value());
        CHECK(json::parse(*out).contains("result"));
        out = d.handle(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})");
        REQUIRE(out.has_value());
        CHECK(json::parse(*out)["result"]["tools"].size() == 5);
    }
}

TEST_CASE("tools/call without params.name is -32602") {
    Mcp m(Mcp::with_key("sk_x"));
    check_error(m.request("tools/call", json::object()), -32602);
    check_error(m.request("tools/call", {{"name", 5}}), -32602);
}

TEST_CASE("tools/call without valid credentials: NOT_AUTHENTICATED") {
    SUBCASE("no key") {
        Mcp m;
        const auto a = m.call("list_units");
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "NOT_AUTHENTICATED");
        REQUIRE(a["error"].contains("data"));
        CHECK(a["error"]["data"]["detail"].is_string());
        CHECK_FALSE(a["error"]["data"]["detail"].get<std::string>().empty());
    }
    SUBCASE("an empty key") {
        Mcp m(Mcp::with_key(""));
        const auto a = m.call("list_units");
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "NOT_AUTHENTICATED");
    }
    SUBCASE("an unknown key") {
        Mcp m(Mcp::with_key("sk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"));
        const auto a = m.call("list_units");
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "NOT_AUTHENTICATED");
        CHECK(a["error"]["data"]["detail"].is_string());
    }
    SUBCASE("a revoked key") {
        Mcp probe;
        const auto key = issue_api_key(*probe.db, probe.clock, probe.syndicate, Role::admin, {"*"}, "k");
        REQUIRE(revoke_api_key(*probe.db, probe.clock, key.id));
        McpServer server(probe.registry, [&]() -> Database& { return *probe.db; }, probe.clock,
                         Mcp::with_key(key.secret), [](const std::string&) {});
        jsonrpc::Dispatcher d;
        server.attach(d);
        const auto out = d.handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_units"}})");
        REQUIRE(out.has_value());
        const auto a = json::parse(*out);
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "NOT_AUTHENTICATED");
    }
}

TEST_CASE("tools/call with a key: the result as text and as structuredContent") {
    Mcp probe;
    const std::string key = admin_key(probe);
    // The server reads its key from options; build one that holds it, on the same database.
    McpServer server(probe.registry, [&]() -> Database& { return *probe.db; }, probe.clock, Mcp::with_key(key),
                     [](const std::string&) {});
    jsonrpc::Dispatcher d;
    server.attach(d);
    auto call = [&](int id, const std::string& tool, const json& args) {
        const auto out = d.handle(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
                                       {"params", {{"name", tool}, {"arguments", args}}}}
                                      .dump());
        REQUIRE(out.has_value());
        auto a = json::parse(*out);
        CHECK(a["id"] == id);
        return a;
    };

    // No initialize first: a bare tools/call is answered.
    auto a = call(1, "create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 12.5}});
    REQUIRE_MESSAGE(a.contains("result"), a.dump());
    const auto& result = a["result"];
    REQUIRE(result["content"].is_array());
    REQUIRE(result["content"].size() == 1);
    CHECK(result["content"][0]["type"] == "text");
    REQUIRE(result["content"][0]["text"].is_string());
    CHECK(json::parse(result["content"][0]["text"].get<std::string>()) == result["structuredContent"]);
    CHECK(result["structuredContent"]["number"] == "101");
    CHECK(result["structuredContent"]["fractionPercent"] == 12.5);
    CHECK_FALSE(result.value("isError", false));
    CHECK(count(*probe.db, "units") == 1);

    a = call(2, "get_fraction_sum", json::object());
    REQUIRE(a.contains("result"));
    CHECK(json::parse(a["result"]["content"][0]["text"].get<std::string>()) == a["result"]["structuredContent"]);
    CHECK(a["result"]["structuredContent"]["sum"] == 12.5);
    CHECK(a["result"]["structuredContent"]["unitCount"] == 1);

    SUBCASE("arguments may be absent") {
        const auto out = d.handle(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_units"}})");
        REQUIRE(out.has_value());
        const auto l = json::parse(*out);
        REQUIRE(l.contains("result"));
        CHECK(l["result"]["structuredContent"]["data"].size() == 1);
    }
    SUBCASE("a domain error: -32000, the code as message, detail and field in data") {
        a = call(4, "get_unit", {{"id", "no-such-unit"}});
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "UNIT_NOT_FOUND");
        CHECK(a["error"]["data"]["detail"].is_string());
        CHECK_FALSE(a["error"]["data"]["detail"].get<std::string>().empty());
        CHECK(a["error"]["data"]["field"] == "/id");
    }
    SUBCASE("a duplicate: the field at fault") {
        a = call(5, "create_unit", {{"number", "101"}, {"type", "apartment"}});
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "DUPLICATE_UNIT_NUMBER");
        CHECK(a["error"]["data"]["field"] == "/number");
        CHECK(count(*probe.db, "units") == 1);
    }
    SUBCASE("a schema rejection: VALIDATION_FAILED with data.errors") {
        a = call(6, "list_units", {{"pageSize", "ten"}});
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "VALIDATION_FAILED");
        CHECK(a["error"]["data"]["field"] == "/pageSize");
        REQUIRE(a["error"]["data"]["errors"].is_array());
        REQUIRE_FALSE(a["error"]["data"]["errors"].empty());
        CHECK(a["error"]["data"]["errors"][0]["field"] == "/pageSize");
        CHECK(a["error"]["data"]["errors"][0]["reason"].is_string());
    }
    SUBCASE("a figure: FRACTION_SUM_OUT_OF_RANGE carries the sums") {
        call(7, "create_unit", {{"number", "102"}, {"type", "apartment"}, {"fractionPercent", 87.5}});
        a = call(8, "create_unit", {{"number", "103"}, {"type", "apartment"}, {"fractionPercent", 5}});
        check_error(a, -32000);
        CHECK(a["error"]["message"] == "FRACTION_SUM_OUT_OF_RANGE");
        CHECK(a["error"]["data"]["currentSum"] == 100);
        CHECK(a["error"]["data"]["resultingSum"] == 105);
    }
}

TEST_CASE("tools/call with too few scopes: INSUFFICIENT_SCOPE with requiredScope") {
    Mcp probe;
    const std::string key = admin_key(probe, {"read:co-owners"}, Role::member);
    McpServer server(probe.registry, [&]() -> Database& { return *probe.db; }, probe.clock, Mcp::with_key(key),
                     [](const std::string&) {});
    jsonrpc::Dispatcher d;
    server.attach(d);
    auto out = d.handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_unit","arguments":{"number":"1","type":"apartment"}}})");
    REQUIRE(out.has_value());
    auto a = json::parse(*out);
    check_error(a, -32000);
    CHECK(a["error"]["message"] == "INSUFFICIENT_SCOPE");
    CHECK(a["error"]["data"]["requiredScope"] == "write:co-owners");
    CHECK(count(*probe.db, "units") == 0);

    out = d.handle(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_units"}})");
    REQUIRE(out.has_value());
    CHECK(json::parse(*out).contains("result"));
}

// ---------------------------------------------------------------------------------------------
// Cancellation and progress

TEST_CASE("cancellation") {
    Mcp probe;
    const std::string key = admin_key(probe);
    std::vector<std::string> sent;
    std::function<void(const std::string&)> hook;
    McpServer server(probe.registry, [&]() -> Database& { return *probe.db; }, probe.clock, Mcp::with_key(key),
                     [&](const std::string& l) {
                         sent.push_back(l);
                         if (hook) hook(l);
                     });
    jsonrpc::Dispatcher d;
    server.attach(d);
    auto feed = [&](const json& message) {
        const auto text = message.dump();
        server.peek(text);
        return d.handle(text);
    };
    const json cancel_7 = {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                           {"params", {{"requestId", 7}, {"reason", "timeout"}}}};
    const json create_7 = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"},
                           {"params", {{"name", "create_unit"}, {"arguments", {{"number", "1"}, {"type", "apartment"}}}}}};

    SUBCASE("a request cancelled before it is handled gets no answer at all and changes nothing") {
        CHECK_FALSE(feed(cancel_7).has_value());
        CHECK_FALSE(feed(create_7).has_value());
        CHECK(count(*probe.db, "units") == 0);
        CHECK(sent.empty());

        // The id is free again once that request is over.
        const auto out = feed(create_7);
        REQUIRE(out.has_value());
        CHECK(json::parse(*out).contains("result"));
        CHECK(count(*probe.db, "units") == 1);
    }
    SUBCASE("cancelling another id does not affect this one") {
        CHECK_FALSE(feed({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 8}}}})
                        .has_value());
        CHECK_FALSE(feed({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", "7"}}}})
                        .has_value());  // the string "7" is not the number 7
        const auto out = feed(create_7);
        REQUIRE(out.has_value());
        CHECK(json::parse(*out).contains("result"));
    }
    SUBCASE("a bulk call cancelled while it runs: no answer, nothing created") {
        const auto unit = probe.registry.call("create_unit", {{"number", "1"}, {"type", "apartment"}},
                                              CallerContext{probe.syndicate, "k", {"*"}, Role::admin}, *probe.db,
                                              probe.clock);
        json rows = json::array();
        for (int i = 0; i < 120; ++i)
            rows.push_back({{"unitId", unit["id"]}, {"firstName", "P" + std::to_string(i)}, {"lastName", "Tremblay"}});
        // The client gives up as soon as the first progress notification arrives.
        hook = [&](const std::string&) { server.peek(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"},
                                                           {"params", {{"requestId", "bulk"}}}}.dump()); };
        const auto out = feed({{"jsonrpc", "2.0"}, {"id", "bulk"}, {"method", "tools/call"},
                               {"params", {{"name", "bulk_create_co_owners"}, {"arguments", {{"coOwners", rows}}},
                                           {"_meta", {{"progressToken", "p"}}}}}});
        CHECK_FALSE(out.has_value());
        CHECK(sent.size() == 1);  // the one progress notification that triggered the cancel
        CHECK(count(*probe.db, "co_owners") == 0);
    }
}

TEST_CASE("progress: a progressToken on bulk_create_co_owners gives notifications/progress before the answer") {
    Mcp probe;
    const std::string key = admin_key(probe);
    std::vector<std::string> events;  // notifications and the answer, in the order they are written
    McpServer server(probe.registry, [&]() -> Database& { return *probe.db; }, probe.clock, Mcp::with_key(key),
                     [&](const std::string& l) { events.push_back(l); });
    jsonrpc::Dispatcher d;
    server.attach(d);
    const auto unit = probe.registry.call("create_unit", {{"number", "1"}, {"type", "apartment"}},
                                          CallerContext{probe.syndicate, "k", {"*"}, Role::admin}, *probe.db,
                                          probe.clock);
    json rows = json::array();
    for (int i = 0; i < 120; ++i)
        rows.push_back({{"unitId", unit["id"]}, {"firstName", "P" + std::to_string(i)}, {"lastName", "Gagnon"}});

    SUBCASE("with a token") {
        const auto out = d.handle(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
                                       {"params", {{"name", "bulk_create_co_owners"},
                                                   {"arguments", {{"coOwners", rows}}},
                                                   {"_meta", {{"progressToken", "tok-1"}}}}}}
                                      .dump());
        REQUIRE(out.has_value());
        events.push_back(*out);
        REQUIRE(events.size() >= 2);
        double last = 0;
        for (std::size_t i = 0; i + 1 < events.size(); ++i) {
            const auto n = json::parse(events[i]);
            CHECK(n["jsonrpc"] == "2.0");
            CHECK(n["method"] == "notifications/progress");
            CHECK_FALSE(n.contains("id"));
            CHECK(n["params"]["progressToken"] == "tok-1");
            CHECK(n["params"]["total"] == 120);
            CHECK(n["params"]["progress"].get<double>() > last);  // progress only grows
            last = n["params"]["progress"];
        }
        CHECK(last == 120);
        const auto answer = json::parse(events.back());
        CHECK(answer["id"] == 1);
        REQUIRE(answer.contains("result"));
        CHECK(answer["result"]["structuredContent"]["createdCount"] == 120);
        CHECK(count(*probe.db, "co_owners") == 120);
    }
    SUBCASE("an integer token is echoed as an integer") {
        const auto out = d.handle(json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
                                       {"params", {{"name", "bulk_create_co_owners"},
                                                   {"arguments", {{"coOwners", json::array({rows[0]})}}},
                                                   {"_meta", {{"progressToken", 42}}}}}}
                                      .dump());
        REQUIRE(out.has_value());
        REQUIRE(events.size() == 1);
        CHECK(json::parse(events[0])["params"]["progressToken"] == 42);
        CHECK(json::parse(events[0])["params"]["progress"] == 1);
    }
    SUBCASE("without a token, no notifications") {
        const auto out = d.handle(json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"},
                                       {"params", {{"name", "bulk_create_co_owners"}, {"arguments", {{"coOwners", rows}}}}}}
                                      .dump());
        REQUIRE(out.has_value());
        CHECK(json::parse(*out).contains("result"));
        CHECK(events.empty());
    }
}


TEST_CASE("tool_result_text: the text is the result, escaped eight bytes at a time") {
    // Results of every length from 0 to 40 bytes of content (so every tail the word-at-a-time
    // scan can end on), with quotes and backslashes at every position.
    for (std::size_t length = 0; length <= 40; ++length) {
        for (std::size_t at = 0; at <= length; ++at) {
            std::string value(length, 'x');
            if (at < length) value[at] = at % 2 ? '"' : '\\';
            const json result = {{"v", value}, {"n", length}};
            const std::string dumped = result.dump();
            const json wrapped = json::parse(tool_result_text(dumped));
            REQUIRE(wrapped["content"][0]["type"] == "text");
            REQUIRE(wrapped["content"][0]["text"] == dumped);
            REQUIRE(wrapped["structuredContent"] == result);
        }
    }
}

}
