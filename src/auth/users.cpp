#include "auth/users.hpp"


#include <SQLiteCpp/Exception.h>
#include <sqlite3.h>

#include "auth/credentials.hpp"
#include "auth/passwords.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"

namespace syndic {
namespace {

constexpr std::size_t max_email_length = 254;
constexpr std::size_t max_name_characters = 200;

// The columns read_user expects, in its order.
#define USER_COLUMNS "id, syndicate_id, email, name, role, language, created_at, disabled_at"

User read_user(SQLite::Statement& q, int first = 0) {
    User u;
    u.id = q.getColumn(first + 0).getString();
    u.syndicate_id = q.getColumn(first + 1).getString();
    u.email = q.getColumn(first + 2).getString();
    u.name = q.getColumn(first + 3).getString();
    u.role = parse_role(q.getColumn(first + 4).getString()).value_or(Role::member);
    u.language = q.getColumn(first + 5).getString();
    u.created_at = q.getColumn(first + 6).getString();
    if (!q.getColumn(first + 7).isNull()) u.disabled_at = q.getColumn(first + 7).getString();
    return u;
}

// True when `text` holds a control character or white space (ASCII or Unicode, as trim() knows it).
bool has_space(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return true;
        const auto window = text.substr(i, 3);  // the longest space is 3 bytes of UTF-8
        if (trim(window).size() != window.size()) return true;
    }
    return false;
}

DomainError email_error(std::string_view email) {
    const std::string shown = email.size() <= max_email_length ? " '" + std::string(email) + "'" : "";
    return DomainError(codes::invalid_email,
                       "The e-mail address" + shown + " is not valid: it takes the form local@domain.tld (at most 254 characters, no spaces).")
        .at("/email")
        .with_errors({{"/email", "does not have the expected format"}});
}

void require_syndicate(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT 1 FROM syndicates WHERE id = ?");
    q->bind(1, syndicate_id);
    if (!q->executeStep()) throw std::runtime_error("no syndicate with id " + syndicate_id);
}

DomainError duplicate_email(const std::string& email) {
    return invalid_argument("/email", "is already used",
                            "A user with the e-mail address " + email +
                                " already exists (an address signs in one account, whatever its case).");
}

// The password hash of the user with this e-mail, with the user.
std::optional<std::pair<User, std::string>> user_and_hash(Database& db, std::string_view email) {
    auto q = db.prepare("SELECT " USER_COLUMNS ", password_hash FROM users WHERE email = ? COLLATE NOCASE");
    q->bind(1, trim(email));
    if (!q->executeStep()) return std::nullopt;
    return std::pair{read_user(*q), q->getColumn(8).getString()};
}

}  // namespace

std::string checked_email(std::string_view email) {
    const std::string trimmed = trim(email);
    if (trimmed.empty() || trimmed.size() > max_email_length || has_space(trimmed)) throw email_error(email);
    const auto at = trimmed.find('@');
    if (at == 0 || at == std::string::npos || trimmed.find('@', at + 1) != std::string::npos) throw email_error(email);
    // The domain: two labels or more, none empty.
    const std::string_view domain = std::string_view(trimmed).substr(at + 1);
    std::size_t labels = 0, start = 0;
    for (std::size_t dot; start <= domain.size(); start = dot + 1, ++labels) {
        dot = domain.find('.', start);
        if (dot == std::string_view::npos) dot = domain.size();
        if (dot == start) throw email_error(email);
    }
    if (labels < 2) throw email_error(email);
    return trimmed;
}

std::string available_email(Database& db, std::string_view email) {
    auto address = checked_email(email);
    if (find_user_by_email(db, address)) throw duplicate_email(address);
    return address;
}

User create_user(Database& db, const Clock& clock, const std::string& syndicate_id, std::string_view email,
                 std::string_view name, Role role, const std::string& language, std::string_view password) {
    require_syndicate(db, syndicate_id);
    User user;
    user.email = available_email(db, email);
    user.name = trim(name);
    if (user.name.empty()) throw invalid_argument("/name", "is blank", "A user needs a name.");
    std::size_t characters = 0;
    for (unsigned char c : user.name) characters += (c & 0xC0) != 0x80;
    if (characters > max_name_characters)
        throw invalid_argument("/name", "is longer than 200 characters", "A user's name has at most 200 characters.");
    if (language != "fr" && language != "en")
        throw invalid_argument("/language", "is neither fr nor en", "A user's language is fr or en, not '" + language + "'.");
    const std::string hash = hash_password(password);  // checks the password's rules

    user.id = new_uuid();
    user.syndicate_id = syndicate_id;
    user.role = role;
    user.language = language;
    user.created_at = to_utc_iso(clock.now());
    auto q = db.prepare(
        "INSERT INTO users (id, syndicate_id, email, name, role, password_hash, language, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, user.id);
    q->bind(2, user.syndicate_id);
    q->bind(3, user.email);
    q->bind(4, user.name);
    q->bind(5, role_name(role));
    q->bind(6, hash);
    q->bind(7, user.language);
    q->bind(8, user.created_at);
    try {
        q->exec();
    } catch (const SQLite::Exception& e) {
        // Another process took the address since the check above.
        if (e.getExtendedErrorCode() == SQLITE_CONSTRAINT_UNIQUE) throw duplicate_email(user.email);
        throw;
    }
    return user;
}

std::vector<User> list_users(Database& db, const std::optional<std::string>& syndicate_id) {
    std::vector<User> out;
    auto q = db.prepare("SELECT " USER_COLUMNS " FROM users WHERE (?1 IS NULL OR syndicate_id = ?1) ORDER BY created_at, id");
    if (syndicate_id) q->bind(1, *syndicate_id);
    while (q->executeStep()) out.push_back(read_user(*q));
    return out;
}

std::optional<User> find_user(Database& db, const std::string& id) {
    auto q = db.prepare("SELECT " USER_COLUMNS " FROM users WHERE id = ?");
    q->bind(1, id);
    if (!q->executeStep()) return std::nullopt;
    return read_user(*q);
}

std::optional<User> find_user_by_email(Database& db, std::string_view email) {
    if (auto found = user_and_hash(db, email)) return std::move(found->first);
    return std::nullopt;
}

bool disable_user(Database& db, const Clock& clock, std::string_view id_or_email) {
    const std::string key = trim(id_or_email);
    if (key.empty()) return false;
    WriteTransaction tx(db);
    std::string id;
    {
        auto q = db.prepare("SELECT id FROM users WHERE (id = ?1 OR email = ?1 COLLATE NOCASE) AND disabled_at IS NULL");
        q->bind(1, key);
        if (!q->executeStep()) return false;
        id = q->getColumn(0).getString();
    }
    const std::string now = to_utc_iso(clock.now());
    // The account, its browser sessions and its refresh tokens end together.
    for (const char* sql : {"UPDATE users SET disabled_at = ?1 WHERE id = ?2",
                            "UPDATE user_sessions SET ended_at = ?1 WHERE user_id = ?2 AND ended_at IS NULL",
                            "UPDATE oauth_refresh_tokens SET revoked_at = ?1 WHERE user_id = ?2 AND revoked_at IS NULL"}) {
        auto q = db.prepare(sql);
        q->bind(1, now);
        q->bind(2, id);
        q->exec();
    }
    tx.commit();
    return true;
}

std::optional<User> sign_in(Database& db, std::string_view email, std::string_view password) {
    auto found = user_and_hash(db, email);
    if (!found) {
        verify_password(dummy_password_hash(), password);  // as long as a known e-mail takes
        return std::nullopt;
    }
    if (!verify_password(found->second, password) || found->first.disabled_at) return std::nullopt;
    return std::move(found->first);
}

Session start_session(Database& db, const Clock& clock, const std::string& user_id) {
    const auto user = find_user(db, user_id);
    if (!user || user->disabled_at) throw std::runtime_error("no enabled user with id " + user_id);
    const auto now = clock.now();
    Session session{new_token(), new_token(), to_utc_iso(now + session_lifetime)};
    WriteTransaction tx(db);
    {
        // Expired sessions can never serve again: they go as new ones come.
        auto q = db.prepare("DELETE FROM user_sessions WHERE expires_at <= ?");
        q->bind(1, to_utc_iso(now));
        q->exec();
    }
    auto q = db.prepare(
        "INSERT INTO user_sessions (token_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)");
    q->bind(1, sha256_hex(session.token));
    q->bind(2, user_id);
    q->bind(3, session.csrf_token);
    q->bind(4, to_utc_iso(now));
    q->bind(5, session.expires_at);
    q->exec();
    tx.commit();
    return session;
}

std::optional<std::pair<User, std::string>> session_user(Database& db, const Clock& clock, std::string_view token) {
    if (token.empty() || token.size() > 256) return std::nullopt;
    auto q = db.prepare(
        "SELECT s.csrf_token, s.expires_at, s.ended_at, u.id, u.syndicate_id, u.email, u.name, u.role, u.language, "
        "u.created_at, u.disabled_at FROM user_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?");
    q->bind(1, sha256_hex(token));
    if (!q->executeStep()) return std::nullopt;
    // Stored instants share one fixed-width UTC form, so they compare as text.
    if (!q->getColumn(2).isNull() || to_utc_iso(clock.now()) >= q->getColumn(1).getString()) return std::nullopt;
    User user = read_user(*q, 3);
    if (user.disabled_at) return std::nullopt;
    return std::pair{std::move(user), q->getColumn(0).getString()};
}

void end_session(Database& db, const Clock& clock, std::string_view token) {
    if (token.empty() || token.size() > 256) return;
    auto q = db.prepare("UPDATE user_sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL");
    q->bind(1, to_utc_iso(clock.now()));
    q->bind(2, sha256_hex(token));
    q->exec();
}

bool csrf_token_matches(std::string_view expected, std::string_view presented) {
    return !expected.empty() && same_secret(expected, presented);
}

}  // namespace syndic

// This file's SQL fragments end with it (a unity build compiles several files as one).
#undef USER_COLUMNS
