// Micro-benchmarks of what a tools/call costs outside SQLite, each step alone: parsing the line,
// validating arguments against a compiled schema, the whole dispatch of a call that touches no
// table (ping) and of one that reads a row (get_co_owner, in-memory database), writing a page of
// records as JSON text, and wrapping a result into the tools/call answer. Google Benchmark; run by
// tools/bench and by `meson test --benchmark`. No figure here is asserted anywhere.
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <string>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/json_writer.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"

using namespace syndic;
using nlohmann::json;

namespace {

const char* get_line_template =
    R"({"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"get_co_owner","arguments":{"id":"ID"}}})";

// A server on an in-memory database with 1,000 co-owners, as the stdio transport drives it.
struct World {
    ToolRegistry registry{all_tool_handlers()};
    FixedClock clock{*parse_iso_instant("2026-11-21T15:00:00Z")};
    std::unique_ptr<Database> db = Database::open(":memory:");
    std::string key;
    std::string some_id;
    std::unique_ptr<McpServer> server;
    jsonrpc::Dispatcher dispatcher;

    World() {
        const auto syndicate = create_syndicate(*db, clock, "Bench", false);
        key = issue_api_key(*db, clock, syndicate, Role::admin, registry.all_scopes(), "bench").secret;
        const auto caller = *authenticate(*db, key);
        json units = json::array();
        for (int i = 0; i < 500; ++i) {
            const auto unit = registry.call("create_unit", {{"number", std::to_string(100 + i)}, {"type", "apartment"},
                                                            {"fractionPercent", 0.2}}, caller, *db, clock);
            units.push_back(unit["id"]);
        }
        for (int b = 0; b < 2; ++b) {
            json rows = json::array();
            for (int i = 0; i < 500; ++i)
                rows.push_back({{"unitId", units[i]}, {"firstName", "Émilie"}, {"lastName", "Côté-" + std::to_string(b * 500 + i)},
                                {"email", "emilie" + std::to_string(b * 500 + i) + "@exemple.qc.ca"}, {"fractionPercent", 0.1}});
            const auto made = registry.call("bulk_create_co_owners", {{"coOwners", rows}}, caller, *db, clock);
            some_id = made["created"][250]["id"];
        }
        server = std::make_unique<McpServer>(registry, [this]() -> Database& { return *db; }, clock,
                                             McpOptions{key, 0, {}}, [](const std::string&) {});
        server->attach(dispatcher);
    }

    std::string get_line() const {
        std::string line = get_line_template;
        line.replace(line.find("ID"), 2, some_id);
        return line;
    }
};

World& world() {
    static World w;
    return w;
}

void parse_call(benchmark::State& state) {
    const std::string line = world().get_line();
    for (auto _ : state) benchmark::DoNotOptimize(json::parse(line));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * line.size()));
}
BENCHMARK(parse_call);

void validate_create_co_owner(benchmark::State& state) {
    const json args = {{"unitId", "5a3c1c0e-0000-4000-8000-000000000001"}, {"firstName", "Émilie"}, {"lastName", "Côté"},
                       {"email", "emilie.cote@exemple.qc.ca"}, {"phone", "514-555-0100"}, {"fractionPercent", 0.25},
                       {"isPrimary", true}, {"language", "fr"}};
    for (auto _ : state) world().registry.check_arguments("create_co_owner", args);
}
BENCHMARK(validate_create_co_owner);

void dispatch_ping(benchmark::State& state) {
    const std::string line = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    for (auto _ : state) benchmark::DoNotOptimize(world().dispatcher.handle(line));
}
BENCHMARK(dispatch_ping);

void dispatch_get_co_owner(benchmark::State& state) {
    const std::string line = world().get_line();
    for (auto _ : state) benchmark::DoNotOptimize(world().dispatcher.handle(line));
}
BENCHMARK(dispatch_get_co_owner);

void dispatch_list_page_of_50(benchmark::State& state) {
    const std::string line =
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_co_owners","arguments":{"page":3}}})";
    for (auto _ : state) benchmark::DoNotOptimize(world().dispatcher.handle(line));
}
BENCHMARK(dispatch_list_page_of_50);

void write_page_of_50_records(benchmark::State& state) {
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::string out;
        out.reserve(30000);
        JsonWriter w(out);
        w.begin_object().key("data").begin_array();
        for (int i = 0; i < 50; ++i) {
            w.begin_object().key("createdAt").string("2026-11-21T10:00:00-05:00").key("deletedAt").null();
            w.key("email").string("emilie.cote@exemple.qc.ca").key("firstName").string("Émilie");
            w.key("fractionPercent").number(0.125).key("hasPortalAccess").boolean(true);
            w.key("id").string("5a3c1c0e-0000-4000-8000-000000000001").key("isPrimary").boolean(false);
            w.key("isResident").boolean(true).key("language").string("fr").key("lastName").string("Côté");
            w.key("phone").string("514-555-0100").key("unitId").string("5a3c1c0e-0000-4000-8000-000000000002");
            w.key("unitNumber").string("301").key("updatedAt").string("2026-11-21T10:00:00-05:00").end_object();
        }
        w.end_array().end_object();
        bytes = out.size();
        benchmark::DoNotOptimize(out);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(write_page_of_50_records);

void wrap_result_as_tool_answer(benchmark::State& state) {
    json page = json::array();
    for (int i = 0; i < 50; ++i)
        page.push_back({{"id", "5a3c1c0e-0000-4000-8000-000000000001"}, {"firstName", "Émilie"}, {"lastName", "Côté"},
                        {"email", "emilie.cote@exemple.qc.ca"}, {"fractionPercent", 0.125}});
    const std::string dumped = json{{"data", page}}.dump();
    for (auto _ : state) benchmark::DoNotOptimize(tool_result_text(dumped));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * dumped.size()));
}
BENCHMARK(wrap_result_as_tool_answer);

void format_montreal_time(benchmark::State& state) {
    const auto t = *parse_iso_instant("2026-11-21T19:42:58.123Z");
    char out[montreal_iso_size];
    for (auto _ : state) benchmark::DoNotOptimize(write_montreal_iso(t, out));
}
BENCHMARK(format_montreal_time);

}  // namespace

BENCHMARK_MAIN();
