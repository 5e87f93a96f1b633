#include "core/log_output.hpp"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <spdlog/async.h>
#include <spdlog/async_logger.h>
#include <spdlog/details/thread_pool.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/basic_file_sink.h>

#include <atomic>
#include <cerrno>
#include <mutex>

namespace syndic::logging {

namespace {

constexpr int first_wait_ms = 100;  // how long stderr may take to accept a line before it counts as stalled
constexpr std::size_t chunk = 512;  // a write a pipe or a stopped terminal with room takes whole

std::atomic<std::uint64_t> sink_dropped{0};
// The pool, for its count of lines dropped from a full queue: a plain pointer, since the writer
// thread reads it and a shared_ptr taken there could be the last one at exit (the pool would then
// be destroyed on its own thread, joining itself). The pool outlives every line it writes.
std::atomic<spdlog::details::thread_pool*> the_pool{nullptr};

// The one thread and queue every logger of the process shares (spdlog's global pool).
std::shared_ptr<spdlog::details::thread_pool> pool() {
    static std::once_flag once;
    // The writer takes no signal: SIGTERM and Ctrl-C go to the threads that wait for them (a
    // thread with them unblocked would be killed by them), and a stderr whose reader went away
    // gives EPIPE instead of SIGPIPE.
    std::call_once(once, [] {
        spdlog::init_thread_pool(queue_lines, 1, [] {
            sigset_t all;
            sigfillset(&all);
            pthread_sigmask(SIG_BLOCK, &all, nullptr);
        });
        the_pool = spdlog::thread_pool().get();
    });
    return spdlog::thread_pool();
}

std::uint64_t queue_dropped() {
    auto* p = the_pool.load();
    return p ? p->overrun_counter() : 0;
}

// fd 2 as the writer thread sees it. Every logger has its own sink (spdlog gives each sink its
// logger's formatter) and all of them write from the one writer thread, so lines never interleave;
// the state is shared so that a stall seen by one is seen by all.
struct Stderr {
    std::mutex mutex;
    bool stalled = false, broken_line = false;
    std::uint64_t reported = 0;

    // Bytes written, -1 when none. Each piece waits until stderr can take it, at most 100 ms, and
    // not at all while stalled.
    long write_pieces(const char* data, std::size_t size) {
        std::size_t done = 0;
        while (done < size) {
            pollfd ready{STDERR_FILENO, POLLOUT, 0};
            const int r = ::poll(&ready, 1, stalled ? 0 : first_wait_ms);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0 || !(ready.revents & POLLOUT)) break;
            const auto n = ::write(STDERR_FILENO, data + done, std::min(chunk, size - done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
        }
        return done == 0 && size > 0 ? -1 : static_cast<long>(done);
    }

    bool write_line(const char* data, std::size_t size) {
        if (broken_line) {  // the end of a line cut short: start afresh
            if (write_pieces("\n", 1) != 1) {
                stalled = true;
                return false;
            }
            broken_line = false;
        }
        const auto written = write_pieces(data, size);
        stalled = written < 0 || static_cast<std::size_t>(written) < size;
        if (stalled && written > 0) broken_line = true;
        return !stalled;
    }

    void write(const char* data, std::size_t size) {
        std::lock_guard lock(mutex);
        const auto dropped = sink_dropped.load() + queue_dropped();
        if (dropped > reported && !stalled) {
            const auto note = "syndic-mcp: " + std::to_string(dropped - reported) + " log line(s) dropped: stderr was not taking them\n";
            if (write_line(note.data(), note.size())) reported = dropped;
        }
        if (!write_line(data, size)) ++sink_dropped;
    }
};

Stderr& stderr_output() {
    static Stderr output;
    return output;
}

class StderrSink final : public spdlog::sinks::base_sink<std::mutex> {
protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        spdlog::memory_buf_t text;
        formatter_->format(msg, text);
        stderr_output().write(text.data(), text.size());
    }
    void flush_() override {}
};

std::shared_ptr<spdlog::logger> queued(const std::string& name, std::shared_ptr<spdlog::sinks::sink> sink) {
    return std::make_shared<spdlog::async_logger>(name, std::move(sink), pool(), spdlog::async_overflow_policy::overrun_oldest);
}

}  // namespace

std::shared_ptr<spdlog::logger> stderr_logger(const std::string& name, std::unique_ptr<spdlog::formatter> formatter) {
    auto logger = queued(name, std::make_shared<StderrSink>());
    if (formatter) logger->set_formatter(std::move(formatter));
    return logger;
}

std::shared_ptr<spdlog::logger> file_logger(const std::string& name, const std::string& path) {
    return queued(name, std::make_shared<spdlog::sinks::basic_file_sink_mt>(path));
}

}  // namespace syndic::logging
