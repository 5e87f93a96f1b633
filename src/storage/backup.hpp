// Copies of the whole database file: `backup` (SQLite's online backup API, a consistent snapshot
// taken while servers go on writing) and `restore` (a checked copy put in place of a database).
// Knows files and SQLite, not tools.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace syndic {

struct CopySummary {
    int schema_version = 0;
    std::map<std::string, std::int64_t> rows;  // per table of the service
    std::uintmax_t bytes = 0;
};

// Writes a copy of the database at `source` to `target` (first as `target`.partial, checked with
// PRAGMA integrity_check, then renamed into place). Refuses an existing `target` unless `replace`.
// Throws std::runtime_error saying what is wrong; nothing is left at `target` then.
CopySummary backup_database(const std::string& source, const std::string& target, bool replace);

// Puts the copy at `source` in place of the database at `target`, then brings it to this
// program's schema. The copy must pass integrity_check and be a syndic-mcp database no newer than
// this program. A `target` that holds a syndicate is replaced only with `replace`, and is first
// saved beside itself as `saved_as` (filled in). Throws std::runtime_error; `target` is then as it was.
CopySummary restore_database(const std::string& source, const std::string& target, bool replace, std::string& saved_as);

// What a database file holds, for the summaries and the tests.
CopySummary describe_database(const std::string& path);

}  // namespace syndic
