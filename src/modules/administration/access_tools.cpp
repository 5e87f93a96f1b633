// The administration module's view of who may act for the syndicate (catalogue section 4.2): the
// users who sign in and the API keys, listed, changed or revoked; never created here (the command
// line does that, so no password or key passes through an assistant). The syndicate always keeps
// a credential able to administer it: an enabled admin user or an unrevoked admin key holding
// write:administration (LAST_ADMIN).
#include "modules/administration/administration.hpp"

#include <nlohmann/json.hpp>

#include <string>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

using nlohmann::json;

constexpr const char* user_columns =
    "u.id, u.email, u.name, u.role, u.language, u.disabled_at IS NOT NULL, "
    "(SELECT max(s.created_at) FROM user_sessions s WHERE s.user_id = u.id), u.created_at";

json user_json(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},       {"email", q.getColumn(1).getString()},
            {"name", q.getColumn(2).getString()},     {"role", q.getColumn(3).getString()},
            {"language", q.getColumn(4).getString()}, {"disabled", q.getColumn(5).getInt() == 1},
            {"lastSignInAt", shown_time(q.getColumn(6))}, {"createdAt", shown_time(q.getColumn(7))}};
}

constexpr const char* key_columns =
    "k.id, k.key_prefix, k.name, k.role, k.scopes, k.created_at, "
    "(SELECT max(a.occurred_at) FROM audit_events a WHERE a.actor_kind = 'api-key' AND a.actor_id = k.id), k.revoked_at";

json key_json(SQLite::Statement& q) {
    const json scopes = split_scopes(q.getColumn(4).getString());
    return {{"id", q.getColumn(0).getString()},   {"prefix", q.getColumn(1).getString()},
            {"name", q.getColumn(2).getString()}, {"role", q.getColumn(3).getString()},
            {"scopes", scopes},                   {"createdAt", shown_time(q.getColumn(5))},
            {"lastUsedAt", shown_time(q.getColumn(6))}, {"revokedAt", shown_time(q.getColumn(7))}};
}

json require_user(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + user_columns + " FROM users u WHERE u.id = ? AND u.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("users", id, "/id");
    return user_json(*q);
}

json require_key(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + key_columns + " FROM api_keys k WHERE k.id = ? AND k.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("api_keys", id, "/id");
    return key_json(*q);
}

// The syndicate's credentials able to administer it, leaving out the one about to go: enabled
// admin users (their sign-in grants write:administration) and unrevoked admin keys holding
// write:administration (or every scope, "*"). An admin key without that scope cannot revoke a key
// or change a user: it does not count (issue 28, point 4).
int other_admins(Database& db, const std::string& syndicate_id, const std::string& leaving) {
    auto q = db.prepare(
        "SELECT (SELECT count(*) FROM users WHERE syndicate_id = ?1 AND role = 'admin' AND disabled_at IS NULL AND id <> ?2) "
        "+ (SELECT count(*) FROM api_keys WHERE syndicate_id = ?1 AND role = 'admin' AND revoked_at IS NULL AND id <> ?2 "
        "   AND (' ' || scopes || ' ' LIKE '% * %' OR ' ' || scopes || ' ' LIKE '% write:administration %'))");
    bind_parameters(*q, syndicate_id, leaving);
    q->executeStep();
    return q->getColumn(0).getInt();
}

void refuse_last_admin(Database& db, const std::string& syndicate_id, const std::string& leaving, const std::string& what) {
    if (other_admins(db, syndicate_id, leaving) == 0)
        throw DomainError(codes::last_admin, what + " would leave the syndicate without an active admin; create another "
                                                    "admin first (syndic-mcp keys create --role admin, or users create).")
            .at("/id");
}

json list_users_tool(const ToolCall& call) {
    return list_page(call, user_columns,
                     "FROM users u WHERE u.syndicate_id = :syndicate AND (:role IS NULL OR u.role = :role) "
                     "AND (:disabled IS NULL OR (u.disabled_at IS NOT NULL) = :disabled)",
                     "u.email COLLATE NOCASE, u.id", {{"role"}, {"disabled", ListValue::boolean}}, user_json);
}

json update_user(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = a.text("id");
    const auto user = require_user(call.db, syndicate, id);
    const bool stays_admin = a.text_or("role", user["role"].get<std::string>()) == "admin" &&
                             !a.flag("disabled", user["disabled"].get<bool>());
    if (user["role"] == "admin" && !user["disabled"].get<bool>() && !stays_admin)
        refuse_last_admin(call.db, syndicate, id, "This change to " + user["email"].get<std::string>());
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "UPDATE users SET role = coalesce(?1, role), language = coalesce(?2, language), name = coalesce(?3, name), "
        "disabled_at = CASE WHEN ?4 IS NULL THEN disabled_at WHEN ?4 = 1 THEN coalesce(disabled_at, ?5) ELSE NULL END "
        "WHERE id = ?6");
    for (const auto& [n, key] : {std::pair{1, "role"}, {2, "language"}})
        if (const auto v = a.optional_text(key)) q->bind(n, *v);
    if (a.has("name")) q->bind(3, a.nonblank("name"));
    if (const auto d = a.optional_flag("disabled")) q->bind(4, *d ? 1 : 0);
    q->bind(5, now);
    q->bind(6, id);
    q->exec();
    if (a.flag("disabled", false) && !user["disabled"].get<bool>()) {
        // As `users disable`: the browser sessions and the applications' refresh tokens end with it.
        for (const char* sql : {"UPDATE user_sessions SET ended_at = ?1 WHERE user_id = ?2 AND ended_at IS NULL",
                                "UPDATE oauth_refresh_tokens SET revoked_at = ?1 WHERE user_id = ?2 AND revoked_at IS NULL"}) {
            auto end = call.db.prepare(sql);
            bind_parameters(*end, now, id);
            end->exec();
        }
    }
    return require_user(call.db, syndicate, id);
}

json list_api_keys_tool(const ToolCall& call) {
    return list_page(call, key_columns,
                     "FROM api_keys k WHERE k.syndicate_id = :syndicate AND (:includeRevoked OR k.revoked_at IS NULL)",
                     "k.created_at DESC, k.id", {{"includeRevoked", ListValue::boolean, "false"}}, key_json);
}

json revoke_api_key_tool(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = call.arguments().text("id");
    const auto key = require_key(call.db, syndicate, id);
    if (!key["revokedAt"].is_null())
        throw DomainError(codes::api_key_not_found, "The API key " + key["prefix"].get<std::string>() + " is already revoked.")
            .at("/id");
    if (key["role"] == "admin") refuse_last_admin(call.db, syndicate, id, "Revoking the key " + key["prefix"].get<std::string>());
    auto q = call.db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?");
    bind_parameters(*q, to_utc_iso(call.clock.now()), id);
    q->exec();
    return {{"apiKey", require_key(call.db, syndicate, id)}, {"selfRevoked", call.caller.api_key_id == id}};
}

}  // namespace

void register_access_tools(ToolTable& table) {
    table.bind("list_users", list_users_tool);
    table.bind("update_user", update_user);
    table.bind("list_api_keys", list_api_keys_tool);
    table.bind("revoke_api_key", revoke_api_key_tool);
}

}  // namespace syndic
