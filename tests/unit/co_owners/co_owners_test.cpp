// The co-owners module's register as read (interface 2.1): list_co_owners' filters, order, pages and
// searches, get_co_owner, a model of the register checked against the tools after every kind of
// write, and NUL characters refused before a search. Every call goes through the registry.
#include "co_owners/co_owners_fixture.hpp"

#include "core/text.hpp"

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace co_owners_test {

using namespace syndic::test;
using namespace syndic::test::co_owner_fixture;

TEST_SUITE("co-owners") {

TEST_CASE("list_co_owners") {
    Fixture fx;
    const auto u101 = fx.unit("101", 50);
    const auto u102 = fx.unit("102", 50);
    const auto sophie = fx.co_owner(u101["id"], "Sophie", "Bélanger",
                                    {{"email", "sophie@exemple.ca"}, {"isPrimary", true}, {"hasPortalAccess", true}});
    const auto marie = fx.co_owner(u101["id"], "Marie", "Tremblay", {{"email", "marie.tremblay@example.ca"}});
    const auto luc = fx.co_owner(u102["id"], "Luc", "gagnon");
    const auto emilie = fx.co_owner(u102["id"], "Émilie", "Roy",
                                    {{"email", "EMILIE.ROY@Example.ca"}, {"hasPortalAccess", true}});

    SUBCASE("happy path: the pagination envelope, sorted by last name regardless of case") {
        const auto list = fx.call("list_co_owners");
        CHECK(list["pagination"]["page"] == 1);
        CHECK(list["pagination"]["pageSize"] == 50);
        CHECK(list["pagination"]["total"] == 4);
        CHECK(last_names(list) == std::vector<std::string>{"Bélanger", "gagnon", "Roy", "Tremblay"});
        // The records are whole co-owners, with their unit's number.
        CHECK(list["data"][0] == fx.call("get_co_owner", {{"id", sophie["id"]}}));
        CHECK(list["data"][0]["unitNumber"] == "101");
    }
    SUBCASE("same last name: sorted by first name") {
        fx.co_owner(u102["id"], "Zoé", "Tremblay");
        fx.co_owner(u102["id"], "Albert", "Tremblay");
        const auto list = fx.call("list_co_owners", {{"search", "tremblay"}});
        REQUIRE(list["data"].size() == 3);
        CHECK(list["data"][0]["firstName"] == "Albert");
        CHECK(list["data"][1]["firstName"] == "Marie");
        CHECK(list["data"][2]["firstName"] == "Zoé");
    }
    SUBCASE("sorted by last name as a French reader expects: accents do not send a name to the end") {
        fx.co_owner(u102["id"], "Paul", "Émond");
        fx.co_owner(u102["id"], "Anne", "Côté");
        fx.co_owner(u102["id"], "Jean", "Bouchard");
        fx.co_owner(u102["id"], "Guy", "Cyr");
        const auto list = fx.call("list_co_owners");
        CHECK(last_names(list) ==
              std::vector<std::string>{"Bélanger", "Bouchard", "Côté", "Cyr", "Émond", "gagnon", "Roy", "Tremblay"});
    }
    SUBCASE("pages: default size 50, page 2 holds the rest, a page past the end is empty") {
        for (int i = 0; i < 56; ++i) {
            char name[16];
            std::snprintf(name, sizeof name, "Zz%03d", i);
            fx.co_owner(u102["id"], "Pat", name);
        }
        const auto first = fx.call("list_co_owners");
        CHECK(first["data"].size() == 50);
        CHECK(first["pagination"]["total"] == 60);
        CHECK(first["pagination"]["pageSize"] == 50);

        const auto second = fx.call("list_co_owners", {{"page", 2}});
        CHECK(second["pagination"]["page"] == 2);
        CHECK(second["pagination"]["total"] == 60);
        REQUIRE(second["data"].size() == 10);
        CHECK(second["data"][9]["lastName"] == "Zz055");
        // No one is on both pages, no one is missing.
        auto all = ids_of(first);
        for (const auto& id : ids_of(second)) all.push_back(id);
        std::sort(all.begin(), all.end());
        CHECK(std::unique(all.begin(), all.end()) == all.end());
        CHECK(all.size() == 60);

        const auto small = fx.call("list_co_owners", {{"pageSize", 7}, {"page", 3}});
        CHECK(small["data"].size() == 7);
        CHECK(small["pagination"]["pageSize"] == 7);
        CHECK(small["data"][0]["lastName"] == "Zz010");  // 4 named + Zz000..Zz009 before it

        const auto past = fx.call("list_co_owners", {{"page", 4}});
        CHECK(past["data"].empty());
        CHECK(past["pagination"]["total"] == 60);

        CHECK(fx.call("list_co_owners", {{"pageSize", 200}})["data"].size() == 60);
        CHECK(fx.call("list_co_owners", {{"pageSize", 1}})["data"].size() == 1);
    }
    SUBCASE("search on first name, last name and e-mail, ignoring case and accents") {
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "belanger"}})) == std::vector<std::string>{sophie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "BÉLANGER"}})) == std::vector<std::string>{sophie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "emilie"}})) == std::vector<std::string>{emilie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "GAGNON"}})) == std::vector<std::string>{luc["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "tremb"}})) == std::vector<std::string>{marie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "Marie Tremblay"}})) == std::vector<std::string>{marie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "exemple.ca"}})) == std::vector<std::string>{sophie["id"]});
        CHECK(ids_of(fx.call("list_co_owners", {{"search", "emilie.roy@example"}})) ==
              std::vector<std::string>{emilie["id"]});
        const auto none = fx.call("list_co_owners", {{"search", "lapointe"}});
        CHECK(none["data"].empty());
        CHECK(none["pagination"]["total"] == 0);
        // total counts the matches, not the syndicate.
        CHECK(fx.call("list_co_owners", {{"search", "example.ca"}})["pagination"]["total"] == 2);
    }
    SUBCASE("unitId filter") {
        const auto list = fx.call("list_co_owners", {{"unitId", u102["id"]}});
        CHECK(last_names(list) == std::vector<std::string>{"gagnon", "Roy"});
        CHECK(list["pagination"]["total"] == 2);
        CHECK(fx.call("list_co_owners", {{"unitId", missing_id}})["data"].empty());
    }
    SUBCASE("hasPortalAccess filter") {
        CHECK(last_names(fx.call("list_co_owners", {{"hasPortalAccess", true}})) ==
              std::vector<std::string>{"Bélanger", "Roy"});
        CHECK(last_names(fx.call("list_co_owners", {{"hasPortalAccess", false}})) ==
              std::vector<std::string>{"gagnon", "Tremblay"});
        const auto both = fx.call("list_co_owners", {{"hasPortalAccess", true}, {"unitId", u101["id"]}});
        CHECK(last_names(both) == std::vector<std::string>{"Bélanger"});
        CHECK(both["pagination"]["total"] == 1);
    }
    SUBCASE("archived co-owners are hidden unless includeArchived") {
        fx.call("delete_co_owner", {{"id", marie["id"]}});
        const auto list = fx.call("list_co_owners");
        CHECK(last_names(list) == std::vector<std::string>{"Bélanger", "gagnon", "Roy"});
        CHECK(list["pagination"]["total"] == 3);
        CHECK(fx.call("list_co_owners", {{"search", "tremblay"}})["data"].empty());
        CHECK(fx.call("list_co_owners", {{"unitId", u101["id"]}})["pagination"]["total"] == 1);

        const auto with = fx.call("list_co_owners", {{"includeArchived", true}});
        CHECK(last_names(with) == std::vector<std::string>{"Bélanger", "gagnon", "Roy", "Tremblay"});
        CHECK(with["pagination"]["total"] == 4);
        CHECK(with["data"][3]["deletedAt"].is_string());
        CHECK(with["data"][0]["deletedAt"].is_null());
        CHECK(fx.call("list_co_owners", {{"includeArchived", false}})["pagination"]["total"] == 3);
    }
    SUBCASE("schema rejection: pageSize 1..200, page >= 1, known properties only") {
        for (const auto& bad : {json{{"pageSize", 201}}, json{{"pageSize", 0}}, json{{"pageSize", "10"}},
                                json{{"pageSize", 2.5}}}) {
            CAPTURE(bad.dump());
            const auto e = fx.error("list_co_owners", bad);
            CHECK(e.code() == "VALIDATION_FAILED");
            CHECK(e.field() == "/pageSize");
            CHECK(has_field_error(e, "/pageSize"));
        }
        const auto page0 = fx.error("list_co_owners", {{"page", 0}});
        CHECK(page0.code() == "VALIDATION_FAILED");
        CHECK(page0.field() == "/page");
        const auto unknown = fx.error("list_co_owners", {{"sortBy", "firstName"}});
        CHECK(unknown.code() == "VALIDATION_FAILED");
        CHECK(has_field_error(unknown, "/sortBy"));
        const auto empty_search = fx.error("list_co_owners", {{"search", ""}});
        CHECK(empty_search.code() == "VALIDATION_FAILED");
        CHECK(has_field_error(empty_search, "/search"));
    }
    SUBCASE("INSUFFICIENT_SCOPE without read:co-owners") {
        const syndic::CallerContext meetings_only{fx.syndicate, "key-meetings", {"read:meetings"}, syndic::Role::admin};
        const auto e = fx.error_as(meetings_only, "list_co_owners");
        CHECK(e.code() == "INSUFFICIENT_SCOPE");
        CHECK(figure_text(e, "requiredScope") == "read:co-owners");
    }
}

TEST_CASE("get_co_owner") {
    Fixture fx;
    const auto unit = fx.unit("101", 50);
    const auto created = fx.co_owner(unit["id"], "Marie", "Tremblay",
                                     {{"email", "marie@example.ca"}, {"phone", "+15145550123"}, {"language", "en"}});

    SUBCASE("happy path: the co-owner as created") {
        const auto c = fx.call("get_co_owner", {{"id", created["id"]}});
        CHECK(c == created);
        CHECK(c["firstName"] == "Marie");
        CHECK(c["lastName"] == "Tremblay");
        CHECK(c["email"] == "marie@example.ca");
        CHECK(c["phone"] == "+15145550123");
        CHECK(c["unitId"] == unit["id"]);
        CHECK(c["unitNumber"] == "101");
        CHECK(c["language"] == "en");
        CHECK(c["createdAt"] == shown_now);
        CHECK(c["deletedAt"].is_null());
    }
    SUBCASE("CO_OWNER_NOT_FOUND") {
        const auto e = fx.error("get_co_owner", {{"id", missing_id}});
        CHECK(e.code() == "CO_OWNER_NOT_FOUND");
        CHECK(e.field() == "/id");
        // A unit's id is not a co-owner's.
        CHECK(fx.error("get_co_owner", {{"id", unit["id"]}}).code() == "CO_OWNER_NOT_FOUND");
    }
    SUBCASE("an archived co-owner is still readable, with deletedAt set") {
        fx.clock.advance(std::chrono::hours(24));
        fx.call("delete_co_owner", {{"id", created["id"]}});
        const auto c = fx.call("get_co_owner", {{"id", created["id"]}});
        CHECK(c["deletedAt"] == "2026-11-22T10:00:00-05:00");
        CHECK(c["lastName"] == "Tremblay");
        CHECK(c["createdAt"] == shown_now);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_co_owner", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_co_owner", (json{{"id", ""}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_co_owner", (json{{"id", 42}}));
        const auto e = fx.error("get_co_owner", json::object());
        CHECK(has_field_error(e, "/id"));
    }
}

// The lists read indexes, a tally and a trigram index that writes keep up to date (migration 004).
// Here a model of the register kept by the test is compared with what the tools say after every
// kind of write: totals with and without filters, pages in register order, and searches of one,
// two and many characters (the short ones are not served by the trigram index).
TEST_CASE("lists, totals and searches stay true through every kind of write") {
    Fixture fx;
    struct Person {
        std::string id, unit, first, last, email;
        bool portal = false, archived = false;
    };
    std::vector<Person> people;
    std::vector<std::string> units;
    for (int i = 0; i < 6; ++i) units.push_back(fx.unit(std::to_string(101 + i), 10)["id"]);
    const std::vector<std::string> firsts = {"Émilie", "Luc", "Zoé", "Noël", "Anne-Marie", "O'Brien"};
    const std::vector<std::string> lasts = {"Côté", "Gagnon", "Tremblay", "Lévesque", "D\"Amour", "Roy"};
    std::uint64_t seed = 7;
    auto next = [&](std::size_t n) { return static_cast<std::size_t>((seed = seed * 6364136223846793005ULL + 1) >> 33) % n; };
    auto add = [&](const json& made, const std::string& unit, const std::string& first, const std::string& last,
                   const std::string& email, bool portal) {
        people.push_back({made["id"], unit, first, last, email, portal, false});
    };
    for (int i = 0; i < 20; ++i) {
        const auto unit = units[next(units.size())];
        const auto first = firsts[next(firsts.size())], last = lasts[next(lasts.size())];
        const std::string email = "p" + std::to_string(i) + "@exemple.qc.ca";
        const bool portal = next(2) == 0;
        add(fx.co_owner(unit, first, last, {{"email", email}, {"hasPortalAccess", portal}, {"fractionPercent", 0}}), unit,
            first, last, email, portal);
    }
    json rows = json::array();
    for (int i = 0; i < 15; ++i)
        rows.push_back(row(units[next(units.size())], firsts[next(firsts.size())], lasts[next(lasts.size())],
                           {{"email", "lot" + std::to_string(i) + "@exemple.qc.ca"}, {"hasPortalAccess", i % 3 == 0},
                            {"fractionPercent", 0}}));
    const auto bulk = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
    REQUIRE(bulk["createdCount"] == 15);
    for (const auto& c : bulk["created"]) {
        const auto& r = rows[c["index"].get<std::size_t>()];
        add(c, r["unitId"], r["firstName"], r["lastName"], r["email"], r["hasPortalAccess"]);
    }
    // Renamed, moved, portal switched, archived and restored.
    for (int i = 0; i < 12; ++i) {
        auto& p = people[next(people.size())];
        if (p.archived) continue;
        p.last = lasts[next(lasts.size())] + "-" + std::to_string(i);
        p.portal = !p.portal;
        p.unit = units[next(units.size())];
        fx.call("update_co_owner", {{"id", p.id}, {"lastName", p.last}, {"hasPortalAccess", p.portal}, {"unitId", p.unit}});
    }
    for (int i = 0; i < 10; ++i) {
        auto& p = people[next(people.size())];
        if (p.archived) continue;
        fx.call("delete_co_owner", {{"id", p.id}});
        p.archived = true;
        p.portal = false;  // archiving ends portal access
    }
    for (int i = 0; i < 3; ++i) {
        auto& p = people[next(people.size())];
        if (!p.archived) continue;
        fx.call("restore_co_owner", {{"id", p.id}});
        p.archived = false;
    }

    auto folded = [](const Person& p) { return syndic::fold_for_search(p.first + " " + p.last + " " + p.email); };
    auto sort_key = [](const Person& p) { return syndic::fold_for_search(p.last) + '\x1f' + syndic::fold_for_search(p.first); };
    // The model's answer: who matches, in register order.
    auto expected = [&](const std::function<bool(const Person&)>& keep) {
        std::vector<const Person*> kept;
        for (const auto& p : people)
            if (keep(p)) kept.push_back(&p);
        std::sort(kept.begin(), kept.end(), [&](auto* a, auto* b) {
            return std::pair(sort_key(*a), a->id) < std::pair(sort_key(*b), b->id);
        });
        std::vector<std::string> ids;
        for (auto* p : kept) ids.push_back(p->id);
        return ids;
    };
    // Every page of the tool's answer, put together; the total must be the same on each page.
    auto listed = [&](json args) {
        std::vector<std::string> ids;
        std::int64_t total = -1;
        args["pageSize"] = 4;
        for (int page = 1; page <= 20; ++page) {
            args["page"] = page;
            const auto answer = fx.call("list_co_owners", args);
            if (total >= 0) CHECK(answer["pagination"]["total"] == total);
            total = answer["pagination"]["total"];
            for (const auto& c : answer["data"]) ids.push_back(c["id"]);
            if (answer["data"].empty()) break;
        }
        CHECK(total == static_cast<std::int64_t>(ids.size()));
        return ids;
    };

    for (const bool archived : {false, true}) {
        CAPTURE(archived);
        auto live = [&](const Person& p) { return archived || !p.archived; };
        CHECK(listed({{"includeArchived", archived}}) == expected(live));
        for (const bool portal : {false, true})
            CHECK(listed({{"includeArchived", archived}, {"hasPortalAccess", portal}}) ==
                  expected([&](const Person& p) { return live(p) && p.portal == portal; }));
        for (const auto& unit : units)
            CHECK(listed({{"includeArchived", archived}, {"unitId", unit}}) ==
                  expected([&](const Person& p) { return live(p) && p.unit == unit; }));
        // Then text that means something to SQL, to LIKE or to FTS5's query syntax: each is only
        // a substring to look for (issue 7: filters are bound, never spliced into a query).
        for (const std::string& term : std::vector<std::string>{
                 "e", "ro", "côte", "COTE", "gagnon", "d\"amour", "o'brien", "anne-marie", "lot1", "@exemple", "tremblay-",
                 "zoe roy", "zzz", "é", "'; DROP TABLE co_owners; --", "%", "_", "\"", "\"\"", "*", "ro*", "^ro",
                 "NEAR(ro co)", "ro OR co", "co AND NOT ro", "co_owner_search", ")", "' OR '1'='1"}) {
            CAPTURE(term);
            const auto want = syndic::fold_for_search(term);
            CHECK(listed({{"includeArchived", archived}, {"search", term}}) ==
                  expected([&](const Person& p) { return live(p) && folded(p).find(want) != std::string::npos; }));
            CHECK(listed({{"includeArchived", archived}, {"search", term}, {"hasPortalAccess", true}, {"unitId", units[0]}}) ==
                  expected([&](const Person& p) {
                      return live(p) && p.portal && p.unit == units[0] && folded(p).find(want) != std::string::npos;
                  }));
        }
    }
}

// A NUL (U+0000) in a name, an e-mail or a search is refused before the handler runs (the
// registry's rule for every string argument): SQLite's FTS5 reads text only up to one, so it would
// hide what follows from searches, or cut a search short (found by the fuzzers too:
// tests/fuzz/corpus/fuzz-co-owners/regression-search-with-nul).
TEST_CASE("a NUL in a name, an e-mail or a search is refused at its field, and nothing is stored") {
    Fixture fx;
    const auto u = fx.unit("101", 10);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_co_owner",
                  (json{{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", std::string("Tremblay\0Roy", 12)}}));
    CHECK(fx.error("create_co_owner", {{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", std::string("Tremblay\0Roy", 12)}})
              .field() == "/lastName");
    // An e-mail address holding one is not a valid address: the e-mail's own code.
    CHECK_REFUSED(fx, "INVALID_EMAIL", "create_co_owner",
                  (json{{"unitId", u["id"]}, {"firstName", "Marie"}, {"lastName", "Roy"}, {"email", std::string("m\0@example.ca", 14)}}));
    for (const auto& term : {std::string("ro\0co", 5), std::string("e\0", 2), std::string("\"a\0\"", 4)}) {
        const auto e = fx.error("list_co_owners", {{"search", term}});
        CHECK(e.code() == std::string("VALIDATION_FAILED"));
        CHECK(e.field() == "/search");
    }
}

}

}  // namespace co_owners_test
