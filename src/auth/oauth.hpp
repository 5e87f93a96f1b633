// OAuth 2.1 grants (docs/oauth.md): clients registered dynamically (RFC 7591) or by an admin,
// single-use authorization codes bound to their client, redirect URI, PKCE challenge, scope and
// resource, and rotating refresh tokens whose reuse revokes their family. Secrets are kept as
// SHA-256 only. Knows storage, not HTTP, pages or JWTs.
#pragma once
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.hpp"
#include "storage/database.hpp"

namespace syndic::oauth {

// An OAuth error as RFC 6749 (5.2) and RFC 7591 (3.2.2) name them: "invalid_grant",
// "invalid_client", "invalid_redirect_uri"..., with one English sentence and its HTTP status.
struct OAuthError : std::runtime_error {
    OAuthError(std::string error, std::string description, int status = 400)
        : std::runtime_error(description), error(std::move(error)), description(std::move(description)), status(status) {}
    std::string error;
    std::string description;
    int status;
};

struct Client {
    std::string id;  // the client_id
    std::string name;
    std::vector<std::string> redirect_uris;
    std::string auth_method;    // none, client_secret_basic or client_secret_post
    std::string registered_by;  // dynamic or admin
    std::optional<std::string> client_uri;
    std::string created_at;
    std::optional<std::string> disabled_at;

    bool is_public() const { return auth_method == "none"; }
};

struct RegisteredClient {
    Client client;
    std::optional<std::string> secret;  // confidential clients: shown once, never stored
};

// https, http on a loopback host (RFC 8252, 7.3) or a private-use scheme with a dot
// (com.example.app:/callback); absolute, no fragment, at most 2000 characters.
bool valid_redirect_uri(std::string_view uri);

// Throws OAuthError invalid_redirect_uri or invalid_client_metadata.
RegisteredClient register_client(Database& db, const Clock& clock, const std::string& name,
                                 const std::vector<std::string>& redirect_uris, const std::string& auth_method,
                                 const std::string& registered_by, const std::optional<std::string>& client_uri = std::nullopt);
// Registration limits (docs/oauth.md): per client (address, /64, or the client a trusted proxy
// names) per hour, and dynamic clients per day.
inline constexpr int registrations_per_address_per_hour = 10;
inline constexpr int registrations_per_day = 200;
// A client that registered itself and got no authorization code within this time is gone: it
// neither counts against the day's registrations nor can be used (issue 28, point 5).
inline constexpr std::chrono::minutes unfinished_client_lifetime{15};
// The clients that registered themselves in the last 24 hours and count against the day's limit:
// those that completed an authorization, and those still within their first 15 minutes.
int dynamic_clients_counted(Database& db, Instant now);
// Deletes the clients gone unfinished; how many.
int forget_unfinished_clients(Database& db, Instant now);
// Disabled ones too; never one gone unfinished.
std::optional<Client> find_client(Database& db, std::string_view client_id, Instant now);
std::vector<Client> list_clients(Database& db, Instant now);
bool disable_client(Database& db, const Clock& clock, std::string_view client_id);
// The client for a token request: it exists, is enabled, and proves itself as its method says
// (a public client presents no secret). Throws OAuthError invalid_client (401).
Client authenticate_client(Database& db, std::string_view client_id, const std::optional<std::string>& secret, Instant now);

// PKCE S256: base64url(SHA-256(verifier)); a verifier is 43 to 128 unreserved characters.
bool valid_code_verifier(std::string_view verifier);
std::string code_challenge_s256(std::string_view verifier);

struct CodeGrant {
    std::string client_id, user_id, redirect_uri, code_challenge, scope, resource;
};
inline constexpr int code_lifetime_seconds = 60;
std::string issue_code(Database& db, const Clock& clock, const CodeGrant& grant);  // the code, once

struct Grant {
    std::string user_id, client_id, scope, resource, family_id;
};
// Spends a code: unknown, expired, used before, for another client or redirect URI, or a
// verifier that does not match: OAuthError invalid_grant. A code used twice also revokes the
// tokens it led to (refresh and access). Runs in the caller's transaction if there is one.
Grant redeem_code(Database& db, const Clock& clock, std::string_view code, std::string_view client_id,
                  std::string_view redirect_uri, std::string_view code_verifier);

inline constexpr int refresh_lifetime_days = 30;
std::string issue_refresh_token(Database& db, const Clock& clock, const Grant& grant);  // the token, once
// Spends a refresh token and gives its grant; its successor is issued by the caller with
// issue_refresh_token (same family). A spent or revoked token presented again revokes its whole
// family: OAuthError invalid_grant.
Grant rotate_refresh_token(Database& db, const Clock& clock, std::string_view token, std::string_view client_id);
// RFC 7009: revokes the token's family when it is this client's refresh token; false otherwise.
bool revoke_refresh_token(Database& db, const Clock& clock, std::string_view token, std::string_view client_id);
// Every grant of a user (a user disabled, or signing out everywhere).
void revoke_user_tokens(Database& db, const Clock& clock, std::string_view user_id);
// Notes an access token a grant gave (its jti and exp as a UTC instant), so revoking the grant
// revokes it too.
void record_access_token(Database& db, const Clock& clock, std::string_view family_id, std::string_view jti,
                         const std::string& expires_at);

}  // namespace syndic::oauth
