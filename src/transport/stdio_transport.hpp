// Newline-delimited messages on a pair of streams (stdin/stdout): one line in, one line out,
// each written line flushed at once. Knows framing, not JSON-RPC: a reader thread takes lines as
// they come (so a cancellation can be seen while a call runs) and the caller handles them in order.
#pragma once
#include <functional>
#include <istream>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace syndic {

class StdioTransport {
public:
    StdioTransport(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

    // Writes one message and a newline, flushed; safe from any thread.
    void send(std::string_view line);

    // Reads until end of input. `peek` sees each line on the reader thread as soon as it arrives;
    // `handle` gets every non-blank line, in order, on the calling thread.
    void run(const std::function<void(const std::string&)>& peek,
             const std::function<void(const std::string&)>& handle);

private:
    std::istream& in_;
    std::ostream& out_;
    std::mutex write_mutex_;
};

}  // namespace syndic
