// The people who sign in (docs/oauth.md): argon2id password hashes, accounts, sign-in refusals
// and browser sessions, on the fixture's in-memory database and fixed clock.
#include "fixture.hpp"

#include <chrono>
#include <string>

#include "auth/passwords.hpp"
#include "auth/users.hpp"
#include "core/ids.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace users_test {

using namespace syndic;
using namespace syndic::test;

namespace {

const std::string good_password = "correct horse battery";

// The message of the error `f` throws ("" when it throws none).
template <typename F>
std::string refusal(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

struct Users : Fixture {
    User marie = create_user(*db, clock, syndicate, "  Marie.Tremblay@Example.org ", "Marie Tremblay", Role::admin,
                             "fr", good_password);

    std::string column(const std::string& sql) {
        SQLite::Statement q(db->sql(), sql);
        return q.executeStep() ? q.getColumn(0).getString() : "<none>";
    }
};

}  // namespace

TEST_SUITE("users") {

TEST_CASE("passwords: a hash verifies its password and no other") {
    const auto hash = hash_password(good_password);
    CHECK(verify_password(hash, good_password));
    CHECK_FALSE(verify_password(hash, "correct horse batterY"));
    CHECK_FALSE(verify_password(hash, ""));
    CHECK(hash_password(good_password) != hash);  // a fresh salt each time
}

TEST_CASE("passwords: the PHC string is argon2id with the stated parameters") {
    const auto hash = hash_password(good_password);
    const std::string prefix = "$argon2id$v=19$m=" + std::to_string(argon2_memory_kib) +
                               ",t=" + std::to_string(argon2_passes) + ",p=" + std::to_string(argon2_lanes) + "$";
    CHECK(hash.rfind(prefix, 0) == 0);
    CHECK(prefix == "$argon2id$v=19$m=19456,t=2,p=1$");
    // The dummy hash a sign-in with an unknown e-mail verifies costs what a real one does.
    CHECK(dummy_password_hash().rfind(prefix, 0) == 0);
    CHECK_FALSE(verify_password(dummy_password_hash(), good_password));
}

TEST_CASE("passwords: a malformed hash verifies nothing") {
    const auto hash = hash_password(good_password);
    CHECK_FALSE(verify_password("", good_password));
    CHECK_FALSE(verify_password("not a hash", good_password));
    CHECK_FALSE(verify_password(hash.substr(0, hash.size() - 5), good_password));  // cut short
    CHECK_FALSE(verify_password(hash + "$", good_password));
    CHECK_FALSE(verify_password(hash + "!", good_password));
    std::string argon2i = hash;
    argon2i.replace(0, 10, "$argon2i$");
    CHECK_FALSE(verify_password(argon2i, good_password));
    std::string old_version = hash;
    old_version.replace(old_version.find("v=19"), 4, "v=16");
    CHECK_FALSE(verify_password(old_version, good_password));
    // Parameters no hash of ours has: 4 GiB of memory, a million passes.
    std::string huge = hash;
    huge.replace(huge.find("m=19456"), 7, "m=4194304");
    CHECK_FALSE(verify_password(huge, good_password));
    std::string slow = hash;
    slow.replace(slow.find("t=2"), 3, "t=1000000");
    CHECK_FALSE(verify_password(slow, good_password));
    std::string bad_salt = hash;
    bad_salt[bad_salt.find("p=1$") + 4] = '*';
    CHECK_FALSE(verify_password(bad_salt, good_password));
    CHECK_FALSE(verify_password(std::string(hash).insert(5, 1, '\0'), good_password));
}

TEST_CASE("passwords: too short and too long are refused with a clear message") {
    CHECK(refusal([] { hash_password("123456789"); }).find("at least 10 characters") != std::string::npos);
    CHECK(refusal([] { hash_password(""); }).find("too short") != std::string::npos);
    CHECK(refusal([] { hash_password(std::string(257, 'a')); }).find("at most 256 bytes") != std::string::npos);
    CHECK(refusal([] { hash_password("1234567890"); }).empty());
    CHECK(refusal([] { hash_password(std::string(256, 'a')); }).empty());
    // Characters, not bytes: ten accented letters are twenty bytes, nine are not enough.
    CHECK(refusal([] { hash_password("ééééééééé"); }).find("too short") != std::string::npos);
    CHECK(refusal([] { hash_password("éééééééééé"); }).empty());
    try {
        check_password_rules("short");
        FAIL("expected a refusal");
    } catch (const DomainError& e) {
        CHECK(e.code() == std::string(codes::validation_failed));
        CHECK(e.field() == "/password");
    }
    // A password longer than any that may be set is never right, and is not hashed.
    CHECK_FALSE(verify_password(hash_password(std::string(256, 'a')), std::string(257, 'a')));
}

TEST_CASE_FIXTURE(Users, "create_user: the user as stored, e-mail trimmed, no hash shown") {
    CHECK(marie.email == "Marie.Tremblay@Example.org");
    CHECK(marie.syndicate_id == syndicate);
    CHECK(marie.role == Role::admin);
    CHECK(marie.language == "fr");
    CHECK(marie.created_at == "2026-11-21T15:00:00.000Z");
    CHECK_FALSE(marie.disabled_at);
    const auto found = find_user(*db, marie.id);
    REQUIRE(found);
    CHECK(found->email == marie.email);
    CHECK(found->name == "Marie Tremblay");
    CHECK(column("SELECT password_hash FROM users").rfind("$argon2id$", 0) == 0);
    CHECK(find_user_by_email(*db, "marie.tremblay@example.ORG")->id == marie.id);
    CHECK_FALSE(find_user(*db, "nobody"));
}

TEST_CASE_FIXTURE(Users, "create_user: an e-mail is unique in the whole database, whatever its case") {
    const auto message = refusal([&] {
        create_user(*db, clock, other_syndicate, "MARIE.TREMBLAY@example.org", "Autre", Role::member, "en", good_password);
    });
    CHECK(message.find("already exists") != std::string::npos);
    CHECK(list_users(*db, std::nullopt).size() == 1);
    try {
        create_user(*db, clock, syndicate, "marie.tremblay@example.org ", "Marie", Role::member, "fr", good_password);
        FAIL("expected a refusal");
    } catch (const DomainError& e) {
        CHECK(e.field() == "/email");
    }
}

TEST_CASE_FIXTURE(Users, "create_user: an invalid e-mail is refused") {
    for (const char* email : {"", "   ", "marie", "marie@", "@example.org", "marie@example", "marie@@example.org",
                              "marie@exa mple.org", "ma rie@example.org", "marie@example..org", "marie@.example.org",
                              "marie@example.org.", "marie@exa\xC2\xA0mple.org", "marie@exa\tmple.org"}) {
        CAPTURE(email);
        try {
            create_user(*db, clock, syndicate, email, "X", Role::member, "fr", good_password);
            FAIL("expected a refusal");
        } catch (const DomainError& e) {
            CHECK(e.code() == std::string(codes::invalid_email));
            CHECK(std::string(e.what()).find("not valid") != std::string::npos);
        }
    }
    CHECK(refusal([&] {
              create_user(*db, clock, syndicate, std::string(250, 'a') + "@b.ca", "X", Role::member, "fr", good_password);
          }).find("at most 254") != std::string::npos);
    CHECK(list_users(*db, std::nullopt).size() == 1);
}

TEST_CASE_FIXTURE(Users, "create_user: other refusals") {
    CHECK(refusal([&] { create_user(*db, clock, syndicate, "a@b.ca", "X", Role::member, "fr", "short"); })
              .find("too short") != std::string::npos);
    CHECK(refusal([&] { create_user(*db, clock, syndicate, "a@b.ca", "  ", Role::member, "fr", good_password); })
              .find("needs a name") != std::string::npos);
    CHECK(refusal([&] { create_user(*db, clock, syndicate, "a@b.ca", "X", Role::member, "de", good_password); })
              .find("fr or en") != std::string::npos);
    CHECK(refusal([&] { create_user(*db, clock, "no-such", "a@b.ca", "X", Role::member, "fr", good_password); })
              .find("no syndicate") != std::string::npos);
    CHECK(list_users(*db, std::nullopt).size() == 1);
}

TEST_CASE_FIXTURE(Users, "list_users: every user, or one syndicate's") {
    const auto jean = create_user(*db, clock, other_syndicate, "jean@example.org", "Jean", Role::member, "en", good_password);
    CHECK(list_users(*db, std::nullopt).size() == 2);
    const auto b = list_users(*db, other_syndicate);
    REQUIRE(b.size() == 1);
    CHECK(b[0].id == jean.id);
    CHECK(b[0].language == "en");
    CHECK(b[0].role == Role::member);
}

TEST_CASE_FIXTURE(Users, "sign_in: the right password in any case of the e-mail") {
    const auto user = sign_in(*db, "MARIE.tremblay@example.org", good_password);
    REQUIRE(user);
    CHECK(user->id == marie.id);
}

TEST_CASE_FIXTURE(Users, "sign_in: refusals") {
    CHECK_FALSE(sign_in(*db, "nobody@example.org", good_password));  // unknown e-mail
    CHECK_FALSE(sign_in(*db, marie.email, "correct horse batterie"));  // wrong password
    CHECK_FALSE(sign_in(*db, marie.email, ""));
    CHECK_FALSE(sign_in(*db, marie.email, std::string(10000, 'x')));
    CHECK(disable_user(*db, clock, marie.email));
    CHECK_FALSE(sign_in(*db, marie.email, good_password));  // disabled user
}

TEST_CASE_FIXTURE(Users, "sign_in: an unknown e-mail takes about as long as a known one") {
    using namespace std::chrono;
    const auto time = [&](const char* email) {
        const auto start = steady_clock::now();
        for (int i = 0; i < 3; ++i) sign_in(*db, email, "wrong password");
        return steady_clock::now() - start;
    };
    const auto known = time("marie.tremblay@example.org");
    const auto unknown = time("nobody@example.org");
    CAPTURE(duration_cast<milliseconds>(known).count());
    CAPTURE(duration_cast<milliseconds>(unknown).count());
    // Both run three argon2 verifications; without the dummy one the unknown e-mail takes ~0 ms.
    CHECK(unknown * 3 > known);
}

TEST_CASE_FIXTURE(Users, "disable_user: by id or e-mail, once") {
    CHECK_FALSE(disable_user(*db, clock, "nobody@example.org"));
    CHECK_FALSE(disable_user(*db, clock, ""));
    clock.advance(std::chrono::minutes(5));
    CHECK(disable_user(*db, clock, " MARIE.TREMBLAY@EXAMPLE.ORG "));
    CHECK(find_user(*db, marie.id)->disabled_at == "2026-11-21T15:05:00.000Z");
    CHECK_FALSE(disable_user(*db, clock, marie.id));  // already disabled
    const auto jean = create_user(*db, clock, syndicate, "jean@example.org", "Jean", Role::member, "fr", good_password);
    CHECK(disable_user(*db, clock, jean.id));
    CHECK(find_user(*db, jean.id)->disabled_at);
}

TEST_CASE_FIXTURE(Users, "sessions: start, read, end") {
    const auto session = start_session(*db, clock, marie.id);
    CHECK(session.token.size() == 43);
    CHECK(session.csrf_token.size() == 43);
    CHECK(session.token != session.csrf_token);
    CHECK(session.expires_at == "2026-11-22T03:00:00.000Z");  // 12 hours
    const auto read = session_user(*db, clock, session.token);
    REQUIRE(read);
    CHECK(read->first.id == marie.id);
    CHECK(read->second == session.csrf_token);
    CHECK(csrf_token_matches(read->second, session.csrf_token));
    CHECK_FALSE(csrf_token_matches(read->second, session.token));
    CHECK_FALSE(csrf_token_matches(read->second, session.csrf_token.substr(1)));
    CHECK_FALSE(csrf_token_matches("", ""));

    // Another session of the same user lives on when this one ends.
    const auto other = start_session(*db, clock, marie.id);
    end_session(*db, clock, session.token);
    CHECK_FALSE(session_user(*db, clock, session.token));
    CHECK(session_user(*db, clock, other.token));
    CHECK_FALSE(session_user(*db, clock, ""));
    CHECK_FALSE(session_user(*db, clock, new_token()));
    CHECK_FALSE(session_user(*db, clock, session.token.substr(1)));
}

TEST_CASE_FIXTURE(Users, "sessions: the cookie's value is not stored, its SHA-256 is") {
    const auto session = start_session(*db, clock, marie.id);
    CHECK(column("SELECT count(*) FROM user_sessions") == "1");
    CHECK(column("SELECT token_hash FROM user_sessions") == sha256_hex(session.token));
    CHECK(column("SELECT count(*) FROM user_sessions WHERE token_hash = '" + session.token + "' OR csrf_token = '" +
                 session.token + "' OR instr(token_hash, '" + session.token + "') > 0") == "0");
}

TEST_CASE_FIXTURE(Users, "sessions: expire after 12 hours") {
    const auto session = start_session(*db, clock, marie.id);
    clock.advance(std::chrono::hours(12) - std::chrono::milliseconds(1));
    CHECK(session_user(*db, clock, session.token));
    clock.advance(std::chrono::milliseconds(1));
    CHECK_FALSE(session_user(*db, clock, session.token));
    // A new session clears the expired ones away.
    start_session(*db, clock, marie.id);
    CHECK(column("SELECT count(*) FROM user_sessions") == "1");
}

TEST_CASE_FIXTURE(Users, "sessions: a disabled user's sessions end, and none starts") {
    const auto session = start_session(*db, clock, marie.id);
    db->sql().exec(
        "INSERT INTO oauth_clients (id, name, redirect_uris, auth_method, registered_by, created_at) "
        "VALUES ('c1', 'App', '[]', 'none', 'admin', '2026-11-21T15:00:00.000Z')");
    db->sql().exec(
        "INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, user_id, scope, resource, created_at, "
        "expires_at) VALUES ('h', 'f', 'c1', '" + marie.id + "', '*', 'r', '2026-11-21T15:00:00.000Z', '2026-12-21T15:00:00.000Z')");
    CHECK(disable_user(*db, clock, marie.id));
    CHECK(column("SELECT revoked_at FROM oauth_refresh_tokens") == "2026-11-21T15:00:00.000Z");
    CHECK_FALSE(session_user(*db, clock, session.token));
    CHECK(column("SELECT ended_at FROM user_sessions") == "2026-11-21T15:00:00.000Z");
    CHECK(refusal([&] { start_session(*db, clock, marie.id); }).find("no enabled user") != std::string::npos);
}

TEST_CASE_FIXTURE(Users, "sessions: a user disabled by hand in the table is refused too") {
    const auto session = start_session(*db, clock, marie.id);
    db->sql().exec("UPDATE users SET disabled_at = '2026-11-21T15:00:00.000Z'");
    CHECK_FALSE(session_user(*db, clock, session.token));
}

TEST_CASE("ids: random tokens are 43 base64url characters, each new") {
    const auto a = new_token(), b = new_token();
    CHECK(a.size() == 43);
    CHECK(a != b);
    CHECK(a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
}

}  // TEST_SUITE

}  // namespace users_test
