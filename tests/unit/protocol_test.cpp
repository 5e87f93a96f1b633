// jsonrpc/ (envelopes, ids, batches, standard error codes) and mcp/'s lifecycle (initialize,
// initialized, ping), driven line by line the way the stdio transport drives them.
#include "protocol_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace protocol_test {

using namespace syndic;
using namespace syndic::test;
using namespace syndic::test::protocol;
using nlohmann::json;

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

}  // TEST_SUITE

}  // namespace protocol_test
