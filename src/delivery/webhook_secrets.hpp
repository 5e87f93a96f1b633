// Webhook signing secrets, derived and never stored: "whsec_" + base62 of HMAC-SHA256(key, "<webhook
// id>:<generation>"), the key being 32 random bytes kept beside the database (<database>.webhook-key,
// mode 0600, made at first need; an in-memory database keeps it in its connection's temporary
// schema). A backup or a copy of the database cannot sign deliveries; rotating a secret is a new
// generation. And the Syndic-Signature of a delivery. Knows files and OpenSSL, not the tables.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace syndic {

class Database;

// The secret of a webhook's generation (made from the key file, which is created if missing: two
// processes creating it at once agree on one).
std::string webhook_secret(Database& db, const std::string& webhook_id, std::int64_t generation);

// Where the key is kept: <database>.webhook-key, or "" for ":memory:".
std::string webhook_key_path(const Database& db);

// The hex HMAC-SHA256, under `secret`, of "<unix time>.<body>": the v1 of Syndic-Signature.
std::string webhook_signature(const std::string& secret, std::int64_t unix_time, std::string_view body);

}  // namespace syndic
