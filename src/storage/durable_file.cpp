#include "storage/durable_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <random>
#include <system_error>

#include <spdlog/spdlog.h>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "storage/storage_error.hpp"

namespace syndic {
namespace {

namespace fs = std::filesystem;

// Closes the descriptor and removes the temporary unless released (the rename succeeded).
struct Temporary {
    std::string path;
    int fd = -1;
    bool keep = false;
    ~Temporary() {
        if (fd >= 0) ::close(fd);
        if (!keep) ::unlink(path.c_str());
    }
};

std::string temporary_name(const fs::path& final_path) {
    static thread_local std::mt19937_64 random{std::random_device{}()};
    char tag[17];
    std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(random()));
    return (final_path.parent_path() / (std::string(temporary_prefix) + std::to_string(::getpid()) + "-" + tag + "-" +
                                        final_path.filename().string()))
        .string();
}

void write_all(int fd, std::string_view bytes, const std::string& shown) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw file_error(errno, "write", shown);
        if (n == 0) throw file_error(ENOSPC, "write", shown);  // nothing taken: the device is full
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::string read_back(const std::string& path, const std::string& shown) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw file_error(errno, "read back", shown);
    std::string out;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw file_error(err, "read back", shown);
        }
        if (n == 0) break;
        out.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

DomainError check_failed(const std::string& shown, const std::string& cause) {
    return DomainError(codes::storage_unavailable,
                       "The file " + shown + " did not read back as written: " + cause + "; nothing was recorded.")
        .with("file", shown)
        .with("cause", cause);
}

// What was read back must be what was meant: the same size and digest, and a PDF whole.
WrittenFile checked(const std::string& on_disk, std::string_view meant, FileCheck check, const std::string& shown) {
    if (on_disk.size() != meant.size())
        throw check_failed(shown, std::to_string(on_disk.size()) + " bytes instead of " + std::to_string(meant.size()));
    const auto digest = sha256_hex(on_disk);
    if (digest != sha256_hex(meant)) throw check_failed(shown, "its SHA-256 differs from the bytes written");
    if (check == FileCheck::pdf) {
        const auto tail = std::string_view(on_disk).substr(on_disk.size() > 1024 ? on_disk.size() - 1024 : 0);
        if (on_disk.rfind("%PDF-", 0) != 0 || tail.find("%%EOF") == std::string_view::npos)
            throw check_failed(shown, "it is not a whole PDF (no %PDF- header or no %%EOF end marker)");
    }
    return {static_cast<std::int64_t>(on_disk.size()), digest};
}

void sync_folder(const fs::path& folder, const std::string& shown) {
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw file_error(errno, "record in its folder", shown);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0 && err != EINVAL) throw file_error(err, "record in its folder", shown);  // EINVAL: no sync for folders
}

}  // namespace

StagedFile stage_file_durably(const std::string& path, std::string_view bytes, FileCheck check, const std::string& shown_name) {
    const fs::path final_path(path);
    const auto folder = final_path.parent_path();
    if (!folder.empty()) {
        std::error_code ec;
        fs::create_directories(folder, ec);
        if (ec) throw file_error(ec.value(), "create the folder of", shown_name);
    }
    Temporary temp{temporary_name(final_path)};
    temp.fd = ::open(temp.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (temp.fd < 0) throw file_error(errno, "create", shown_name);
    write_all(temp.fd, bytes, shown_name);
    if (::fsync(temp.fd) != 0) throw file_error(errno, "flush to disk", shown_name);
    const int rc = ::close(temp.fd);
    temp.fd = -1;
    if (rc != 0) throw file_error(errno, "close", shown_name);
    const auto written = checked(read_back(temp.path, shown_name), bytes, check, shown_name);
    // The temporary is on disk: a folder that cannot keep its name has nothing to stage.
    sync_folder(folder, shown_name);
    temp.keep = true;
    return {temp.path, path, written};
}

WrittenFile write_file_durably(const std::string& path, std::string_view bytes, FileCheck check,
                               const std::string& shown_name) {
    auto staged = stage_file_durably(path, bytes, check, shown_name);
    Temporary temp{staged.temporary};
    if (::rename(temp.path.c_str(), path.c_str()) != 0) throw file_error(errno, "rename into place", shown_name);
    temp.keep = true;
    try {
        sync_folder(fs::path(path).parent_path(), shown_name);
    } catch (...) {
        ::unlink(path.c_str());  // a name the folder may not keep is no name to record
        throw;
    }
    return staged.written;
}

bool put_in_place(const std::string& temporary, const std::string& final_path) {
    if (::rename(temporary.c_str(), final_path.c_str()) != 0) {
        spdlog::error("could not put {} in place ({}); the next start will", final_path, std::strerror(errno));
        return false;
    }
    try {
        sync_folder(fs::path(final_path).parent_path(), final_path);
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
    }
    return true;
}

namespace {

// The final name inside ".syndic-tmp-<pid>-<random>-<name>", or "" when the name has no such shape.
std::string final_name_of(const std::string& temporary) {
    const auto pid_end = temporary.find('-', temporary_prefix.size());
    if (pid_end == std::string::npos) return "";
    const auto tag_end = temporary.find('-', pid_end + 1);
    return tag_end == std::string::npos ? "" : temporary.substr(tag_end + 1);
}

}  // namespace

bool process_gone(long pid) { return pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH); }

SettledFiles settle_leftover_temporaries(const std::string& folder, const RecordedFile& recorded) {
    SettledFiles settled;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return settled;
    const auto folder_name = fs::path(folder).filename().string();
    const auto day_ago = fs::file_time_type::clock::now() - std::chrono::hours(24);
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        if (!entry.is_regular_file(ec)) continue;
        const auto name = entry.path().filename().string();
        bool leftover = name.size() > 5 && name.ends_with(".part");
        if (name.rfind(temporary_prefix, 0) == 0) {
            const bool writer_gone = process_gone(std::atol(name.c_str() + temporary_prefix.size()));
            leftover = writer_gone || entry.last_write_time(ec) < day_ago;
            const auto final_name = final_name_of(name);
            const auto final_path = entry.path().parent_path() / final_name;
            if (leftover && !final_name.empty() && recorded && recorded(folder_name, final_name) && !fs::exists(final_path, ec)) {
                if (put_in_place(entry.path().string(), final_path.string())) settled.put_in_place.push_back(final_path.string());
                continue;
            }
        }
        if (leftover && fs::remove(entry.path(), ec)) settled.removed.push_back(entry.path().string());
    }
    return settled;
}

void settle_leftover_exports(const std::string& db_path, const RecordedFile& recorded) {
    if (db_path.empty() || db_path == ":memory:") return;
    std::error_code ec;
    for (const char* name : {"exports", "documents"}) {  // generated files; uploaded documents
        const auto folder = fs::absolute(db_path, ec).parent_path() / name;
        const auto settled = settle_leftover_temporaries(folder.string(), recorded);
        for (const auto& file : settled.removed)
            spdlog::warn("removed {}: a temporary file left by a process that stopped while writing it", file);
        for (const auto& file : settled.put_in_place)
            spdlog::warn("put {} in place: its record was committed by a process that stopped before renaming it", file);
    }
}

}  // namespace syndic
