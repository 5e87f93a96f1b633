#include "storage/file_modes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace syndic {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void failed(const std::string& what, const std::string& path) {
    throw std::system_error(errno, std::generic_category(), "cannot " + what + " " + path);
}

std::string octal(int mode) {
    char text[16];  // "%04o" of any int fits
    std::snprintf(text, sizeof text, "%04o", mode);
    return text;
}

}  // namespace

void create_private_folders(const std::string& folder) {
    if (folder.empty()) return;
    const fs::path path(folder);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return;
    if (path.has_parent_path() && path.parent_path() != path) create_private_folders(path.parent_path().string());
    // mkdir's mode is cut by the umask; chmod gives exactly 0700 to the folder made here.
    if (::mkdir(folder.c_str(), 0700) != 0) {
        if (errno == EEXIST && fs::is_directory(path, ec)) return;
        failed("create the folder", folder);
    }
    if (::chmod(folder.c_str(), 0700) != 0) failed("set the mode of", folder);
}

void create_private_file(const std::string& path) {
    create_private_folders(fs::path(path).parent_path().string());
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == EEXIST) return;
        failed("create", path);
    }
    const bool ok = ::fchmod(fd, 0600) == 0;
    ::close(fd);
    if (!ok) failed("set the mode of", path);
}

void make_owner_only(const std::string& path) {
    if (::chmod(path.c_str(), 0600) != 0) failed("set the mode of", path);
}

void write_private_file(const std::string& path, const std::string& content) {
    create_private_folders(fs::path(path).parent_path().string());
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) failed("create", temporary);
    bool ok = ::fchmod(fd, 0600) == 0;
    for (std::size_t done = 0; ok && done < content.size();) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += static_cast<std::size_t>(n);
    }
    ok = ok && ::fsync(fd) == 0;
    const int saved = errno;
    ::close(fd);
    if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
        if (ok == false) errno = saved;
        const int why = errno;
        ::unlink(temporary.c_str());
        errno = why;
        failed("write", path);
    }
}

int file_mode(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return -1;
    return static_cast<int>(st.st_mode & 0777);
}

std::vector<std::string> files_readable_by_others(const std::string& db_path) {
    std::vector<std::string> out;
    if (db_path.empty() || db_path == ":memory:") return out;
    std::vector<std::string> candidates;
    for (const char* suffix : {"", "-wal", "-shm", ".signing-key"}) candidates.push_back(db_path + suffix);
    const fs::path db(db_path);
    const fs::path folder = db.has_parent_path() ? db.parent_path() : fs::path(".");
    const std::string saved_prefix = db.filename().string() + ".before-restore-";
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename().string().rfind(saved_prefix, 0) == 0) candidates.push_back(it->path().string());
    for (const auto& path : candidates)
        if (const int mode = file_mode(path); mode >= 0 && (mode & 077) != 0) out.push_back(path);
    return out;
}

void warn_file_readable_by_others(const std::string& path, const std::string& what) {
    const int mode = file_mode(path);
    if (mode < 0 || (mode & 077) == 0) return;
    std::cerr << "syndic-mcp: warning: " << what << " " << path << " is readable by other users (mode " << octal(mode)
              << "); it holds the syndicate's personal data. Fix: chmod 600 " << path << "\n";
}

void warn_if_readable_by_others(const std::string& db_path) {
    for (const auto& path : files_readable_by_others(db_path)) warn_file_readable_by_others(path, "the file");
}

}  // namespace syndic
