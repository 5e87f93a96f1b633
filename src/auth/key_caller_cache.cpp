#include "auth/key_caller_cache.hpp"

#include "auth/credentials.hpp"
#include "core/ids.hpp"
#include "storage/database.hpp"

namespace syndic {

const CallerContext* KeyCallerCache::caller(Database& db, const std::string& secret) {
    // Read first in the call, outside any transaction or as the first read of the call's read
    // transaction (which this read starts).
    const auto stamp = db.data_stamp();
    if (db_ == &db && stamp == stamp_ && secret.size() == secret_.size() && same_secret(secret, secret_))
        return caller_ ? &*caller_ : nullptr;

    forget();
    ++lookups_;
    caller_ = authenticate(db, secret);
    db_ = &db;
    secret_ = secret;
    stamp_ = stamp;
    return caller_ ? &*caller_ : nullptr;
}

void KeyCallerCache::forget() {
    db_ = nullptr;
    secret_.clear();
    stamp_ = {};
    caller_.reset();
}

}  // namespace syndic
