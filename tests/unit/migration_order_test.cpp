// Migrations numbered by module (storage/migration_order.hpp, migration_catalogue.hpp): their
// names, the modules' order from dependsOn (a cycle refused), and the embedded migrations placed
// after those of the modules whose tables they name.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/migration_catalogue.hpp"
#include "storage/migration_order.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace migration_order_test {

using namespace syndic;

namespace {

using Graph = std::map<std::string, std::vector<std::string>>;

std::string refusal_of(const std::vector<std::string>& names) {
    try {
        check_migration_names(names);
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "";
}

std::string order_refusal(const Graph& graph) {
    try {
        module_order(graph);
    } catch (const std::logic_error& e) {
        return e.what();
    }
    return "";
}

std::vector<std::string> names_of(const std::vector<Migration>& plan) {
    std::vector<std::string> names;
    for (const auto& m : plan) names.emplace_back(m.name);
    return names;
}

// Every module a module depends on, directly or through others.
std::set<std::string> reachable(const Graph& graph, const std::string& module) {
    std::set<std::string> seen;
    std::vector<std::string> todo{module};
    while (!todo.empty()) {
        const auto next = todo.back();
        todo.pop_back();
        const auto node = graph.find(next);  // a module of code alone (governance) has no migrations
        if (node == graph.end()) continue;
        for (const auto& d : node->second)
            if (seen.insert(d).second) todo.push_back(d);
    }
    return seen;
}

// The SQL without its "--" comments.
std::string without_comments(std::string_view sql) {
    return std::regex_replace(std::string(sql), std::regex("--[^\n]*"), "");
}

}  // namespace

TEST_SUITE("migrations") {

TEST_CASE("names: <module>/NNN_name.sql, each module numbered from 001 without a gap or a duplicate") {
    CHECK(refusal_of({"core/001_core.sql", "core/002_outbox.sql", "meetings/001_meetings.sql"}).empty());
    CHECK(refusal_of({"meetings/001_meetings.sql", "core/002_outbox.sql", "core/001_core.sql"}).empty());  // any order
    // Two modules built side by side each start at 001: nothing collides.
    CHECK(refusal_of({"core/001_core.sql", "parking/001_permits.sql", "lockers/001_lockers.sql"}).empty());
    const auto duplicate = refusal_of({"core/001_core.sql", "board/001_a.sql", "board/001_b.sql"});
    CHECK(duplicate.find("two migration files are board's number 1: board/001_a.sql and board/001_b.sql") !=
          std::string::npos);
    const auto gap = refusal_of({"core/001_core.sql", "meetings/001_meetings.sql", "meetings/003_roll.sql"});
    CHECK(gap.find("no migration file is meetings's number 2 (after meetings/001_meetings.sql), yet meetings/003_roll.sql") !=
          std::string::npos);
    CHECK(refusal_of({"core/001_core.sql", "board/002_board.sql"}).find("board's number 1 (a module's numbers start at 001)") !=
          std::string::npos);
    for (const char* bad : {"001_core.sql", "core/core.sql", "core/x001_core.sql", "core/001core.sql", "core/001_core.txt",
                            "core/000_zero.sql", "core/01_short.sql", "/001_core.sql", "a/b/001_core.sql"})
        CHECK_MESSAGE(refusal_of({"core/001_core.sql", bad}).find(std::string("not named <module>/NNN_name.sql: ") + bad) !=
                          std::string::npos,
                      bad);
}

TEST_CASE("module order: core first, each module after those it depends on, the ready ones by id") {
    CHECK(module_order({}) == std::vector<std::string>{"core"});
    CHECK(module_order({{"meetings", {}}, {"audit", {}}, {"board", {}}}) ==
          std::vector<std::string>{"core", "audit", "board", "meetings"});
    // A dependency goes before its module whatever their ids.
    CHECK(module_order({{"alpha", {"zulu"}}, {"zulu", {}}}) == std::vector<std::string>{"core", "zulu", "alpha"});
    const Graph graph = {{"board", {"contractors", "meetings"}}, {"contractors", {}}, {"declaration", {"meetings"}},
                         {"documents", {"meetings"}}, {"meetings", {}}, {"water-heaters", {"documents"}}};
    CHECK(module_order(graph) == std::vector<std::string>{"core", "contractors", "meetings", "board", "declaration",
                                                          "documents", "water-heaters"});
    // A chain the ids run against.
    CHECK(module_order({{"a", {"b"}}, {"b", {"c"}}, {"c", {}}}) == std::vector<std::string>{"core", "c", "b", "a"});
    // A module of code only (no manifest, no migrations) is placed like any other.
    CHECK(module_order({{"board", {"accounting"}}}) == std::vector<std::string>{"core", "accounting", "board"});
}

TEST_CASE("module order: a cycle or a dependency on itself is refused, naming it") {
    const auto cycle = order_refusal({{"a", {"b"}}, {"b", {"c"}}, {"c", {"a"}}, {"d", {}}});
    CHECK(cycle.find("the modules' dependsOn form a cycle (a -> b -> c -> a)") != std::string::npos);
    const auto inner = order_refusal({{"a", {}}, {"b", {"a", "c"}}, {"c", {"d"}}, {"d", {"c"}}});
    CHECK(inner.find("cycle (c -> d -> c)") != std::string::npos);
    CHECK(order_refusal({{"a", {"a"}}}).find("module a depends on itself") != std::string::npos);
    CHECK(order_refusal({{"a", {"parking"}}, {"parking", {"a"}}}).find("cycle (a -> parking -> a)") != std::string::npos);
    CHECK(order_refusal({{"core", {}}}).find("no module may be called 'core'") != std::string::npos);
}

TEST_CASE("order_migrations: each module's by number, after the modules it depends on") {
    const std::vector<EmbeddedFile> files = {{"alpha/002_more.sql", ""}, {"zulu/001_z.sql", ""}, {"core/002_c.sql", ""},
                                             {"alpha/001_a.sql", ""}, {"core/001_c.sql", ""}, {"mike/001_m.sql", ""}};
    CHECK(names_of(order_migrations(files, {{"alpha", {"zulu"}}, {"mike", {}}, {"zulu", {}}})) ==
          std::vector<std::string>{"core/001_c.sql", "core/002_c.sql", "mike/001_m.sql", "zulu/001_z.sql",
                                   "alpha/001_a.sql", "alpha/002_more.sql"});
    CHECK(names_of(order_migrations(files, {{"alpha", {}}, {"mike", {}}, {"zulu", {}}})) ==
          std::vector<std::string>{"core/001_c.sql", "core/002_c.sql", "alpha/001_a.sql", "alpha/002_more.sql",
                                   "mike/001_m.sql", "zulu/001_z.sql"});
    CHECK_THROWS_WITH_AS(order_migrations(files, {{"alpha", {}}, {"zulu", {}}}),
                         doctest::Contains("mike/001_m.sql belongs to 'mike', which is neither the core nor a module"),
                         std::logic_error);
    CHECK_THROWS_WITH_AS(order_migrations(files, {{"alpha", {"zulu"}}, {"mike", {}}, {"zulu", {"alpha"}}}),
                         doctest::Contains("cycle (alpha -> zulu -> alpha)"), std::logic_error);
}

TEST_CASE("the embedded migrations: core first, every module's after those of the modules it depends on") {
    const auto& plan = embedded_migration_plan();
    const auto graph = embedded_module_graph();
    REQUIRE(graph.count("meetings") == 1);
    CHECK(plan.front().name == "core/001_core.sql");
    std::map<std::string, std::size_t> first, last;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        first.try_emplace(plan[i].key.module, i);
        last[plan[i].key.module] = i;
    }
    for (const auto& [module, at] : first) {
        if (module == "core") continue;
        CHECK_MESSAGE(at > last.at("core"), module);
        for (const auto& d : graph.at(module))
            if (last.count(d)) CHECK_MESSAGE(last.at(d) < at, module << " after " << d);
    }
}

// A module's migrations run after those of the modules it depends on (dependsOn orders them), so
// the tables they change (ALTER TABLE), read or write (FROM, JOIN, INTO, UPDATE) or index (ON) are
// their module's, the core's, or those of a module it depends on, directly or through others. A
// REFERENCES may name any module's table: SQLite resolves it when a row is written, after every
// migration (the documents' meeting_id, the outbox's, the declaration's resolution_id), but the
// table must exist.
TEST_CASE("the embedded migrations use only tables of their module, the core or the modules it depends on") {
    const auto& plan = embedded_migration_plan();
    const auto graph = embedded_module_graph();
    std::map<std::string, std::string> owner;  // table -> the module whose migration first creates it
    const std::regex creates(R"(CREATE\s+(?:VIRTUAL\s+)?TABLE\s+(\w+))", std::regex::icase);
    const std::regex references(R"((?:REFERENCES|ALTER\s+TABLE)\s+(\w+))", std::regex::icase);
    const std::regex uses(R"(\b(?:ALTER\s+TABLE|FROM|JOIN|INTO|UPDATE|ON)\s+(\w+))", std::regex::icase);
    for (const auto& m : plan) {
        const auto sql = without_comments(m.sql);
        for (std::sregex_iterator it(sql.begin(), sql.end(), creates), end; it != end; ++it)
            owner.try_emplace((*it)[1].str(), m.key.module);
    }
    for (const auto& m : plan) {
        const auto sql = without_comments(m.sql);
        for (std::sregex_iterator it(sql.begin(), sql.end(), references), end; it != end; ++it)
            CHECK_MESSAGE(owner.count((*it)[1].str()), m.name << " names " << (*it)[1].str() << ", which no migration creates");
        if (m.key.module == "core") continue;
        const auto allowed = reachable(graph, m.key.module);
        for (std::sregex_iterator it(sql.begin(), sql.end(), uses), end; it != end; ++it) {
            const auto table = (*it)[1].str();
            if (!owner.count(table)) continue;  // a keyword (UPDATE OF), a CTE, an alias, temp.
            const auto& of = owner.at(table);
            CHECK_MESSAGE((of == "core" || of == m.key.module || allowed.count(of)),
                          m.name << " uses " << table << " (" << of << "'s) but " << m.key.module
                                 << " does not depend on " << of);
        }
    }
}

}  // TEST_SUITE

}  // namespace migration_order_test
