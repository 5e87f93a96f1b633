// The one error path (issue 16, points 4, 5 and 6): the dispatcher reports the errors it wrote as
// values (batches included); --tool-errors result answers a tool's refusal as an isError result
// while protocol errors stay JSON-RPC errors; tools/list shows the tools the caller may call.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/refusals.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace error_path_test {

using namespace syndic;
using nlohmann::json;

namespace {

// An McpServer on an in-memory database, wired to a dispatcher as the stdio server wires it.
struct Server {
    std::unique_ptr<Database> db = Database::open(":memory:");
    FixedClock clock{*parse_iso_instant("2026-11-21T15:00:00Z")};
    ToolRegistry registry{all_tool_handlers()};
    std::string syndicate = create_syndicate(*db, clock, "Syndicat A", false);
    jsonrpc::Dispatcher dispatcher;
    std::unique_ptr<McpServer> mcp;

    std::string key(std::vector<std::string> scopes, Role role) {
        return issue_api_key(*db, clock, syndicate, role, std::move(scopes), "test").secret;
    }
    void start(McpOptions options) {
        mcp = std::make_unique<McpServer>(registry, [this]() -> Database& { return *db; }, clock, std::move(options),
                                          [](const std::string&) {});
        mcp->attach(dispatcher);
    }
    json answer(const std::string& line) {
        const auto out = dispatcher.handle(line);
        REQUIRE(out.has_value());
        return json::parse(*out);
    }
    std::set<std::string> listed(std::size_t page_size_hint = 0) {
        std::set<std::string> names;
        json cursor = nullptr;
        for (int pages = 0; pages < 100; ++pages) {
            json message = {{"jsonrpc", "2.0"}, {"id", pages}, {"method", "tools/list"}};
            if (!cursor.is_null()) message["params"] = {{"cursor", cursor}};
            const auto a = answer(message.dump());
            REQUIRE(a.contains("result"));
            const auto& tools = a["result"]["tools"];
            if (page_size_hint) CHECK(tools.size() <= page_size_hint);
            for (const auto& t : tools) CHECK(names.insert(t["name"].get<std::string>()).second);
            if (!a["result"].contains("nextCursor")) break;
            cursor = a["result"]["nextCursor"];
        }
        return names;
    }
};

std::string call(const std::string& tool, const json& args, int id = 1) {
    return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", {{"name", tool}, {"arguments", args}}}}.dump();
}

}  // namespace

TEST_SUITE("error path") {

TEST_CASE("the dispatcher reports each error it wrote as a value, in a batch too") {
    Server s;
    s.start(McpOptions{.api_key = s.key({"read:co-owners"}, Role::member)});

    SUBCASE("a domain refusal carries its DomainError, with its figures") {
        const auto a = s.dispatcher.answer(call("create_unit", {{"number", "9"}, {"type", "storage"}}));
        REQUIRE(a.text.has_value());
        CHECK(a.answered == 1);
        REQUIRE(a.refusals.size() == 1);
        CHECK(a.refusals[0].code == -32000);
        REQUIRE(a.refusals[0].cause);
        CHECK(a.refusals[0].cause->code() == codes::insufficient_scope);
        CHECK(credential_refusal(*a.refusals[0].cause));
    }
    SUBCASE("protocol errors carry none") {
        const auto a = s.dispatcher.answer(R"({"jsonrpc":"2.0","id":1,"method":"no/such"})");
        REQUIRE(a.refusals.size() == 1);
        CHECK(a.refusals[0].code == jsonrpc::method_not_found);
        CHECK_FALSE(a.refusals[0].cause);
        const auto parse = s.dispatcher.answer("{not json");
        REQUIRE(parse.refusals.size() == 1);
        CHECK(parse.refusals[0].code == jsonrpc::parse_error);
    }
    SUBCASE("a batch: one entry per error, none for results and notifications") {
        const std::string batch = "[" + call("list_units", json::object(), 1) + "," + call("get_unit", {{"id", "nope"}}, 2) + "," +
                                  R"({"jsonrpc":"2.0","method":"notifications/initialized"},)" +
                                  call("delete_co_owner", {{"id", "x"}}, 3) + "]";
        const auto a = s.dispatcher.answer(batch);
        REQUIRE(a.text.has_value());
        CHECK(json::parse(*a.text).size() == 3);
        CHECK(a.answered == 3);
        REQUIRE(a.refusals.size() == 2);
        REQUIRE(a.refusals[0].cause);
        CHECK(a.refusals[0].cause->code() == codes::unit_not_found);
        CHECK_FALSE(credential_refusal(*a.refusals[0].cause));
        REQUIRE(a.refusals[1].cause);
        CHECK(a.refusals[1].cause->code() == codes::insufficient_scope);
    }
    SUBCASE("notifications only: no text, nothing answered") {
        const auto a = s.dispatcher.answer(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])");
        CHECK_FALSE(a.text.has_value());
        CHECK(a.answered == 0);
        CHECK(a.refusals.empty());
    }
}

TEST_CASE("--tool-errors result: a tool's refusal is an isError result, protocol errors stay errors") {
    Server s;
    McpOptions options{.api_key = s.key({"*"}, Role::admin)};
    options.tool_errors = ToolErrors::result;
    s.start(options);

    SUBCASE("a refusal: the code and the explanation in the text, the whole error as JSON beside it") {
        const auto a = s.answer(call("get_unit", {{"id", "nope"}}));
        REQUIRE(a.contains("result"));
        const auto& r = a["result"];
        CHECK(r["isError"] == true);
        CHECK_FALSE(r.contains("structuredContent"));  // SDK clients would check it against outputSchema
        REQUIRE(r["content"].size() == 2);
        CHECK(r["content"][0]["type"] == "text");
        CHECK(r["content"][0]["text"].get<std::string>() == "UNIT_NOT_FOUND: No unit with id nope in this syndicate. (field /id)");
        const auto data = json::parse(r["content"][1]["text"].get<std::string>());
        CHECK(data["code"].get<std::string>() == "UNIT_NOT_FOUND");
        CHECK(data["field"].get<std::string>() == "/id");
        CHECK(data["detail"].is_string());
    }
    SUBCASE("figures and field errors ride along") {
        const auto a = s.answer(call("create_unit", {{"type", "storage"}}));
        const auto data = json::parse(a["result"]["content"][1]["text"].get<std::string>());
        CHECK(data["code"].get<std::string>() == "VALIDATION_FAILED");
        CHECK(data["errors"].is_array());
        CHECK_FALSE(data["errors"].empty());
    }
    SUBCASE("the refusal is not counted as an error by the dispatcher (it is a result)") {
        const auto a = s.dispatcher.answer(call("get_unit", {{"id", "nope"}}));
        CHECK(a.refusals.empty());
    }
    SUBCASE("an unknown tool, an unknown method and a missing name stay JSON-RPC errors") {
        CHECK(s.answer(call("launch_rocket", json::object()))["error"]["code"] == jsonrpc::invalid_params);
        CHECK(s.answer(R"({"jsonrpc":"2.0","id":1,"method":"no/such"})")["error"]["code"] == jsonrpc::method_not_found);
        CHECK(s.answer(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}})")["error"]["code"] == jsonrpc::invalid_params);
    }
    SUBCASE("a success is unchanged") {
        const auto a = s.answer(call("list_units", json::object()));
        CHECK_FALSE(a["result"].contains("isError"));
        CHECK(a["result"].contains("structuredContent"));
    }
}

TEST_CASE("--tool-errors result over HTTP keeps credential refusals JSON-RPC errors (401/403 with a challenge)") {
    Server s;
    const std::string reader = s.key({"read:co-owners"}, Role::member);
    McpOptions options;
    options.caller = [&]() -> std::optional<CallerContext> { return authenticate(*s.db, reader); };
    options.tool_errors = ToolErrors::result;
    options.credential_errors_stay = true;
    s.start(options);
    CHECK(s.dispatcher.answer(call("create_unit", {{"number", "1"}, {"type", "storage"}})).refusals.size() == 1);
    CHECK(s.answer(call("create_unit", {{"number", "1"}, {"type", "storage"}}))["error"]["message"] == "INSUFFICIENT_SCOPE");
    CHECK(s.answer(call("get_unit", {{"id", "nope"}}))["result"]["isError"] == true);
}

TEST_CASE("tools/list shows the tools the caller's key may call") {
    Server s;
    const auto& all = s.registry.tools();
    std::set<std::string> reads, everything;
    for (const auto& t : all) {
        everything.insert(t.name);
        if (t.required_scope == "read:co-owners" && !t.admin_only) reads.insert(t.name);
    }
    REQUIRE_FALSE(reads.empty());

    SUBCASE("a member key with one read scope: only that scope's tools, over every page") {
        auto options = McpOptions{.api_key = s.key({"read:co-owners"}, Role::member)};
        options.tools_page_size = 2;
        s.start(options);
        CHECK(s.listed(2) == reads);
        SUBCASE("a hidden tool is still refused for its scope or role, not unknown") {
            CHECK(s.answer(call("create_unit", {{"number", "1"}, {"type", "storage"}}))["error"]["message"] == "INSUFFICIENT_SCOPE");
        }
    }
    SUBCASE("a member key with every scope: admin-only tools hidden, and refused ADMIN_REQUIRED") {
        s.start(McpOptions{.api_key = s.key({"*"}, Role::member)});
        const auto names = s.listed();
        std::set<std::string> expected;
        for (const auto& t : all)
            if (!t.admin_only) expected.insert(t.name);
        CHECK(names == expected);
        CHECK(names.count("delete_co_owner") == 0);
        CHECK(s.answer(call("delete_co_owner", {{"id", "x"}}))["error"]["message"] == "ADMIN_REQUIRED");
    }
    SUBCASE("an admin key sees everything") {
        s.start(McpOptions{.api_key = s.key({"*"}, Role::admin)});
        CHECK(s.listed() == everything);
    }
    SUBCASE("no key, or an unknown one: the whole catalogue (the calls say what is wrong)") {
        s.start(McpOptions{.api_key = std::string("sk_unknownunknownunknownunknownunknown00")});
        CHECK(s.listed() == everything);
        Server bare;
        bare.start(McpOptions{});
        CHECK(bare.listed() == everything);
    }
    SUBCASE("a transport's caller (an HTTP bearer) filters the same way") {
        const std::string reader = s.key({"read:co-owners"}, Role::member);
        McpOptions options;
        options.caller = [&]() -> std::optional<CallerContext> { return authenticate(*s.db, reader); };
        s.start(options);
        CHECK(s.listed() == reads);
    }
}

TEST_CASE("what tools/list shows for a caller is what the registry lets that caller call") {
    for (const auto& [scopes, role] : std::vector<std::pair<std::vector<std::string>, Role>>{
             {{"read:co-owners", "read:meetings"}, Role::member}, {{"write:co-owners"}, Role::admin}, {{"*"}, Role::member}}) {
        Server probe;
        const auto key = probe.key(scopes, role);
        probe.start(McpOptions{.api_key = key});
        const auto shown = probe.listed();
        const auto caller = *authenticate(*probe.db, key);
        for (const auto& t : probe.registry.tools()) {
            CAPTURE(t.name);
            bool permitted = true;
            try {
                probe.registry.call(t.name, json::object(), caller, *probe.db, probe.clock);
            } catch (const DomainError& e) {
                permitted = e.code() != codes::insufficient_scope && e.code() != codes::admin_required;
            }
            CHECK(shown.count(t.name) == (permitted ? 1u : 0u));
        }
    }
}

TEST_CASE("rest_error_body: the code, the detail as message, and the data beside them") {
    const auto body = rest_error_body(DomainError(codes::fraction_sum_out_of_range, "Too much.").at("/fractionPercent").with("resultingSum", 105.0));
    CHECK(body["error"]["code"].get<std::string>() == "FRACTION_SUM_OUT_OF_RANGE");
    CHECK(body["error"]["message"].get<std::string>() == "Too much.");
    CHECK(body["error"]["field"].get<std::string>() == "/fractionPercent");
    CHECK(body["error"]["resultingSum"] == 105.0);
    CHECK_FALSE(body["error"].contains("detail"));
}

}  // TEST_SUITE

}  // namespace error_path_test
