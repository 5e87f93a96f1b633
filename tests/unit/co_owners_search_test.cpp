// The search index of co-owners (migrations 004 and 012): an FTS5 trigram index folded in batches,
// beside a small table of the rows it does not hold yet. Every answer of list_co_owners' search
// (rows, order, total, on every page) is compared with a brute-force reference over the table
// (instr on search_text, register order), after every single create, bulk, rename, archive,
// restore and row deleted outright, so that the rows waiting to be folded, the folds and the
// entries they leave stale are all exercised. The index itself is checked whole after each fold.
#include "co_owners_fixture.hpp"

#include "core/text.hpp"

#include <cstdint>
#include <string>
#include <vector>

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
            for (const auto& c : fx.call("bulk_create_co_owners", {{"coOwners", rows}})["created"]) ids.push_back(c["id"]);
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

}  // TEST_SUITE
