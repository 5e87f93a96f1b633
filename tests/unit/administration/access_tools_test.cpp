// The administration module's users and API keys (catalogue section 4.2): listed without secrets,
// changed or disabled, revoked; the syndicate always keeps an active admin (LAST_ADMIN), and a
// revoked key is refused at once. Keys and users are made as the command line makes them.
#include "fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

#include "auth/users.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace access_tools_test {

using namespace syndic::test;
using syndic::Role;

namespace {

struct People : Fixture {
    syndic::IssuedKey admin_key = syndic::issue_api_key(*db, clock, syndicate, Role::admin, {"*"}, "principale");
    syndic::IssuedKey member_key = syndic::issue_api_key(*db, clock, syndicate, Role::member, {"read:co-owners"}, "lecture");
    syndic::User marie = syndic::create_user(*db, clock, syndicate, "marie@example.ca", "Marie Tremblay", Role::member, "fr",
                                             "un mot de passe assez long");
    syndic::IssuedKey other_key = syndic::issue_api_key(*db, clock, other_syndicate, Role::admin, {"*"}, "B");
    syndic::CallerContext as_key() const { return *syndic::authenticate(*db, admin_key.secret); }
};

const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

}  // namespace

TEST_SUITE("administration-access") {

TEST_CASE("list_api_keys and list_users show the syndicate's own, never a secret") {
    People fx;
    const auto keys = fx.call("list_api_keys");
    CHECK(keys["pagination"]["total"] == 2);
    CHECK(keys.dump().find(fx.admin_key.secret) == std::string::npos);
    CHECK(keys["data"][0]["scopes"].is_array());
    const auto users = fx.call("list_users");
    REQUIRE(users["pagination"]["total"] == 1);
    CHECK(users["data"][0]["email"] == "marie@example.ca");
    CHECK(users["data"][0]["lastSignInAt"].is_null());
    CHECK(users.dump().find("argon2") == std::string::npos);
    CHECK(fx.call("list_users", {{"role", "admin"}})["pagination"]["total"] == 0);
    CHECK(fx.call_as(fx.other_admin, "list_api_keys")["pagination"]["total"] == 1);
    CHECK(fx.error_as(fx.member, "list_users").code() == "ADMIN_REQUIRED");
}

TEST_CASE("update_user: role, language, name; disabling ends the sessions") {
    People fx;
    const auto session = syndic::start_session(*fx.db, fx.clock, fx.marie.id);
    const auto changed = fx.call("update_user", {{"id", fx.marie.id}, {"role", "admin"}, {"language", "en"}, {"name", "Marie T."}});
    CHECK(changed["role"] == "admin");
    CHECK(changed["language"] == "en");
    CHECK(changed["name"] == "Marie T.");
    CHECK_FALSE(changed["lastSignInAt"].is_null());
    const auto off = fx.call("update_user", {{"id", fx.marie.id}, {"disabled", true}});
    CHECK(off["disabled"] == true);
    CHECK_FALSE(syndic::session_user(*fx.db, fx.clock, session.token).has_value());
    CHECK(fx.call("update_user", {{"id", fx.marie.id}, {"disabled", false}})["disabled"] == false);
    CHECK_REFUSED(fx, "USER_NOT_FOUND", "update_user", (json{{"id", unknown_id}, {"role", "member"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "USER_NOT_FOUND", "update_user", (json{{"id", fx.marie.id}, {"role", "member"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_user", (json{{"id", fx.marie.id}, {"role", "owner"}}));
}

TEST_CASE("revoke_api_key: refused at once, reported when it is the caller's own") {
    People fx;
    const auto member = fx.call("revoke_api_key", {{"id", fx.member_key.id}});
    CHECK(member["selfRevoked"] == false);
    CHECK_FALSE(member["apiKey"]["revokedAt"].is_null());
    CHECK_FALSE(syndic::authenticate(*fx.db, fx.member_key.secret).has_value());
    CHECK(fx.call("list_api_keys")["pagination"]["total"] == 1);
    CHECK(fx.call("list_api_keys", {{"includeRevoked", true}})["pagination"]["total"] == 2);
    CHECK_REFUSED(fx, "API_KEY_NOT_FOUND", "revoke_api_key", (json{{"id", fx.member_key.id}}));  // already revoked
    CHECK_REFUSED(fx, "API_KEY_NOT_FOUND", "revoke_api_key", (json{{"id", unknown_id}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "API_KEY_NOT_FOUND", "revoke_api_key", (json{{"id", fx.admin_key.id}}));

    fx.call("update_user", {{"id", fx.marie.id}, {"role", "admin"}});  // another admin, so the key may go
    const auto self = fx.call_as(fx.as_key(), "revoke_api_key", {{"id", fx.admin_key.id}});
    CHECK(self["selfRevoked"] == true);
    CHECK_FALSE(syndic::authenticate(*fx.db, fx.admin_key.secret).has_value());
}

TEST_CASE("LAST_ADMIN: the last admin key cannot be revoked, nor the last admin user demoted or disabled") {
    People fx;
    CHECK_REFUSED(fx, "LAST_ADMIN", "revoke_api_key", (json{{"id", fx.admin_key.id}}));
    fx.call("update_user", {{"id", fx.marie.id}, {"role", "admin"}});
    fx.call("revoke_api_key", {{"id", fx.admin_key.id}});
    CHECK_REFUSED(fx, "LAST_ADMIN", "update_user", (json{{"id", fx.marie.id}, {"role", "member"}}));
    CHECK_REFUSED(fx, "LAST_ADMIN", "update_user", (json{{"id", fx.marie.id}, {"disabled", true}}));
    CHECK(fx.call("update_user", {{"id", fx.marie.id}, {"language", "en"}})["role"] == "admin");  // other changes pass
}

TEST_CASE("LAST_ADMIN counts only credentials able to administer: an admin key without write:administration does not") {
    People fx;
    const auto reader = syndic::issue_api_key(*fx.db, fx.clock, fx.syndicate, Role::admin,
                                              {"read:administration", "write:meetings"}, "lecture");
    CHECK_REFUSED(fx, "LAST_ADMIN", "revoke_api_key", (json{{"id", fx.admin_key.id}}));
    const auto able = syndic::issue_api_key(*fx.db, fx.clock, fx.syndicate, Role::admin, {"write:administration"}, "administration");
    fx.call("revoke_api_key", {{"id", fx.admin_key.id}});
    CHECK_REFUSED(fx, "LAST_ADMIN", "revoke_api_key", (json{{"id", able.id}}));
    CHECK(fx.call("revoke_api_key", {{"id", reader.id}})["apiKey"]["revokedAt"].is_string());
}

TEST_CASE("changes are events: user.updated, api_key.revoked") {
    People fx;
    fx.call("update_user", {{"id", fx.marie.id}, {"language", "en"}});
    fx.call("revoke_api_key", {{"id", fx.member_key.id}});
    SQLite::Statement q(fx.db->sql(), "SELECT group_concat(type, ' ') FROM (SELECT type FROM events ORDER BY seq)");
    q.executeStep();
    CHECK(q.getColumn(0).getString() == "user.updated api_key.revoked");
}

}  // TEST_SUITE

}  // namespace access_tools_test
