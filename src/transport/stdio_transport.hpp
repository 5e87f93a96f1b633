// Newline-delimited messages on a pair of file descriptors (stdin/stdout): one line in, one line
// out. Knows framing, not JSON-RPC: a reader thread takes lines as they come (so a cancellation
// can be seen while a call runs), reading ahead at most a bounded number of lines and bytes, and
// the caller handles them in order. Answers are written in batches while more lines wait.
#pragma once
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace syndic {

struct StdioLimits {
    std::size_t max_line_bytes = 4 * 1024 * 1024;      // a longer line is refused, never held whole
    std::size_t max_queued_lines = 64;                 // read ahead of the line being handled
    std::size_t max_queued_bytes = 8 * 1024 * 1024;
    std::size_t write_batch_bytes = 64 * 1024;         // answers held back while more lines wait
};

class StdioTransport {
public:
    StdioTransport(int in_fd, int out_fd, StdioLimits limits = {}) : in_(in_fd), out_(out_fd), limits_(limits) {}

    // Writes one message and a newline at once, after any answers held back; safe from any
    // thread. For notifications, which must not wait for the end of a call.
    void send(std::string_view line);

    // Reads until end of input (or until stdout is closed). `peek` sees each line on the reader
    // thread as soon as it arrives; `handle` gets every non-blank line, in order, on the calling
    // thread, and returns the answer to write, if any; `refuse_long` answers a line longer than
    // max_line_bytes, which is dropped unread.
    void run(const std::function<void(const std::string&)>& peek,
             const std::function<std::optional<std::string>(const std::string&)>& handle,
             const std::function<std::string(std::size_t limit)>& refuse_long);

private:
    void write_all(std::string_view bytes);   // holding write_mutex_
    void flush_held();                        // holding write_mutex_

    int in_;
    int out_;
    StdioLimits limits_;
    std::mutex write_mutex_;
    std::string held_;        // answers not yet written
    bool closed_ = false;     // stdout refused a write: the client is gone
};

}  // namespace syndic
