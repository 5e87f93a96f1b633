// Generated files (the minutes, later notices and statements) written so that a file under its
// final name is always whole: a temporary name in the same folder, written, fsynced, read back and
// checked, renamed, the folder fsynced; and the temporaries a killed process left, removed at start.
// Knows files and errno; not what the files hold, not the database.
#pragma once
#include <cstdint>
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

// A temporary's name starts with this, then the writer's process id: ".syndic-tmp-<pid>-<random>-<name>".
inline constexpr std::string_view temporary_prefix = ".syndic-tmp-";

// Removes, in `folder` (not below), the temporaries whose writing process is gone (or older than a
// day) and the ".part" files earlier versions wrote; returns the paths removed. A missing folder is
// no error.
std::vector<std::string> remove_leftover_temporaries(const std::string& folder);

// The same for the exports/ and documents/ folders beside the database file, each removal logged
// (at start).
void remove_leftover_exports(const std::string& db_path);

}  // namespace syndic
