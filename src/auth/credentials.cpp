#include "auth/credentials.hpp"

#include <algorithm>
#include <string_view>

#include "core/ids.hpp"

namespace syndic {
namespace {

std::string join_scopes(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
    return out;
}


// The stored hash of a key. A server asks for the same key call after call (stdio has one for
// its life): the last one is remembered per thread, compared in constant time.
const std::string& key_hash(const std::string& secret) {
    thread_local std::string last_secret, last_hash;
    if (last_hash.empty() || !same_secret(secret, last_secret)) {
        last_hash = sha256_hex(secret);
        last_secret = secret;
    }
    return last_hash;
}

}  // namespace

std::vector<std::string> split_scopes(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto start = text.find_first_not_of(" \t\n");
        if (start == std::string_view::npos) break;
        text.remove_prefix(start);
        const auto end = std::min(text.find_first_of(" \t\n"), text.size());
        out.emplace_back(text.substr(0, end));
        text.remove_prefix(end);
    }
    return out;
}

std::string role_name(Role role) { return role == Role::admin ? "admin" : "member"; }

std::optional<Role> parse_role(const std::string& text) {
    if (text == "admin") return Role::admin;
    if (text == "member") return Role::member;
    return std::nullopt;
}

std::string create_syndicate(Database& db, const Clock& clock, const std::string& name, bool is_demo) {
    const std::string id = new_uuid();
    auto q = db.prepare("INSERT INTO syndicates (id, name, is_demo, created_at) VALUES (?, ?, ?, ?)");
    q->bind(1, id);
    q->bind(2, name);
    q->bind(3, is_demo ? 1 : 0);
    q->bind(4, to_utc_iso(clock.now()));
    q->exec();
    return id;
}

std::vector<Syndicate> list_syndicates(Database& db) {
    std::vector<Syndicate> out;
    auto q = db.prepare("SELECT id, name, is_demo, created_at FROM syndicates ORDER BY created_at, id");
    while (q->executeStep())
        out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(),
                       q->getColumn(2).getInt() != 0, q->getColumn(3).getString()});
    return out;
}

std::string syndicate_name(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare("SELECT name FROM syndicates WHERE id = ?");
    q->bind(1, syndicate_id);
    q->executeStep();
    return q->getColumn(0).getString();
}

std::optional<Syndicate> find_demo_syndicate(Database& db) {
    for (auto& s : list_syndicates(db))
        if (s.is_demo) return s;
    return std::nullopt;
}

IssuedKey issue_api_key(Database& db, const Clock& clock, const std::string& syndicate_id, Role role,
                        const std::vector<std::string>& scopes, const std::string& name) {
    IssuedKey key{new_uuid(), new_api_key()};
    auto q = db.prepare(
        "INSERT INTO api_keys (id, syndicate_id, name, key_hash, key_prefix, role, scopes, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    q->bind(1, key.id);
    q->bind(2, syndicate_id);
    q->bind(3, name);
    q->bind(4, sha256_hex(key.secret));
    q->bind(5, key.secret.substr(0, 8));
    q->bind(6, role_name(role));
    q->bind(7, join_scopes(scopes));
    q->bind(8, to_utc_iso(clock.now()));
    q->exec();
    return key;
}

std::vector<ApiKeyInfo> list_api_keys(Database& db, const std::optional<std::string>& syndicate_id) {
    std::vector<ApiKeyInfo> out;
    auto q = db.prepare(
        "SELECT id, syndicate_id, name, key_prefix, role, scopes, created_at, revoked_at FROM api_keys "
        "WHERE (?1 IS NULL OR syndicate_id = ?1) ORDER BY created_at, id");
    if (syndicate_id) q->bind(1, *syndicate_id);
    while (q->executeStep()) {
        ApiKeyInfo k;
        k.id = q->getColumn(0).getString();
        k.syndicate_id = q->getColumn(1).getString();
        k.name = q->getColumn(2).getString();
        k.prefix = q->getColumn(3).getString();
        k.role = parse_role(q->getColumn(4).getString()).value_or(Role::member);
        k.scopes = split_scopes(q->getColumn(5).getString());
        k.created_at = q->getColumn(6).getString();
        if (!q->getColumn(7).isNull()) k.revoked_at = q->getColumn(7).getString();
        out.push_back(std::move(k));
    }
    return out;
}

std::vector<std::string> active_keys_matching(Database& db, const std::string& key) {
    std::string wanted = key;
    for (const std::string ellipsis : {"\u2026", "..."})
        if (wanted.size() >= ellipsis.size() && wanted.ends_with(ellipsis)) wanted.resize(wanted.size() - ellipsis.size());
    std::vector<std::string> ids;
    if (wanted.empty()) return ids;
    const bool shown_prefix = wanted.rfind("sk_", 0) == 0;
    auto q = db.prepare(std::string("SELECT id FROM api_keys WHERE substr(") + (shown_prefix ? "key_prefix" : "id") +
                        ", 1, length(?1)) = ?1 AND revoked_at IS NULL ORDER BY id");
    q->bind(1, wanted);
    while (q->executeStep()) ids.push_back(q->getColumn(0).getString());
    return ids;
}

bool revoke_api_key(Database& db, const Clock& clock, const std::string& key) {
    WriteTransaction tx(db);
    const auto ids = active_keys_matching(db, key);
    if (ids.size() != 1) return false;
    auto q = db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?");
    q->bind(1, to_utc_iso(clock.now()));
    q->bind(2, ids.front());
    q->exec();
    tx.commit();
    return true;
}

std::optional<CallerContext> authenticate(Database& db, const std::string& secret) {
    if (secret.rfind("sk_", 0) != 0 || secret.size() < 3 + 32) return std::nullopt;
    auto q = db.prepare(
        "SELECT id, syndicate_id, role, scopes FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL");
    q->bind(1, key_hash(secret));
    if (!q->executeStep()) return std::nullopt;
    CallerContext caller;
    caller.api_key_id = q->getColumn(0).getString();
    caller.syndicate_id = q->getColumn(1).getString();
    caller.role = parse_role(q->getColumn(2).getString()).value_or(Role::member);
    caller.scopes = split_scopes(q->getColumn(3).getString());
    return caller;
}

}  // namespace syndic
