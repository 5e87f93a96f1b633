// The HTTP/1.1 server under the bridge: a control loop accepts, and each connection belongs to one
// of `threads` event loops (an idle one costs a socket, never a thread), whose thread reads a
// whole request, runs the handler on it and writes the answer; the limits below hold against
// hostile clients. Knows sockets and framing;
// knows nothing of routes, credentials or the database (the handler's). Boost.Asio/Beast stay
// inside server.cpp and connection.cpp.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "http/message.hpp"

namespace syndic::http {

struct ServerLimits {
    std::size_t max_header_bytes = 64 * 1024;  // request line and header fields together
    std::size_t max_header_lines = 100;         // header fields
    std::size_t max_body_bytes = 4 * 1024 * 1024;  // as read, and once decompressed
    // Open at once; at the bound the connection that has gone longest without sending a byte or
    // taking one of its answer (an idle one since its last answer) makes room, unless every one is
    // in its handler (503).
    std::size_t max_connections = 512;
    // Open at once from one IPv4 address or one IPv6 /64 (address_share.hpp); beyond it that
    // address's own connection longest without progress makes room, or the new one gets 503.
    std::size_t max_connections_per_address = 32;
    // Client addresses counted only against max_connections: a reverse proxy's, through which every
    // client comes (the proxy bounds each of them).
    std::vector<std::string> proxy_addresses;
    std::chrono::milliseconds header_timeout{10'000};  // from a request's first byte to its last header
    std::chrono::milliseconds body_timeout{30'000};    // from the header to the last byte of the body
    std::chrono::milliseconds body_stall{10'000};      // between two pieces of a body
    std::chrono::milliseconds idle_timeout{60'000};    // between requests on a kept-alive connection
    std::chrono::milliseconds write_timeout{10'000};   // for one answer to be taken by the client
    std::chrono::milliseconds linger{2'000};           // reading what follows a refused request, so the refusal arrives
    std::chrono::milliseconds stop_grace{4'000};       // from stop() until every connection is closed
};

class HttpServer {
public:
    // Runs on the connection's loop thread with the whole request (up to `threads` at once); fills
    // in the answer. An exception is a 500.
    using Handler = std::function<void(Request&, Response&)>;
    // Runs on a loop thread for a request refused before a handler sees it (400, 413, 415, 431,
    // 503): fills in the body for `status` with the machine `code` and its English `detail`. The
    // request holds what was read of it (method and path may be empty). Must not block.
    using Refuser = std::function<void(const Request&, Response&, int status, const std::string& code, const std::string& detail)>;
    // Runs on a loop thread once an answer is written (or refused): the access log. Thread-safe.
    using Logger = std::function<void(const Request&, const Response&, double milliseconds)>;

    HttpServer(ServerLimits limits, std::size_t threads, Handler handler, Refuser refuser, Logger logger);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and listens; the port bound (the one asked for, or any free one for 0). Throws
    // std::runtime_error when the address cannot be bound.
    int bind(const std::string& host, int port);
    // Serves until stop(): the control loop on this thread, the event loops on `threads` others;
    // returns once every connection is closed and every thread has joined.
    void run();
    // From any thread, any number of times: stops accepting, closes idle connections and those
    // still sending a header, lets requests already read (or whose body is arriving) be answered,
    // and closes whatever is left after the stop grace.
    void stop();

    struct Core;  // the event loop's state (server_detail.hpp)

private:
    std::shared_ptr<Core> core_;
};

}  // namespace syndic::http
