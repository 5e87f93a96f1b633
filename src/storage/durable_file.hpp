// Generated files (the minutes, later notices and statements) written so that a file under its
// final name is always whole: a temporary name in the same folder, written, fsynced, read back and
// checked, renamed, the folder fsynced; and the temporaries a killed process left, settled at start.
// A file recorded in the database is staged (left under its temporary name) and put under its
// final name only once its row is committed (Database::publish_on_commit), so a crash never leaves
// a file under a final name without its row (issue 28, point 7). Knows files and errno; not what
// the files hold, not the database.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

struct WrittenFile {
    std::int64_t size = 0;
    std::string sha256;  // of the bytes read back from disk, lower-case hex
};

enum class FileCheck { none, pdf };  // pdf: starts with %PDF- and ends with %%EOF

// Writes `bytes` to `path` (creating its folder, mode 0600) and returns what was read back. Any
// failure throws DomainError STORAGE_FULL or STORAGE_UNAVAILABLE naming `shown_name` (the file as a
// caller may see it) and the cause, and leaves neither the temporary nor a file under `path`.
WrittenFile write_file_durably(const std::string& path, std::string_view bytes, FileCheck check,
                               const std::string& shown_name);

// A file written whole and checked under its temporary name, waiting for its row's commit.
struct StagedFile {
    std::string temporary, final_path;
    WrittenFile written;
};

// As write_file_durably, but the file stays under its temporary name; put it in place with
// put_in_place (Database::publish_on_commit does, after the commit).
StagedFile stage_file_durably(const std::string& path, std::string_view bytes, FileCheck check, const std::string& shown_name);

// Renames `temporary` to `final_path` and syncs the folder; false (and logged) when it could not.
bool put_in_place(const std::string& temporary, const std::string& final_path);

// Whether no process `pid` runs on this machine (a leftover's writer is gone).
bool process_gone(long pid);

// A temporary's name starts with this, then the writer's process id: ".syndic-tmp-<pid>-<random>-<name>".
inline constexpr std::string_view temporary_prefix = ".syndic-tmp-";

// Whether the database holds a row for the file named `final_name` in the folder `folder_name`
// ("exports", "documents").
using RecordedFile = std::function<bool(const std::string& folder_name, const std::string& final_name)>;

struct SettledFiles {
    std::vector<std::string> removed, put_in_place;
};

// In `folder` (not below), the temporaries whose writing process is gone (or older than a day):
// put under their final name when `recorded` says the database holds their row (the writer died
// between its commit and the rename) and no file has that name yet, else removed; and the ".part"
// files earlier versions wrote, removed. A missing folder is no error.
SettledFiles settle_leftover_temporaries(const std::string& folder, const RecordedFile& recorded = {});

// The same for the exports/ and documents/ folders beside the database file, each change logged
// (at start).
void settle_leftover_exports(const std::string& db_path, const RecordedFile& recorded);

}  // namespace syndic
