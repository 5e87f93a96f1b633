#include "storage/storage_error.hpp"

#include <SQLiteCpp/Exception.h>
#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "storage/database.hpp"

namespace syndic {
namespace {

DomainError named(DomainError e, const std::string& file, const std::string& cause) {
    if (!file.empty()) e.with("file", file);
    e.with("cause", cause);
    return e;
}

}  // namespace

const char* storage_code_for_errno(int err) {
    return err == ENOSPC || err == EDQUOT || err == EFBIG ? codes::storage_full : codes::storage_unavailable;
}

std::string errno_cause(int err) {
    const char* name = strerrorname_np(err);
    return std::string(strerror(err)) + " (" + (name ? name : "errno " + std::to_string(err)) + ")";
}

DomainError file_error(int err, const std::string& operation, const std::string& file) {
    const std::string cause = errno_cause(err);
    return DomainError(storage_code_for_errno(err), "Could not " + operation + " the file " + file + ": " + cause +
                                                        "; nothing was recorded.")
        .with("file", file)
        .with("cause", cause);
}

std::optional<DomainError> database_refusal(int result_code, int system_errno, const std::string& file) {
    const int primary = result_code & 0xff;
    std::string cause = sqlite3_errstr(result_code);
    if (system_errno != 0 && (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN || primary == SQLITE_FULL))
        cause += ": " + errno_cause(system_errno);
    const char* code = nullptr;
    std::string what;
    switch (primary) {
        case SQLITE_FULL: code = codes::storage_full; what = "cannot be written"; break;
        case SQLITE_IOERR:
        case SQLITE_CANTOPEN:
            code = system_errno == ENOSPC || system_errno == EDQUOT || system_errno == EFBIG ? codes::storage_full
                                                                                              : codes::storage_unavailable;
            what = primary == SQLITE_CANTOPEN ? "cannot be opened" : "cannot be read or written";
            break;
        case SQLITE_READONLY:
        case SQLITE_PERM: code = codes::storage_unavailable; what = "cannot be written"; break;
        case SQLITE_NOTADB:
        case SQLITE_CORRUPT: code = codes::database_unusable; what = "is not a usable database"; break;
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return named(DomainError(codes::server_busy, "The database" + (file.empty() ? "" : " " + file) +
                                                             " is locked by another writer beyond the busy timeout; retry shortly."),
                         file, cause);
        default: return std::nullopt;
    }
    return named(DomainError(code, "The database" + (file.empty() ? "" : " " + file) + " " + what + ": " + cause +
                                       "; nothing was changed."),
                 file, cause);
}

std::optional<DomainError> database_refusal(const SQLite::Exception& e, Database* db, int last_errno) {
    int system_errno = 0;
    std::string file;  // unnamed when the connection is not at hand
    if (db) {
        if (auto* handle = db->sql().getHandle()) system_errno = sqlite3_system_errno(handle);
        file = db->path() == ":memory:" ? "(in memory)" : std::filesystem::path(db->path()).filename().string();
    }
    const int code = e.getExtendedErrorCode() > 0 ? e.getExtendedErrorCode() : e.getErrorCode();
    if (system_errno == 0 && (code & 0xff) == SQLITE_IOERR &&
        (last_errno == ENOSPC || last_errno == EDQUOT || last_errno == EFBIG))
        system_errno = last_errno;
    if (code < 0) return std::nullopt;  // SQLiteCpp's own errors (a column out of range...)
    return database_refusal(code, system_errno, file);
}

}  // namespace syndic
