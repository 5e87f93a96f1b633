// Syndicates (and their required quorum) and their API keys (decisions 4): creating a syndicate,
// issuing a key once (only its
// SHA-256 is stored), listing and revoking keys, and turning a presented key into the caller's
// context. Knows storage, not tools or the wire.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/context.hpp"
#include "core/fraction.hpp"
#include "storage/database.hpp"

namespace syndic {

inline constexpr const char* all_scopes = "*";  // a key that holds every scope, present and future

struct Syndicate {
    std::string id;
    std::string name;
    bool is_demo = false;
    std::string created_at;
};

struct IssuedKey {
    std::string id;
    std::string secret;  // shown once, never stored
};

struct ApiKeyInfo {
    std::string id;
    std::string syndicate_id;
    std::string name;
    std::string prefix;  // the secret's first characters, to tell keys apart
    Role role = Role::member;
    std::vector<std::string> scopes;
    std::string created_at;
    std::optional<std::string> revoked_at;
};

std::string create_syndicate(Database& db, const Clock& clock, const std::string& name, bool is_demo);
std::vector<Syndicate> list_syndicates(Database& db);
// The syndicate's name (the heading of its notices and minutes, its settings); the syndicate exists.
std::string syndicate_name(Database& db, const std::string& syndicate_id);
std::optional<Syndicate> find_demo_syndicate(Database& db);

IssuedKey issue_api_key(Database& db, const Clock& clock, const std::string& syndicate_id, Role role,
                        const std::vector<std::string>& scopes, const std::string& name);
std::vector<ApiKeyInfo> list_api_keys(Database& db, const std::optional<std::string>& syndicate_id);
// The active keys a `keys revoke` argument names: keys whose id starts with it, or, for an
// argument starting with "sk_", whose shown prefix (`keys list`'s "sk_l56E0…", with or without
// the ellipsis) starts with it.
std::vector<std::string> active_keys_matching(Database& db, const std::string& key);
// True when exactly one active key matches (active_keys_matching) and it is now revoked; an
// ambiguous or unknown argument revokes nothing.
bool revoke_api_key(Database& db, const Clock& clock, const std::string& key);

// The caller a presented secret stands for; nullopt for an unknown, malformed or revoked key.
std::optional<CallerContext> authenticate(Database& db, const std::string& secret);

// A key's stored scopes (space-separated) as a list.
std::vector<std::string> split_scopes(std::string_view text);
std::string role_name(Role role);
std::optional<Role> parse_role(const std::string& text);

}  // namespace syndic
