#include "transport/stdio_transport.hpp"

#include <condition_variable>
#include <deque>
#include <optional>
#include <thread>

namespace syndic {

void StdioTransport::send(std::string_view line) {
    std::lock_guard lock(write_mutex_);
    out_.write(line.data(), static_cast<std::streamsize>(line.size()));
    out_.put('\n');
    out_.flush();
}

void StdioTransport::run(const std::function<void(const std::string&)>& peek,
                         const std::function<void(const std::string&)>& handle) {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> queue;
    bool finished = false;

    std::thread reader([&] {
        std::string line;
        while (std::getline(in_, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.find_first_not_of(" \t") == std::string::npos) continue;
            if (peek) peek(line);
            std::lock_guard lock(mutex);
            queue.push_back(std::move(line));
            ready.notify_one();
        }
        std::lock_guard lock(mutex);
        finished = true;
        ready.notify_one();
    });

    for (;;) {
        std::optional<std::string> next;
        {
            std::unique_lock lock(mutex);
            ready.wait(lock, [&] { return !queue.empty() || finished; });
            if (queue.empty()) break;
            next = std::move(queue.front());
            queue.pop_front();
        }
        try {
            handle(*next);
        } catch (...) {
            // The handler answers its own failures; whatever escapes must not stop the loop.
        }
    }
    reader.join();
}

}  // namespace syndic
