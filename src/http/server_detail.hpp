// Private to server.cpp and connection.cpp (the only files that include Boost.Asio and Beast):
// the server's shared state on its event loop, one connection's state machine, and the request
// parser that enforces the header, framing and body limits as bytes arrive.
#pragma once
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/basic_parser.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "http/server.hpp"
#include "http/worker_pool.hpp"

namespace syndic::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

class Connection;

// Everything the event loop owns. Touched on the loop thread only, except `io`, `pool` and the
// callbacks (immutable after construction).
struct HttpServer::Core : std::enable_shared_from_this<HttpServer::Core> {
    Core(ServerLimits limits, std::size_t workers, Handler handler, Refuser refuser, Logger logger);

    ServerLimits limits;
    std::size_t worker_count;
    Handler handler;
    Refuser refuser;
    Logger logger;

    asio::io_context io{1};
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
    tcp::acceptor acceptor{io};
    asio::steady_timer accept_pause{io};
    asio::steady_timer stop_deadline{io};
    std::unique_ptr<WorkerPool> pool;
    std::unordered_map<Connection*, std::shared_ptr<Connection>> live;
    bool stopping = false;

    void accept();
    void admit(tcp::socket socket);
    void begin_stop();
    // A connection closed: no longer counted; the loop ends once stopping and none is left.
    void forget(Connection* connection);
};

// Why a request is refused before a handler sees it.
struct Refusal {
    int status = 0;
    std::string code;
    std::string detail;
};

// Beast's HTTP/1.1 parser, filling a Request directly: counts the header fields, refuses a
// duplicated or malformed Content-Length, a duplicated Host, Transfer-Encoding with
// Content-Length (or other than chunked), a body over the limit as soon as its length is known
// or as it arrives. Sets `refusal` with the error it returns.
class RequestParser final : public beast::http::basic_parser<true> {
public:
    RequestParser(const ServerLimits& limits, Request& request);
    std::optional<Refusal> refusal;

private:
    using error_code = beast::error_code;
    void refuse(error_code& ec, int status, std::string code, std::string detail);
    void on_request_impl(beast::http::verb, beast::string_view method, beast::string_view target, int version, error_code&) override;
    void on_response_impl(int, beast::string_view, int, error_code&) override {}
    void on_field_impl(beast::http::field, beast::string_view name, beast::string_view value, error_code& ec) override;
    void on_header_impl(error_code& ec) override;
    void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code& ec) override;
    std::size_t on_body_impl(beast::string_view body, error_code& ec) override;
    void on_chunk_header_impl(std::uint64_t, beast::string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, beast::string_view body, error_code& ec) override;
    void on_finish_impl(error_code&) override {}

    const ServerLimits& limits_;
    Request& request_;
    std::size_t fields_ = 0, content_lengths_ = 0, hosts_ = 0, transfer_encodings_ = 0;
};

// One accepted socket, from its first byte to its close, on the loop thread only (a worker
// touches the request only while the connection waits for its answer).
class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(HttpServer::Core& core, tcp::socket socket);
    void start();
    // At stop(): closes the connection unless a request is already read or its body arriving.
    void on_stop();
    bool idle() const { return state_ == State::idle; }
    std::chrono::steady_clock::time_point idle_since() const { return idle_since_; }
    void close();

private:
    enum class State { idle, header, body, handling, writing, lingering, closed };

    void arm(std::chrono::milliseconds timeout);
    void read_more();
    void on_read(const beast::error_code& ec, std::size_t n);
    void feed();
    void dispatch();
    void refuse(const Refusal& refusal);
    void answer(Response response);
    void on_written(const beast::error_code& ec);
    void next_request();
    void linger();

    HttpServer::Core& core_;
    tcp::socket socket_;
    asio::steady_timer timer_;
    unsigned timer_generation_ = 0;
    beast::flat_buffer buffer_;
    Request request_;
    std::optional<RequestParser> parser_;
    std::string out_;
    Response response_;  // kept until written, for the access log
    State state_ = State::idle;
    bool close_after_ = false;  // answer with Connection: close, then close
    bool refused_ = false;      // after the answer, read and drop what follows for a while
    bool head_ = false;
    std::string remote_;
    std::chrono::steady_clock::time_point started_, idle_since_;
};

}  // namespace syndic::http
