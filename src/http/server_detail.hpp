// Private to server.cpp and connection.cpp (the only files that include Boost.Asio and Beast):
// the server's shared state, one connection's state machine, and the request
// parser that enforces the header, framing and body limits as bytes arrive.
#pragma once
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/basic_parser.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "http/server.hpp"

namespace syndic::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

class Connection;

// The server's shared state. `control`, run by the thread that called run(), accepts, keeps the
// bound on connections and stops; each of the `loops`, one thread each, owns the connections given
// to it (their sockets, timers and handlers), so a request is read, handled and answered on one
// thread, with no hand-off. `live` is touched from the loops too (forget), under `live_mutex`.
struct HttpServer::Core : std::enable_shared_from_this<HttpServer::Core> {
    Core(ServerLimits limits, std::size_t threads, Handler handler, Refuser refuser, Logger logger);

    struct Loop {
        asio::io_context io{1};
        std::optional<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
        std::size_t connections = 0;  // given to it and not yet forgotten (under live_mutex)
    };

    ServerLimits limits;
    Handler handler;
    Refuser refuser;
    Logger logger;

    asio::io_context control{1};
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
    std::vector<std::unique_ptr<Loop>> loops;
    tcp::acceptor acceptor{control};
    asio::steady_timer accept_pause{control};
    asio::steady_timer stop_deadline{control};
    std::mutex live_mutex;
    std::unordered_map<Connection*, std::shared_ptr<Connection>> live;
    std::unordered_map<std::string, std::size_t> per_address;  // open connections by share key, when counted
    std::atomic<bool> stopping{false};

    void accept();                   // on `control`
    void admit(Loop& loop, tcp::socket socket);  // on `control`
    // The connection to close for a new one, under live_mutex: of those whose handler is not
    // running and not already chosen, the one longest without a byte (of `key`'s, if not empty), marked chosen;
    // null if none.
    std::shared_ptr<Connection> stalest(const std::string& key);
    // Answers 503 SERVER_BUSY with `detail` on a socket never admitted, and closes it.
    void refuse_at_once(tcp::socket& socket, const std::string& detail);
    void begin_stop();               // on `control`
    void finish();                   // on `control`: every connection is closed
    // A connection closed (from its loop): no longer counted; the server ends once stopping and
    // none is left.
    void forget(Connection* connection);
    std::vector<std::shared_ptr<Connection>> open_connections();
};

// Why a request is refused before a handler sees it.
struct ParseRefusal {
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
    std::optional<ParseRefusal> refusal;

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

// One accepted socket, from its first byte to its close. Everything it does runs on its loop's
// thread (its socket's executor), the request handler included; `sheddable()` and
// `progress_stamp()` may be read from `control`, and `shed`/`on_stop`/`close` are
// posted to its loop.
class Connection : public std::enable_shared_from_this<Connection> {
public:
    // `remote`: the peer's numeric address; `share_key`: what it is counted under per address
    // (empty: not counted, a proxy's).
    Connection(HttpServer::Core& core, HttpServer::Core::Loop& loop, tcp::socket socket, std::string remote, std::string share_key);
    HttpServer::Core::Loop& loop;
    const std::string share_key;
    void start();
    // At stop(): closes the connection unless a request is already read or its body arriving.
    void on_stop();
    // Not in its handler: idle, sending a request, taking its answer, or refused and lingering.
    bool sheddable() const {
        const auto s = state_.load(std::memory_order_relaxed);
        return s != State::handling && s != State::closed;
    }
    // When it last made progress (accepted, a byte received, a piece of its answer taken, its
    // answer written); 0 once refused and lingering, so that one goes first.
    std::chrono::steady_clock::rep progress_stamp() const {
        return state_.load(std::memory_order_relaxed) == State::lingering ? 0 : last_progress_.load(std::memory_order_relaxed);
    }
    // Posts `what` to the connection's loop, keeping it alive until it has run.
    template <typename F>
    void post(F what) {
        asio::post(socket_.get_executor(), [self = shared_from_this(), what = std::move(what)]() mutable { what(*self); });
    }
    void close();
    // Closes it to make room unless its handler is running (then it keeps its place, and the bound
    // is passed by one until it is answered).
    void shed() {
        if (sheddable()) return close();
        chosen = false;
    }
    // Chosen to make room and not yet closed (set by `control` under live_mutex): not chosen again
    // for another new connection meanwhile.
    std::atomic<bool> chosen{false};

private:
    enum class State { idle, header, body, handling, writing, lingering, closed };

    void arm(std::chrono::milliseconds timeout);
    void arm_body();
    void read_more();
    void on_read(const beast::error_code& ec, std::size_t n);
    void feed();
    void dispatch();
    void refuse(const ParseRefusal& refusal);
    void answer(Response response);
    void write_more();
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
    std::size_t written_ = 0;  // of out_
    Response response_;  // kept until written, for the access log
    std::atomic<State> state_{State::idle};
    bool close_after_ = false;  // answer with Connection: close, then close
    bool refused_ = false;      // after the answer, read and drop what follows for a while
    bool head_ = false;
    std::string remote_;
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point body_deadline_;
    std::atomic<std::chrono::steady_clock::rep> last_progress_{0};
    void progressed() { last_progress_ = std::chrono::steady_clock::now().time_since_epoch().count(); }
};

}  // namespace syndic::http
