// Copies of the whole database file: `backup` (SQLite's online backup API, a consistent snapshot
// taken while servers go on writing) and `restore` (a checked copy put in place of a database).
// Knows files and SQLite, not tools.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

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

// Removes the copies a killed `restore` left beside `target` (issue 28, point 8): each restore
// stages the backup as `<target>.restoring-<pid>`; those whose process is gone go, with their
// journals, and the `<target>.restoring` of earlier versions once untouched for 10 minutes.
// Returns the paths removed; run by the next restore and at a server's start.
std::vector<std::string> remove_leftover_restores(const std::string& target);

// What a database file holds, for the summaries and the tests.
CopySummary describe_database(const std::string& path);

}  // namespace syndic
