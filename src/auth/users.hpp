// The people who sign in (docs/oauth.md): user accounts of a syndicate with a role and a language,
// their sign-in by e-mail and password, and their browser sessions (a random cookie value whose
// SHA-256 is stored, with a CSRF token of its own, for 12 hours). Knows storage, not HTTP.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/clock.hpp"
#include "core/context.hpp"
#include "storage/database.hpp"

namespace syndic {

inline constexpr std::chrono::hours session_lifetime{12};

struct User {
    std::string id;
    std::string syndicate_id;
    std::string email;  // as given, trimmed; unique in the database whatever its case
    std::string name;
    Role role = Role::member;
    std::string language;  // "fr" or "en"
    std::string created_at;
    std::optional<std::string> disabled_at;
};

struct Session {
    std::string token;       // the cookie's value, shown once: only its SHA-256 is stored
    std::string csrf_token;  // the forms of this session carry it
    std::string expires_at;
};

// The trimmed address when it is one (the co-owners' rule: local@domain.tld, at most 254
// characters, no spaces); INVALID_EMAIL at /email otherwise.
std::string checked_email(std::string_view email);
// The same, refused also when a user already has this address (in any case).
std::string available_email(Database& db, std::string_view email);

// Creates an account. Refused with a sentence (DomainError) for an unknown syndicate, an invalid
// e-mail, one already used in the database (in any case), a blank or overlong name, a language
// other than fr and en, or a password outside the rules (auth/passwords.hpp).
User create_user(Database& db, const Clock& clock, const std::string& syndicate_id, std::string_view email,
                 std::string_view name, Role role, const std::string& language, std::string_view password);
std::vector<User> list_users(Database& db, const std::optional<std::string>& syndicate_id);
std::optional<User> find_user(Database& db, const std::string& id);
std::optional<User> find_user_by_email(Database& db, std::string_view email);  // any case
// Disables the user with this id or e-mail and ends their sessions; true when an enabled user
// was found (and is now disabled).
bool disable_user(Database& db, const Clock& clock, std::string_view id_or_email);

// The user these credentials stand for; nullopt for an unknown e-mail, a wrong password or a
// disabled user, each taking one argon2 verification so the time does not tell them apart.
std::optional<User> sign_in(Database& db, std::string_view email, std::string_view password);

Session start_session(Database& db, const Clock& clock, const std::string& user_id);
// The user of a session and its CSRF token; nullopt for an unknown, expired or ended session,
// or when its user is disabled.
std::optional<std::pair<User, std::string>> session_user(Database& db, const Clock& clock, std::string_view token);
void end_session(Database& db, const Clock& clock, std::string_view token);

// Whether a presented CSRF token is the session's, compared in constant time.
bool csrf_token_matches(std::string_view expected, std::string_view presented);

}  // namespace syndic
