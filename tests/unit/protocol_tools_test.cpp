// mcp/'s tools: tools/list with cursors, tools/call with credentials and errors, cancellation and
// progress, driven line by line the way the stdio transport drives them.
#include "protocol_fixture.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace protocol_tools_test {

using namespace syndic;
using namespace syndic::test;
using namespace syndic::test::protocol;
using nlohmann::json;

TEST_SUITE("protocol") {

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

}  // namespace protocol_tools_test
