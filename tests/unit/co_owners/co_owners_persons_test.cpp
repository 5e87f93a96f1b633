// samePersonAs (catalogue §3.0): a co-owner record names another active record of the same person
// (one holding two units); records joined transitively, through archived ones too, are one person,
// which persons_of (co_owners/persons.hpp) answers for the art. 1098 head count and the board.
#include "co_owners/co_owners_fixture.hpp"

#include "modules/co_owners/persons.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace co_owners_persons_test {

using namespace syndic::test;
using namespace syndic::test::co_owner_fixture;

namespace {

struct Building : Fixture {
    json u1 = unit("101", 40), u2 = unit("102", 30), u3 = unit("201", 30);
    json a = co_owner(u1["id"], "Anne", "Roy");
    json b = co_owner(u2["id"], "Anne", "Roy");
    json c = co_owner(u3["id"], "Claude", "Roy");
    syndic::co_owners::Persons persons() { return syndic::co_owners::persons_of(*db, syndicate); }
};

}  // namespace

TEST_SUITE("co-owners") {

TEST_CASE("samePersonAs joins two records of one person; the record shows it; null unlinks") {
    Building fx;
    CHECK(fx.a["samePersonAs"].is_null());
    const auto linked = fx.call("update_co_owner", {{"id", fx.b["id"]}, {"samePersonAs", fx.a["id"]}});
    CHECK(linked["samePersonAs"] == fx.a["id"]);
    CHECK(fx.call("get_co_owner", {{"id", fx.b["id"]}})["samePersonAs"] == fx.a["id"]);
    auto p = fx.persons();
    CHECK(p.any_linked);
    CHECK(p.key_of.at(fx.a["id"]) == p.key_of.at(fx.b["id"]));
    CHECK(p.key_of.at(fx.c["id"]) == fx.c["id"].get<std::string>());  // unlinked: its own key
    CHECK(p.key_of.size() == 3);
    // Other fields leave the link as it is; null unlinks.
    CHECK(fx.call("update_co_owner", {{"id", fx.b["id"]}, {"phone", "+15145550100"}})["samePersonAs"] == fx.a["id"]);
    CHECK(fx.call("update_co_owner", {{"id", fx.b["id"]}, {"samePersonAs", nullptr}})["samePersonAs"].is_null());
    p = fx.persons();
    CHECK_FALSE(p.any_linked);
    CHECK(p.key_of.at(fx.a["id"]) != p.key_of.at(fx.b["id"]));
    // At creation too, and in bulk.
    const auto u4 = fx.unit("P-1", 0, "parking");
    const auto d = fx.co_owner(u4["id"], "Claude", "Roy", {{"samePersonAs", fx.c["id"]}});
    CHECK(d["samePersonAs"] == fx.c["id"]);
    const auto bulk = fx.call("bulk_create_co_owners", {{"coOwners", json::array({json{{"unitId", u4["id"]}, {"firstName", "Anne"},
                                                                                        {"lastName", "Roy"}, {"samePersonAs", fx.a["id"]}}})}});
    CHECK(bulk["createdCount"] == 1);
    p = fx.persons();
    CHECK(p.key_of.at(bulk["created"][0]["id"].get<std::string>()) == p.key_of.at(fx.a["id"]));
}

TEST_CASE("samePersonAs names another active record of the syndicate") {
    Building fx;
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_co_owner", json({{"id", fx.b["id"]}, {"samePersonAs", missing_id}}));
    CHECK(fx.error("update_co_owner", {{"id", fx.b["id"]}, {"samePersonAs", missing_id}}).field() == "/samePersonAs");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_co_owner", json({{"id", fx.b["id"]}, {"samePersonAs", fx.b["id"]}}));
    fx.call("delete_co_owner", {{"id", fx.c["id"]}});
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_co_owner", json({{"id", fx.b["id"]}, {"samePersonAs", fx.c["id"]}}));
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "create_co_owner",
                  json({{"unitId", fx.u3["id"]}, {"firstName", "X"}, {"lastName", "Y"}, {"samePersonAs", fx.c["id"]}}));
    // Another syndicate's record is not found.
    const auto theirs = fx.call_as(fx.other_admin, "create_co_owner",
                                   {{"unitId", fx.call_as(fx.other_admin, "create_unit", {{"number", "9"}, {"type", "apartment"}})["id"]},
                                    {"firstName", "Z"}, {"lastName", "Z"}});
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "update_co_owner", json({{"id", fx.b["id"]}, {"samePersonAs", theirs["id"]}}));
    // In bulk, the row is refused at its own pointer and the others are created.
    const auto bulk = fx.call("bulk_create_co_owners", {{"coOwners", json::array({json{{"unitId", fx.u3["id"]}, {"firstName", "X"},
                                                                                        {"lastName", "Y"}, {"samePersonAs", missing_id}}})}});
    CHECK(bulk["errors"][0]["code"] == "CO_OWNER_NOT_FOUND");
    CHECK(bulk["errors"][0]["field"] == "/coOwners/0/samePersonAs");
}

TEST_CASE("persons_of: joined transitively, through archived records too; one key per person") {
    Building fx;
    fx.call("update_co_owner", {{"id", fx.b["id"]}, {"samePersonAs", fx.a["id"]}});
    fx.call("update_co_owner", {{"id", fx.c["id"]}, {"samePersonAs", fx.b["id"]}});  // c -> b -> a
    auto p = fx.persons();
    CHECK(p.key_of.at(fx.a["id"]) == p.key_of.at(fx.c["id"]));
    // b archived still joins a and c.
    fx.call("delete_co_owner", {{"id", fx.b["id"]}});
    p = fx.persons();
    CHECK(p.key_of.at(fx.a["id"]) == p.key_of.at(fx.c["id"]));
    CHECK(p.key_of.at(fx.b["id"]) == p.key_of.at(fx.a["id"]));  // archived records have their person too
    CHECK(syndic::co_owners::other_active_records(*fx.db, fx.syndicate, fx.a["id"]) == std::vector<std::string>{fx.c["id"]});
    CHECK(syndic::co_owners::other_active_records(*fx.db, fx.syndicate, fx.b["id"]).size() == 2);
    // A key is a record of the person, the same for all of them whichever way the links run.
    const auto key = p.key_of.at(fx.a["id"]);
    CHECK((key == fx.a["id"].get<std::string>() || key == fx.b["id"].get<std::string>() ||
           key == fx.c["id"].get<std::string>()));
    // Another syndicate: its own records only, none linked.
    const auto theirs = syndic::co_owners::persons_of(*fx.db, fx.other_syndicate);
    CHECK(theirs.key_of.empty());
    CHECK_FALSE(theirs.any_linked);
}

}

}  // namespace co_owners_persons_test
