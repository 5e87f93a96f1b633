// Where the process's log lines go (issue 28, point 7): through a bounded queue to one writer
// thread, so serving and stopping never wait on a reader that does not read (a stalled log
// shipper, a paused terminal). A full queue drops its oldest line; stderr that takes nothing for
// 100 ms makes the writer drop lines without waiting until it takes one again; both are counted,
// and the count is written once stderr reads again. Knows spdlog and file descriptors, nothing
// of the program.
#pragma once
#include <spdlog/formatter.h>

#include <cstdint>
#include <memory>
#include <string>

namespace spdlog {
class logger;
}  // namespace spdlog

namespace syndic::logging {

inline constexpr std::size_t queue_lines = 8192;

// A logger that writes to stderr through the queue; `formatter` as spdlog's (nullptr: its default).
std::shared_ptr<spdlog::logger> stderr_logger(const std::string& name, std::unique_ptr<spdlog::formatter> formatter = nullptr);
// A logger that writes to `path` (appending) through the queue.
std::shared_ptr<spdlog::logger> file_logger(const std::string& name, const std::string& path);

}  // namespace syndic::logging
