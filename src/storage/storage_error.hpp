// Storage failures as the domain's refusals: an errno from writing a file, or an SQLite error of
// the database, becomes STORAGE_FULL, STORAGE_UNAVAILABLE, DATABASE_UNUSABLE or SERVER_BUSY, naming
// the file and the cause in words. Knows errno and SQLite result codes; not tools, not the wire.
#pragma once
#include <optional>
#include <string>

#include "core/error.hpp"

namespace SQLite {
class Exception;
}

namespace syndic {

class Database;

// STORAGE_FULL for ENOSPC, EDQUOT and EFBIG (a file system, a quota or RLIMIT_FSIZE that is full),
// STORAGE_UNAVAILABLE for every other errno.
const char* storage_code_for_errno(int err);

// The cause in words with its symbol: "No space left on device (ENOSPC)".
std::string errno_cause(int err);

// A refused write of a file: `operation` ("write", "rename"...) and `file` as callers may see it.
DomainError file_error(int err, const std::string& operation, const std::string& file);

// The refusal an SQLite result code stands for, or nothing when the code is not a storage failure
// (a constraint, a programming error): FULL -> STORAGE_FULL; IOERR and CANTOPEN -> STORAGE_FULL when
// the system error behind them is ENOSPC/EDQUOT/EFBIG, else STORAGE_UNAVAILABLE; READONLY, PERM
// -> STORAGE_UNAVAILABLE; NOTADB, CORRUPT -> DATABASE_UNUSABLE; BUSY, LOCKED -> SERVER_BUSY.
std::optional<DomainError> database_refusal(int result_code, int system_errno, const std::string& file);

// The refusal for an exception thrown while `db` was in use (its system errno is read from the
// connection), or nothing when it is no storage failure.
// `last_errno` (the thread's errno when caught) stands in for SQLite's system errno when that is
// not kept, but only to tell a full disk (ENOSPC, EDQUOT, EFBIG) from another I/O error.
std::optional<DomainError> database_refusal(const SQLite::Exception& e, Database* db, int last_errno = 0);

// Runs f; an SQLite storage failure on `db` leaves it as its refusal (DomainError).
template <class F>
auto with_storage_refusals(Database& db, F&& f) -> decltype(f());

}  // namespace syndic

#include <SQLiteCpp/Exception.h>

#include <cerrno>

namespace syndic {

template <class F>
auto with_storage_refusals(Database& db, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const SQLite::Exception& e) {
        if (auto refusal = database_refusal(e, &db, errno)) throw *refusal;
        throw;
    }
}

}  // namespace syndic
