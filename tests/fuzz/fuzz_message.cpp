// The message path: bytes as JSON-RPC lines through the real Dispatcher and McpServer, as the
// stdio transport hands them over (peek, then handle), with an admin API key of syndicate A:
// depth check, parse, envelope, batches, initialize/ping/tools/list, tools/call, schema
// validation and the handlers, on the seeded in-memory database (world.hpp).
//
// An input is up to 8 lines, one message (or batch) each, all in one rolled-back transaction.
// Placeholders ("@u0", "@m1"...) in the arguments name seeded records.
//
// What must hold: every answer is one JSON value (an object, or an array for a batch) of valid
// JSON-RPC responses; no answer is "Internal error" (-32603: something threw what it should
// not); a refusal of a tool (-32000) carries a known code; the database stays whole.
#include <cstdint>
#include <string>
#include <string_view>

#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "tools/wire_error.hpp"
#include "world.hpp"

namespace {

using namespace syndic;
using namespace syndic::fuzz;

struct Server {
    World& w = world();
    McpServer mcp{w.registry, [this]() -> Database& { return *w.db; }, w.clock,
                  McpOptions{w.admin_secret, 4, {}}, [](const std::string& line) { check_notification(line); }};
    jsonrpc::Dispatcher dispatcher;

    Server() { mcp.attach(dispatcher); }

    static void check_notification(const std::string& line) {
        const json n = json::parse(line, nullptr, false);
        if (n.is_discarded() || !n.is_object() || n.value("jsonrpc", "") != "2.0" || !n.contains("method"))
            fail("a notification that is not JSON-RPC: " + line.substr(0, 500));
    }
};

bool integer_or_string_or_null(const json& id) { return id.is_null() || id.is_string() || id.is_number_integer(); }

void check_response(const json& r, const std::string& line) {
    if (!r.is_object() || r.value("jsonrpc", "") != "2.0" || !r.contains("id") || !integer_or_string_or_null(r["id"]))
        fail("not a JSON-RPC response: " + line.substr(0, 500));
    const bool has_result = r.contains("result"), has_error = r.contains("error");
    if (has_result == has_error) fail("a response needs exactly one of result and error: " + line.substr(0, 500));
    if (has_result) return;
    const auto& e = r["error"];
    if (!e.is_object() || !e.contains("code") || !e["code"].is_number_integer() || !e.contains("message") ||
        !e["message"].is_string())
        fail("a malformed error: " + line.substr(0, 500));
    const auto code = e["code"].get<int>();
    if (code == jsonrpc::internal_error) fail("an Internal error answer: " + line.substr(0, 500));
    if (code == domain_error_code && !known_tool_code(e["message"].get<std::string>()) &&
        e["message"] != codes::not_authenticated)
        fail("a refusal with an unknown code: " + line.substr(0, 500));
}

void check_answer(const std::string& answer) {
    const json a = json::parse(answer, nullptr, false);
    if (a.is_discarded()) fail("an answer that is not JSON: " + answer.substr(0, 500));
    if (a.is_array()) {
        if (a.empty()) fail("an empty batch answer");
        for (const auto& r : a) check_response(r, answer);
    } else {
        check_response(a, answer);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Server server;
    auto& w = server.w;
    const auto lines = lines_of(data, size, 8);
    w.run([&] {
        for (const auto line : lines) {
            std::string text(line);
            // Placeholders become ids only inside strings that are exactly one, as in the
            // module targets; the line is otherwise passed on untouched.
            for (const auto& [placeholder, id] : w.ids) {
                const std::string quoted = "\"" + placeholder + "\"";
                for (auto at = text.find(quoted); at != std::string::npos; at = text.find(quoted, at + id.size() + 2))
                    text.replace(at, quoted.size(), "\"" + id + "\"");
            }
            server.mcp.peek(text);
            if (auto answer = server.dispatcher.handle(text)) check_answer(*answer);
        }
    });
    return 0;
}
