#include "transport/stdio_transport.hpp"

#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace syndic {
namespace {

struct Incoming {
    std::string line;
    bool too_long = false;
};

bool blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

// The lines read ahead, shared with the reader, which may outlive run() when stdout closes first
// (it is then left blocked in read() until the process ends, and sees nothing of the caller any more).
struct ReadAhead {
    std::mutex mutex;
    std::condition_variable ready, room;
    std::deque<Incoming> queue;
    std::size_t queued_bytes = 0;
    bool finished = false, stopping = false;
};

// The reader thread's work: stdin cut into lines, each handed to `enqueue`; a line longer than the
// limit is handed on as too long, its bytes dropped as they come. Ends at the end of stdin (marking
// the read-ahead finished) or once the main loop is stopping.
template <class Enqueue>
void read_lines(ReadAhead& state, const StdioLimits& limits, int in, const Enqueue& enqueue) {
    std::string buffer(64 * 1024, '\0');
    std::string partial;
    bool discarding = false;  // inside a line already longer than the limit
    for (;;) {
        const ssize_t n = ::read(in, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        std::string_view chunk(buffer.data(), static_cast<std::size_t>(n));
        while (!chunk.empty()) {
            const auto newline = chunk.find('\n');
            const auto piece = chunk.substr(0, newline);
            if (!discarding) {
                if (partial.size() + piece.size() > limits.max_line_bytes) {
                    discarding = true;
                    std::string().swap(partial);
                } else {
                    partial.append(piece);
                }
            }
            if (newline == std::string_view::npos) break;
            chunk.remove_prefix(newline + 1);
            if (discarding) enqueue({{}, true});
            else enqueue({std::move(partial), false});
            partial.clear();
            discarding = false;
        }
        std::lock_guard lock(state.mutex);
        if (state.stopping) return;
    }
    if (discarding) enqueue({{}, true});
    else if (!partial.empty()) enqueue({std::move(partial), false});
    std::lock_guard lock(state.mutex);
    state.finished = true;
    state.ready.notify_one();
}

// The next line for the main loop, or none once stdin has ended and every line is taken.
// `before_sleep` runs (outside the lock) when no line waits, before the loop sleeps.
std::optional<Incoming> take_line(ReadAhead& state, const StdioLimits& limits, const std::function<void()>& before_sleep) {
    std::unique_lock lock(state.mutex);
    if (state.queue.empty() && !state.finished) {
        lock.unlock();
        before_sleep();
        lock.lock();
    }
    state.ready.wait(lock, [&] { return !state.queue.empty() || state.finished; });
    if (state.queue.empty()) return std::nullopt;
    Incoming next = std::move(state.queue.front());
    state.queue.pop_front();
    state.queued_bytes -= next.line.size();
    // The reader, if it waits for room, is woken once half the read-ahead is free, not at every
    // line: one wake-up per batch of lines rather than one per line.
    if (state.queue.size() <= limits.max_queued_lines / 2 && state.queued_bytes <= limits.max_queued_bytes / 2)
        state.room.notify_one();
    return next;
}

}  // namespace

void StdioTransport::write_all(std::string_view bytes) {
    while (!bytes.empty() && !closed_) {
        const ssize_t n = ::write(out_, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            closed_ = true;  // EPIPE and the like: nobody reads any more
            return;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

void StdioTransport::flush_held() {
    write_all(held_);
    held_.clear();
}

void StdioTransport::send(std::string_view line) {
    std::lock_guard lock(write_mutex_);
    held_.append(line);
    held_.push_back('\n');
    flush_held();
}

void StdioTransport::run(const std::function<void(const std::string&)>& peek,
                         const std::function<std::optional<std::string>(const std::string&)>& handle,
                         const std::function<std::string(std::size_t limit)>& refuse_long) {
    auto state = std::make_shared<ReadAhead>();
    const StdioLimits limits = limits_;
    const int in = in_;

    // Hands one line to the main loop, waiting while the read-ahead is full. `peek` runs under
    // the lock, so it never runs once the main loop has stopped.
    auto enqueue = [state, limits, &peek](Incoming item) {
        if (!item.too_long) {
            if (!item.line.empty() && item.line.back() == '\r') item.line.pop_back();
            if (blank(item.line)) return;
        }
        std::unique_lock lock(state->mutex);
        if (state->stopping) return;
        if (!item.too_long && peek) peek(item.line);
        state->room.wait(lock, [&] {
            return state->stopping || state->queue.empty() ||
                   (state->queue.size() < limits.max_queued_lines &&
                    state->queued_bytes + item.line.size() <= limits.max_queued_bytes);
        });
        if (state->stopping) return;
        state->queued_bytes += item.line.size();
        state->queue.push_back(std::move(item));
        state->ready.notify_one();
    };
    std::thread reader([state, limits, in, enqueue] { read_lines(*state, limits, in, enqueue); });

    // Nothing else waits: the answers held back go out before the server sleeps.
    const std::function<void()> flush_answers = [this] {
        std::lock_guard out(write_mutex_);
        flush_held();
    };
    for (;;) {
        auto next = take_line(*state, limits, flush_answers);
        if (!next) break;
        std::optional<std::string> answer;
        try {
            answer = next->too_long ? std::optional(refuse_long(limits.max_line_bytes)) : handle(next->line);
        } catch (...) {
            // The handler answers its own failures; whatever escapes must not stop the loop.
        }
        std::lock_guard out(write_mutex_);
        if (answer) {
            held_.append(*answer);
            held_.push_back('\n');
            if (held_.size() >= limits.write_batch_bytes) flush_held();
        }
        if (closed_) break;
    }
    {
        std::lock_guard out(write_mutex_);
        flush_held();
    }
    bool reader_done;
    {
        std::lock_guard lock(state->mutex);
        state->stopping = true;
        reader_done = state->finished;
        state->room.notify_all();
    }
    // Stdout closed while stdin stays open: the reader may be blocked in read() for good.
    if (reader_done || !closed_) reader.join();
    else reader.detach();
}

}  // namespace syndic
