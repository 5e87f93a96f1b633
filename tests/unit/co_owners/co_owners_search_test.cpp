// The search index of co-owners (migrations 004 and 012): an FTS5 trigram index folded in batches,
// beside a small table of the rows it does not hold yet. Every answer of list_co_owners' search
// (rows, order, total, on every page) is compared with a brute-force reference over the table
// (instr on search_text, register order), after every single create, bulk, rename, archive,
// restore and row deleted outright, so that the rows waiting to be folded, the folds and the
// entries they leave stale are all exercised. The index itself is checked whole after each fold.
#include "co_owners/co_owners_fixture.hpp"

#include "core/text.hpp"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace co_owners_search_test {

using namespace syndic::test;
using namespace syndic::test::co_owner_fixture;

namespace {

// The reference: the co-owners whose folded text holds the folded term, in register order.
std::vector<std::string> reference(Fixture& fx, const std::string& term, bool archived) {
    SQLite::Statement q(fx.db->sql(),
                        "SELECT id FROM co_owners WHERE syndicate_id = ? AND instr(search_text, ?) > 0 "
                        "AND (? OR deleted_at IS NULL) ORDER BY sort_key, id");
    q.bind(1, fx.syndicate);
    q.bind(2, syndic::fold_for_search(term));
    q.bind(3, archived ? 1 : 0);
    std::vector<std::string> ids;
    while (q.executeStep()) ids.push_back(q.getColumn(0).getString());
    return ids;
}

// Every page of the tool's answer put together; each page's total must be the number of rows.
std::vector<std::string> searched(Fixture& fx, const std::string& term, bool archived) {
    std::vector<std::string> ids;
    std::int64_t total = -1;
    for (int page = 1; page <= 200; ++page) {
        const auto answer = fx.call("list_co_owners", {{"search", term}, {"includeArchived", archived},
                                                       {"page", page}, {"pageSize", 7}});
        if (total >= 0) CHECK(answer["pagination"]["total"] == total);
        total = answer["pagination"]["total"];
        for (const auto& c : answer["data"]) ids.push_back(c["id"]);
        if (answer["data"].size() < 7) break;
    }
    CHECK(total == static_cast<std::int64_t>(ids.size()));
    return ids;
}

std::int64_t pending_rows(Fixture& fx) {
    return fx.db->sql().execAndGet("SELECT count(*) FROM co_owner_search_pending").getInt64();
}

}  // namespace

TEST_SUITE("co-owners-search") {

TEST_CASE("searches are exact at every moment: right after each write, across folds of the index") {
    Fixture fx;
    std::vector<std::string> units;
    for (int i = 0; i < 8; ++i) units.push_back(fx.unit(std::to_string(201 + i), 10)["id"]);
    const std::vector<std::string> firsts = {"Émilie", "Luc", "Zoé", "Noël", "Anne-Marie", "Réjean", "Yves"};
    const std::vector<std::string> lasts = {"Côté", "Gagnon", "Tremblay", "Lévesque", "Roy", "Bérubé", "Pelletier"};
    std::uint64_t seed = 11;
    auto next = [&](std::size_t n) { return static_cast<std::size_t>((seed = seed * 6364136223846793005ULL + 1) >> 33) % n; };
    std::vector<std::string> ids;  // every co-owner made, archived or deleted ones included
    int folds = 0;
    std::int64_t pending_before = 0;

    auto check_term = [&](const std::string& term) {
        CAPTURE(term);
        for (const bool archived : {false, true}) {
            CAPTURE(archived);
            CHECK(searched(fx, term, archived) == reference(fx, term, archived));
        }
    };
    auto after_write = [&](const std::vector<std::string>& terms) {
        const auto pending = pending_rows(fx);
        CHECK(pending < 64);
        if (pending < pending_before) {
            ++folds;
            // Right after a fold the index holds exactly the table's texts, except the rows the
            // same transaction noted again after the fold.
            if (pending == 0)
                fx.db->sql().exec("INSERT INTO co_owner_search (co_owner_search, rank) VALUES ('integrity-check', 1)");
        }
        pending_before = pending;
        fx.db->sql().exec("INSERT INTO co_owner_search (co_owner_search) VALUES ('integrity-check')");
        for (const auto& term : terms) check_term(term);
    };

    for (int step = 0; step < 260; ++step) {
        CAPTURE(step);
        const auto first = firsts[next(firsts.size())], last = lasts[next(lasts.size())];
        const std::string email = "s" + std::to_string(step) + "." + syndic::fold_for_search(last) + "@exemple.qc.ca";
        const std::string common = lasts[next(lasts.size())];
        switch (next(10)) {
        case 0: case 1: case 2: case 3: {  // one create, searched for at once
            ids.push_back(fx.co_owner(units[next(units.size())], first, last,
                                      {{"email", email}, {"fractionPercent", 0}})["id"]);
            after_write({"s" + std::to_string(step) + ".", last, common});
            break;
        }
        case 4: {  // a bulk
            json rows = json::array();
            const auto n = 1 + next(30);
            for (std::size_t i = 0; i < n; ++i)
                rows.push_back(row(units[next(units.size())], firsts[next(firsts.size())], lasts[next(lasts.size())],
                                   {{"email", "b" + std::to_string(step) + "x" + std::to_string(i) + "@exemple.qc.ca"},
                                    {"fractionPercent", 0}}));
            // The answer is kept: a range-for over a member of a temporary reads freed memory (until C++23).
            const json answer = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
            for (const auto& c : answer["created"]) ids.push_back(c["id"]);
            after_write({"b" + std::to_string(step) + "x", common});
            break;
        }
        case 5: case 6: {  // a rename: the new name found, the old one gone, at once
            if (ids.empty()) continue;
            const auto id = ids[next(ids.size())];
            const auto before = fx.call("get_co_owner", {{"id", id}});
            if (before["deletedAt"].is_string()) continue;
            fx.call("update_co_owner", {{"id", id}, {"lastName", last + "-r" + std::to_string(step)}, {"email", email}});
            after_write({"-r" + std::to_string(step), before["lastName"].get<std::string>(), email, common});
            break;
        }
        case 7: {  // archived, or restored
            if (ids.empty()) continue;
            const auto id = ids[next(ids.size())];
            const auto before = fx.call("get_co_owner", {{"id", id}});
            if (before["deletedAt"].is_string())
                fx.call("restore_co_owner", {{"id", id}});
            else
                fx.call("delete_co_owner", {{"id", id}});
            after_write({before["lastName"].get<std::string>(), common});
            break;
        }
        default: {  // deleted outright, the newest row first so that its rowid is given again
            if (ids.empty()) continue;
            const auto id = next(2) ? ids.back() : ids[next(ids.size())];
            const auto before = fx.call("get_co_owner", {{"id", id}});
            SQLite::Statement q(fx.db->sql(), "DELETE FROM co_owners WHERE id = ?");
            q.bind(1, id);
            q.exec();
            std::erase(ids, id);
            after_write({before["lastName"].get<std::string>(), common});
            break;
        }
        }
    }
    CHECK(folds >= 3);
    for (const std::string term : {"e", "ro", "côté", "tremblay", "@exemple", "-r1", "zzz", "\"", "anne-marie"})
        check_term(term);
}

TEST_CASE("a search's matches kept on the connection give way to another connection's commit and to this one's writes") {
    char pattern[] = "/tmp/syndic-search-memo-XXXXXX";
    const char* made = mkdtemp(pattern);
    REQUIRE(made != nullptr);
    const std::string folder = made;
    {
        Fixture fx;  // its registry and helpers, on a file two connections share
        fx.db = syndic::Database::open(folder + "/search.db");
        fx.syndicate = syndic::create_syndicate(*fx.db, fx.clock, "Syndicat A", false);
        fx.admin.syndicate_id = fx.syndicate;
        auto other = syndic::Database::open(folder + "/search.db");
        const std::string unit = fx.unit("101", 10)["id"];
        for (const char* first : {"Anne", "Luc", "Zoé"}) fx.co_owner(unit, first, "Tremblay", {{"fractionPercent", 0}});
        const auto total = [&](const json& more = json::object()) {
            json args = {{"search", "tremb"}, {"pageSize", 2}};
            args.update(more);
            return fx.call("list_co_owners", args)["pagination"]["total"].get<std::int64_t>();
        };
        CHECK(total() == 3);
        CHECK(total({{"page", 2}}) == 3);  // the next page of the kept matches
        CHECK(fx.call("list_co_owners", {{"search", "tremb"}, {"pageSize", 2}, {"page", 2}})["data"].size() == 1);

        // Another connection (another HTTP worker, another process) adds one: seen at once.
        fx.registry.call("create_co_owner", {{"unitId", unit}, {"firstName", "Yves"}, {"lastName", "Tremblay"},
                                             {"fractionPercent", 0}},
                         fx.admin, *other, fx.clock);
        CHECK(total() == 4);
        // This connection archives one: seen at once too.
        const std::string first_id = fx.call("list_co_owners", {{"search", "tremb"}})["data"][0]["id"];
        fx.call("delete_co_owner", {{"id", first_id}});
        CHECK(total() == 3);
        CHECK(total({{"includeArchived", true}}) == 4);
        // A row changed by SQL outside any tool, on the other connection.
        SQLite::Statement q(other->sql(), "DELETE FROM co_owners WHERE id = ?");
        q.bind(1, first_id);
        q.exec();
        CHECK(total({{"includeArchived", true}}) == 3);
    }
    std::error_code ec;
    std::filesystem::remove_all(folder, ec);
}

}  // TEST_SUITE

}  // namespace co_owners_search_test
