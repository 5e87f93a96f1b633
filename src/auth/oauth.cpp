#include "auth/oauth.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

#include "core/ids.hpp"
#include "core/text.hpp"

namespace syndic::oauth {

using nlohmann::json;

namespace {

std::optional<std::string> nullable(SQLite::Column column) {
    if (column.isNull()) return std::nullopt;
    return column.getString();
}

Client read_client(SQLite::Statement& q) {
    Client c;
    c.id = q.getColumn(0).getString();
    c.name = q.getColumn(1).getString();
    for (const auto& uri : json::parse(q.getColumn(2).getString())) c.redirect_uris.push_back(uri);
    c.auth_method = q.getColumn(3).getString();
    c.registered_by = q.getColumn(4).getString();
    c.client_uri = nullable(q.getColumn(5));
    c.created_at = q.getColumn(6).getString();
    c.disabled_at = nullable(q.getColumn(7));
    return c;
}

constexpr const char* client_columns =
    "id, name, redirect_uris, auth_method, registered_by, client_uri, created_at, disabled_at";

// A family revoked: its refresh tokens, and the access tokens it gave that still live.
void revoke_family(Database& db, const Clock& clock, std::string_view family_id) {
    auto q = db.prepare("UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL");
    q->bind(1, to_utc_iso(clock.now()));
    q->bind(2, std::string(family_id));
    q->exec();
    auto a = db.prepare(
        "INSERT OR IGNORE INTO oauth_revoked_access_tokens (jti, expires_at) "
        "SELECT jti, expires_at FROM oauth_issued_access_tokens WHERE family_id = ? AND expires_at > ?");
    a->bind(1, std::string(family_id));
    a->bind(2, to_utc_iso(clock.now() - std::chrono::minutes(1)));
    a->exec();
}

OAuthError invalid_grant(const std::string& why) { return OAuthError("invalid_grant", why); }

}  // namespace

bool valid_redirect_uri(std::string_view uri) {
    if (uri.empty() || uri.size() > 2000 || uri.find('#') != std::string_view::npos) return false;
    if (std::any_of(uri.begin(), uri.end(), [](unsigned char c) { return c <= 0x20 || c == 0x7f; })) return false;
    const auto colon = uri.find(':');
    if (colon == std::string_view::npos || colon == 0) return false;
    std::string scheme(uri.substr(0, colon));
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!std::all_of(scheme.begin(), scheme.end(), [](unsigned char c) { return std::isalnum(c) || c == '+' || c == '-' || c == '.'; }))
        return false;
    if (scheme == "https" || scheme == "http") {
        if (uri.substr(colon, 3) != "://") return false;
        const auto rest = uri.substr(colon + 3);
        const auto end = rest.find_first_of("/?");
        auto host = rest.substr(0, end);
        if (host.empty() || host.find('@') != std::string_view::npos) return false;
        if (host.front() != '[') host = host.substr(0, host.find(':'));
        else host = host.substr(0, host.find(']') + 1);
        return scheme == "https" || is_loopback_host(host);
    }
    // A private-use scheme names its owner as a reversed domain (RFC 8252, 7.1).
    return scheme.find('.') != std::string::npos && uri.size() > colon + 1;
}

RegisteredClient register_client(Database& db, const Clock& clock, const std::string& name,
                                 const std::vector<std::string>& redirect_uris, const std::string& auth_method,
                                 const std::string& registered_by, const std::optional<std::string>& client_uri) {
    if (redirect_uris.empty() || redirect_uris.size() > 10)
        throw OAuthError("invalid_redirect_uri", "A client needs one to ten redirect URIs.");
    for (const auto& uri : redirect_uris)
        if (!valid_redirect_uri(uri))
            throw OAuthError("invalid_redirect_uri",
                             "Redirect URIs must be https, http on a loopback host, or a private-use scheme such as "
                             "com.example.app:/callback, without a fragment: " + uri.substr(0, 200));
    const auto display = name.empty() ? std::string("(unnamed application)") : name;
    if (display.size() > 200) throw OAuthError("invalid_client_metadata", "client_name is longer than 200 characters.");
    // No control, invisible or text-direction character (Unicode Cc and Cf, the fillers and blanks
    // that show as nothing: core/text.hpp): a name must read as it is shown (U+202E would reverse
    // it, U+200B or U+3164 hide a difference from a trusted name).
    if (!valid_utf8(display) || holds_control_or_invisible(display))
        throw OAuthError("invalid_client_metadata", "client_name holds control, invisible or text-direction characters.");
    if (auth_method != "none" && auth_method != "client_secret_basic" && auth_method != "client_secret_post")
        throw OAuthError("invalid_client_metadata",
                         "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post.");
    if (client_uri && (client_uri->size() > 2000 || !(client_uri->rfind("https://", 0) == 0 || client_uri->rfind("http://", 0) == 0) ||
                       std::any_of(client_uri->begin(), client_uri->end(), [](unsigned char c) { return c <= 0x20 || c == 0x7f; })))
        throw OAuthError("invalid_client_metadata", "client_uri must be an http(s) URL of at most 2000 characters.");

    RegisteredClient out;
    out.client = {new_uuid(), display, redirect_uris, auth_method, registered_by, client_uri, to_utc_iso(clock.now()), std::nullopt};
    if (auth_method != "none") out.secret = new_token(32);
    auto q = db.prepare(
        "INSERT INTO oauth_clients (id, name, redirect_uris, secret_hash, auth_method, registered_by, client_uri, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, out.client.id);
    q->bind(2, out.client.name);
    q->bind(3, json(redirect_uris).dump());
    if (out.secret) q->bind(4, sha256_hex(*out.secret));
    else q->bind(4);
    q->bind(5, auth_method);
    q->bind(6, registered_by);
    if (client_uri) q->bind(7, *client_uri);
    else q->bind(7);
    q->bind(8, out.client.created_at);
    q->exec();
    return out;
}

namespace {

// A client that registered itself and has had no authorization code since `expired_before`:
// it never completed an authorization, and is gone (issue 28, point 5).
constexpr const char* unfinished =
    "(registered_by = 'dynamic' AND created_at < ?1 AND NOT EXISTS (SELECT 1 FROM oauth_codes c WHERE c.client_id = oauth_clients.id))";

std::string expired_before(Instant now) { return to_utc_iso(now - unfinished_client_lifetime); }

}  // namespace

int dynamic_clients_counted(Database& db, Instant now) {
    auto q = db.prepare(std::string("SELECT count(*) FROM oauth_clients WHERE registered_by = 'dynamic' AND created_at >= ?2 AND NOT ") +
                        unfinished);
    q->bind(1, expired_before(now));
    q->bind(2, to_utc_iso(now - std::chrono::hours(24)));
    q->executeStep();
    return q->getColumn(0).getInt();
}

int forget_unfinished_clients(Database& db, Instant now) {
    auto q = db.prepare(std::string("DELETE FROM oauth_clients WHERE ") + unfinished);
    q->bind(1, expired_before(now));
    return q->exec();
}

std::optional<Client> find_client(Database& db, std::string_view client_id, Instant now) {
    auto q = db.prepare(std::string("SELECT ") + client_columns + " FROM oauth_clients WHERE id = ?2 AND NOT " + unfinished);
    q->bind(1, expired_before(now));
    q->bind(2, std::string(client_id));
    if (!q->executeStep()) return std::nullopt;
    return read_client(*q);
}

std::vector<Client> list_clients(Database& db, Instant now) {
    auto q = db.prepare(std::string("SELECT ") + client_columns + " FROM oauth_clients WHERE NOT " + unfinished +
                        " ORDER BY created_at, id");
    q->bind(1, expired_before(now));
    std::vector<Client> out;
    while (q->executeStep()) out.push_back(read_client(*q));
    return out;
}

bool disable_client(Database& db, const Clock& clock, std::string_view client_id) {
    WriteTransaction tx(db);
    auto q = db.prepare("UPDATE oauth_clients SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL");
    q->bind(1, to_utc_iso(clock.now()));
    q->bind(2, std::string(client_id));
    const bool changed = q->exec() == 1;
    auto r = db.prepare("UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL");
    r->bind(1, to_utc_iso(clock.now()));
    r->bind(2, std::string(client_id));
    r->exec();
    tx.commit();
    return changed;
}

Client authenticate_client(Database& db, std::string_view client_id, const std::optional<std::string>& secret, Instant now) {
    const auto unknown = OAuthError("invalid_client", "Unknown client, or its credentials are wrong.", 401);
    if (client_id.empty() || client_id.size() > 100) throw unknown;
    auto client = find_client(db, client_id, now);
    if (!client || client->disabled_at) throw unknown;
    if (client->is_public()) {
        if (secret) throw OAuthError("invalid_client", "This client is public: it has no secret to present.", 401);
        return *client;
    }
    if (!secret) throw unknown;
    auto q = db.prepare("SELECT secret_hash FROM oauth_clients WHERE id = ?");
    q->bind(1, std::string(client_id));
    if (!q->executeStep() || q->getColumn(0).isNull() || !same_secret(q->getColumn(0).getString(), sha256_hex(*secret))) throw unknown;
    return *client;
}

bool valid_code_verifier(std::string_view verifier) {
    return verifier.size() >= 43 && verifier.size() <= 128 &&
           std::all_of(verifier.begin(), verifier.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~'; });
}

std::string code_challenge_s256(std::string_view verifier) { return sha256_base64url(verifier); }

std::string issue_code(Database& db, const Clock& clock, const CodeGrant& grant) {
    const auto code = new_token(32);
    const auto now = clock.now();
    auto q = db.prepare(
        "INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, scope, resource, family_id, "
        "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, sha256_hex(code));
    q->bind(2, grant.client_id);
    q->bind(3, grant.user_id);
    q->bind(4, grant.redirect_uri);
    q->bind(5, grant.code_challenge);
    q->bind(6, grant.scope);
    q->bind(7, grant.resource);
    q->bind(8, new_uuid());
    q->bind(9, to_utc_iso(now));
    q->bind(10, to_utc_iso(now + std::chrono::seconds(code_lifetime_seconds)));
    q->exec();
    return code;
}

Grant redeem_code(Database& db, const Clock& clock, std::string_view code, std::string_view client_id,
                  std::string_view redirect_uri, std::string_view code_verifier) {
    WriteTransaction tx(db);
    auto q = db.prepare(
        "SELECT client_id, user_id, redirect_uri, code_challenge, scope, resource, family_id, expires_at, used_at "
        "FROM oauth_codes WHERE code_hash = ?");
    q->bind(1, sha256_hex(code));
    if (code.empty() || code.size() > 200 || !q->executeStep()) throw invalid_grant("The authorization code is unknown.");
    Grant grant{q->getColumn(1).getString(), q->getColumn(0).getString(), q->getColumn(4).getString(),
                q->getColumn(5).getString(), q->getColumn(6).getString()};
    const auto stored_redirect = q->getColumn(2).getString();
    const auto challenge = q->getColumn(3).getString();
    const auto expires_at = q->getColumn(7).getString();
    const bool used = !q->getColumn(8).isNull();
    q->reset();
    if (used) {
        // A code seen twice was stolen or replayed: what it gave is taken back (RFC 6749, 4.1.2).
        revoke_family(db, clock, grant.family_id);
        tx.commit();
        throw invalid_grant("The authorization code was already used; the tokens it gave are revoked.");
    }
    auto spend = db.prepare("UPDATE oauth_codes SET used_at = ? WHERE code_hash = ?");
    spend->bind(1, to_utc_iso(clock.now()));
    spend->bind(2, sha256_hex(code));
    spend->exec();
    tx.commit();  // spent whatever follows: a code is tried once
    if (to_utc_iso(clock.now()) >= expires_at) throw invalid_grant("The authorization code has expired.");
    if (grant.client_id != client_id) throw invalid_grant("The authorization code was issued to another client.");
    if (stored_redirect != redirect_uri) throw invalid_grant("redirect_uri differs from the one of the authorization request.");
    if (!valid_code_verifier(code_verifier) || !same_secret(code_challenge_s256(code_verifier), challenge))
        throw invalid_grant("The code_verifier does not match the code_challenge (PKCE S256).");
    return grant;
}

std::string issue_refresh_token(Database& db, const Clock& clock, const Grant& grant) {
    const auto token = new_token(32);
    const auto now = clock.now();
    auto q = db.prepare(
        "INSERT INTO oauth_refresh_tokens (token_hash, family_id, client_id, user_id, scope, resource, created_at, expires_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, sha256_hex(token));
    q->bind(2, grant.family_id);
    q->bind(3, grant.client_id);
    q->bind(4, grant.user_id);
    q->bind(5, grant.scope);
    q->bind(6, grant.resource);
    q->bind(7, to_utc_iso(now));
    q->bind(8, to_utc_iso(now + std::chrono::days(refresh_lifetime_days)));
    q->exec();
    return token;
}

Grant rotate_refresh_token(Database& db, const Clock& clock, std::string_view token, std::string_view client_id) {
    WriteTransaction tx(db);
    auto q = db.prepare(
        "SELECT family_id, client_id, user_id, scope, resource, expires_at, rotated_at, revoked_at "
        "FROM oauth_refresh_tokens WHERE token_hash = ?");
    q->bind(1, sha256_hex(token));
    if (token.empty() || token.size() > 200 || !q->executeStep()) throw invalid_grant("The refresh token is unknown.");
    Grant grant{q->getColumn(2).getString(), q->getColumn(1).getString(), q->getColumn(3).getString(),
                q->getColumn(4).getString(), q->getColumn(0).getString()};
    const auto expires_at = q->getColumn(5).getString();
    const bool spent = !q->getColumn(6).isNull() || !q->getColumn(7).isNull();
    q->reset();
    if (grant.client_id != client_id) throw invalid_grant("The refresh token was issued to another client.");
    if (spent) {
        revoke_family(db, clock, grant.family_id);  // a spent token again: someone else holds the family
        tx.commit();
        throw invalid_grant("The refresh token was already used or revoked; its whole grant is now revoked.");
    }
    if (to_utc_iso(clock.now()) >= expires_at) throw invalid_grant("The refresh token has expired.");
    auto spend = db.prepare("UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE token_hash = ?");
    spend->bind(1, to_utc_iso(clock.now()));
    spend->bind(2, sha256_hex(token));
    spend->exec();
    tx.commit();
    return grant;
}

bool revoke_refresh_token(Database& db, const Clock& clock, std::string_view token, std::string_view client_id) {
    WriteTransaction tx(db);
    auto q = db.prepare("SELECT family_id, client_id FROM oauth_refresh_tokens WHERE token_hash = ?");
    q->bind(1, sha256_hex(token));
    if (!q->executeStep() || q->getColumn(1).getString() != client_id) return false;
    const auto family = q->getColumn(0).getString();
    q->reset();
    revoke_family(db, clock, family);
    tx.commit();
    return true;
}

void revoke_user_tokens(Database& db, const Clock& clock, std::string_view user_id) {
    std::vector<std::string> families;
    {
        auto q = db.prepare("SELECT DISTINCT family_id FROM oauth_refresh_tokens WHERE user_id = ? AND revoked_at IS NULL");
        q->bind(1, std::string(user_id));
        while (q->executeStep()) families.push_back(q->getColumn(0).getString());
    }
    for (const auto& family : families) revoke_family(db, clock, family);
}

void record_access_token(Database& db, const Clock& clock, std::string_view family_id, std::string_view jti,
                         const std::string& expires_at) {
    auto q = db.prepare("INSERT INTO oauth_issued_access_tokens (jti, family_id, expires_at) VALUES (?, ?, ?)");
    q->bind(1, std::string(jti));
    q->bind(2, std::string(family_id));
    q->bind(3, expires_at);
    q->exec();
    auto old = db.prepare("DELETE FROM oauth_issued_access_tokens WHERE expires_at < ?");
    old->bind(1, to_utc_iso(clock.now() - std::chrono::hours(1)));
    old->exec();
}

}  // namespace syndic::oauth
