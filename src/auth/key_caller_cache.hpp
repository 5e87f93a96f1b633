// The caller an API key stands for, kept between the calls of one connection (a stdio server asks
// for the same key at every call): looked up again only when the database may have changed in a
// way that revokes it. Knows storage, not tools or the wire.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/context.hpp"
#include "storage/database.hpp"

namespace syndic {

class KeyCallerCache {
public:
    // The caller `secret` stands for on `db`, as authenticate() answers it (nullptr for an unknown,
    // malformed or revoked key). The answer kept from the last call is given again while `db` is
    // the same connection, `secret` the same key, and nothing was committed since: neither by
    // another connection (PRAGMA data_version) nor by this one (sqlite3_total_changes64, which
    // counts this connection's rows written, a revocation by a tool in this process included).
    // A revoked key is thus refused on the very next call. The pointer stays valid until the next
    // call of caller() or forget().
    const CallerContext* caller(Database& db, const std::string& secret);
    // Drops what is kept: the next caller() looks the key up.
    void forget();
    // How many times caller() looked the key up (for tests).
    std::uint64_t lookups() const { return lookups_; }

private:
    const Database* db_ = nullptr;
    std::string secret_;
    Database::DataStamp stamp_;
    std::optional<CallerContext> caller_;
    std::uint64_t lookups_ = 0;
};

}  // namespace syndic
