// Files that hold the syndicate's data or secrets are its owner's alone: private folders (0700)
// and files (0600) made whatever the umask, files replaced whole (temporary name, fsync, rename),
// and the report of such files found readable by other users. Knows POSIX files, not SQLite.
#pragma once
#include <string>
#include <vector>

namespace syndic {

// Creates `folder` and every missing folder above it with mode 0700; existing folders are left
// as they are (they may be the user's own, such as ~/.local/share).
void create_private_folders(const std::string& folder);

// Creates `path` empty with mode 0600 if it does not exist (its folder made private as above).
void create_private_file(const std::string& path);

// Sets `path` to mode 0600 (a copy just made: backups, saved databases).
void make_owner_only(const std::string& path);

// Replaces `path` with `content` as a whole: written to a temporary name beside it with mode
// 0600, flushed to disk, then renamed. Throws std::runtime_error naming the file.
void write_private_file(const std::string& path, const std::string& content);

// The mode bits (0777) of `path`, or -1 when it does not exist.
int file_mode(const std::string& path);

// The files of the database at `db_path` that other users may read (group or other bits): the
// database and its -wal and -shm, its signing key file, and the copies restore saved beside it.
std::vector<std::string> files_readable_by_others(const std::string& db_path);

// One warning line on stderr per file of files_readable_by_others (or for `path` alone), naming
// the file, its mode and the fix (chmod 600).
void warn_if_readable_by_others(const std::string& db_path);
void warn_file_readable_by_others(const std::string& path, const std::string& what);

}  // namespace syndic
