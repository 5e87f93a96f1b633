#include "auth/key_caller_cache.hpp"

#include <sqlite3.h>

#include "auth/credentials.hpp"
#include "core/ids.hpp"
#include "storage/database.hpp"

namespace syndic {

const CallerContext* KeyCallerCache::caller(Database& db, const std::string& secret) {
    // Read first in the call, outside any transaction or as the first read of the call's read
    // transaction (which this read starts): data_version then tells whether another connection
    // committed since it was last read.
    std::int64_t version;
    {
        auto q = db.prepare("PRAGMA data_version");
        q->executeStep();
        version = q->getColumn(0).getInt64();
    }
    const std::int64_t changes = sqlite3_total_changes64(db.sql().getHandle());
    if (db_ == &db && version == data_version_ && changes == total_changes_ && secret.size() == secret_.size() &&
        same_secret(secret, secret_))
        return caller_ ? &*caller_ : nullptr;

    forget();
    ++lookups_;
    caller_ = authenticate(db, secret);
    db_ = &db;
    secret_ = secret;
    data_version_ = version;
    total_changes_ = changes;
    return caller_ ? &*caller_ : nullptr;
}

void KeyCallerCache::forget() {
    db_ = nullptr;
    secret_.clear();
    data_version_ = total_changes_ = -1;
    caller_.reset();
}

}  // namespace syndic
