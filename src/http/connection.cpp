// One connection's life on its loop, and the request parser's limits (server_detail.hpp).
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/status.hpp>

#include <algorithm>
#include <exception>

#include "http/body_coding.hpp"
#include "http/server_detail.hpp"

namespace syndic::http {

namespace {

constexpr std::size_t read_chunk = 16 * 1024;

bool same(beast::string_view a, beast::string_view b) { return beast::iequals(a, b); }

std::string trimmed(beast::string_view text) {
    auto s = std::string(text);
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    return s;
}

std::string kib(std::size_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// The parser

RequestParser::RequestParser(const ServerLimits& limits, Request& request) : limits_(limits), request_(request) {
    header_limit(static_cast<std::uint32_t>(limits.max_header_bytes));
    // Beast 1.74 compares a length with an absent limit as over it: the limit is always set, and
    // counted here too, to answer 413 with the figure.
    body_limit(static_cast<std::uint64_t>(limits.max_body_bytes));
    eager(true);
}

void RequestParser::refuse(error_code& ec, int status, std::string code, std::string detail) {
    refusal = ParseRefusal{status, std::move(code), std::move(detail)};
    ec = beast::http::error::bad_value;
}

void RequestParser::on_request_impl(beast::http::verb, beast::string_view method, beast::string_view target, int version,
                                    error_code&) {
    request_.method = std::string(method);
    request_.target = std::string(target);
    request_.version = version;
    split_target(request_.target, request_.path, request_.params);
}

void RequestParser::on_field_impl(beast::http::field name, beast::string_view name_text, beast::string_view value,
                                  error_code& ec) {
    using beast::http::field;
    if (++fields_ > limits_.max_header_lines)
        return refuse(ec, 431, "HEADERS_TOO_LARGE",
                      "The request has more than " + std::to_string(limits_.max_header_lines) + " header fields.");
    if (name == field::content_length) {
        if (++content_lengths_ > 1) return refuse(ec, 400, "BAD_REQUEST", "Content-Length is given more than once.");
        const auto text = trimmed(value);
        if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
            return refuse(ec, 400, "BAD_REQUEST", "Content-Length must be one decimal number.");
    }
    if (name == field::host && ++hosts_ > 1) return refuse(ec, 400, "BAD_REQUEST", "Host is given more than once.");
    if (name == field::transfer_encoding) ++transfer_encodings_;
    request_.headers.emplace(std::string(name_text), std::string(value));
}

void RequestParser::on_header_impl(error_code& ec) {
    if (transfer_encodings_ > 0 && content_lengths_ > 0)
        return refuse(ec, 400, "BAD_REQUEST", "Transfer-Encoding and Content-Length cannot be given together.");
    if (transfer_encodings_ > 1 || (transfer_encodings_ == 1 && !same(trimmed(request_.get_header_value("Transfer-Encoding")), "chunked")))
        return refuse(ec, 400, "BAD_REQUEST", "The only transfer coding taken is chunked, given once.");
    if (request_.version >= 11 && hosts_ == 0) return refuse(ec, 400, "BAD_REQUEST", "An HTTP/1.1 request must have a Host header.");
}

void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code& ec) {
    if (length && *length > limits_.max_body_bytes)
        return refuse(ec, 413, "PAYLOAD_TOO_LARGE", "The body is larger than " + std::to_string(limits_.max_body_bytes) + " bytes.");
    if (length) request_.body.reserve(static_cast<std::size_t>(*length));
}

std::size_t RequestParser::on_body_impl(beast::string_view body, error_code& ec) {
    if (request_.body.size() + body.size() > limits_.max_body_bytes) {
        refuse(ec, 413, "PAYLOAD_TOO_LARGE", "The body is larger than " + std::to_string(limits_.max_body_bytes) + " bytes.");
        return 0;
    }
    request_.body.append(body.data(), body.size());
    return body.size();
}

std::size_t RequestParser::on_chunk_body_impl(std::uint64_t, beast::string_view body, error_code& ec) {
    return on_body_impl(body, ec);
}

// ---------------------------------------------------------------------------------------------
// The connection

Connection::Connection(HttpServer::Core& core, HttpServer::Core::Loop& loop, tcp::socket socket, std::string remote,
                       std::string share_key)
    : loop(loop), share_key(std::move(share_key)), core_(core), socket_(std::move(socket)), timer_(socket_.get_executor()),
      buffer_(core.limits.max_header_bytes + read_chunk), remote_(std::move(remote)) {
    progressed();
}

void Connection::start() {
    beast::error_code ec;
    socket_.set_option(tcp::no_delay(true), ec);  // each answer is one write: nothing to wait for
    parser_.emplace(core_.limits, request_);
    request_.remote_addr = remote_;
    state_ = State::idle;
    arm(core_.limits.idle_timeout);
    read_more();
}

// One timer per connection, re-armed at every change of state; an expiry closes the connection
// (a stale expiry, from a state since left, is ignored).
void Connection::arm(std::chrono::milliseconds timeout) {
    const unsigned generation = ++timer_generation_;
    timer_.expires_after(timeout);
    timer_.async_wait([self = shared_from_this(), generation](const beast::error_code& ec) {
        if (ec || generation != self->timer_generation_ || self->state_ == State::closed) return;
        self->close();
    });
}

// The body's deadline: the next piece within the stall limit, the whole by the body timeout.
void Connection::arm_body() {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(body_deadline_ - std::chrono::steady_clock::now());
    arm(std::max(std::chrono::milliseconds(0), std::min(left, core_.limits.body_stall)));
}

void Connection::read_more() {
    if (state_ == State::idle && buffer_.size() == 0) {
        // Waiting for the next request costs no buffer: wait for a byte, then read.
        buffer_.shrink_to_fit();
        socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](const beast::error_code& ec) {
            if (self->state_ == State::closed) return;
            if (ec) return self->close();
            self->state_ = State::header;
            self->started_ = std::chrono::steady_clock::now();
            self->arm(self->core_.limits.header_timeout);
            self->read_more();
        });
        return;
    }
    const std::size_t room = buffer_.max_size() - buffer_.size();
    if (room == 0) return refuse({431, "HEADERS_TOO_LARGE", "The request line and header are larger than " + kib(core_.limits.max_header_bytes) + "."});
    socket_.async_read_some(buffer_.prepare(std::min(room, read_chunk)),
                            [self = shared_from_this()](const beast::error_code& ec, std::size_t n) { self->on_read(ec, n); });
}

void Connection::on_read(const beast::error_code& ec, std::size_t n) {
    if (state_ == State::closed) return;
    if (ec) return close();  // the client went away, or the connection was closed under the read
    buffer_.commit(n);
    if (state_ == State::lingering) {
        buffer_.consume(buffer_.size());
        return read_more();
    }
    if (n > 0) progressed();
    if (state_ == State::body && n > 0) arm_body();
    feed();
}

// Gives the parser what is buffered; bytes beyond the request (a pipelined next one) stay in the
// buffer until this request is answered.
void Connection::feed() {
    if (state_ == State::idle) {
        state_ = State::header;
        started_ = std::chrono::steady_clock::now();
        arm(core_.limits.header_timeout);
    }
    while (buffer_.size() > 0 && !parser_->is_done()) {
        beast::error_code ec;
        const auto used = parser_->put(buffer_.data(), ec);
        buffer_.consume(used);
        if (ec == beast::http::error::need_more) break;
        if (ec) {
            if (parser_->refusal) return refuse(*parser_->refusal);
            if (ec == beast::http::error::body_limit)
                return refuse({413, "PAYLOAD_TOO_LARGE", "The body is larger than " + std::to_string(core_.limits.max_body_bytes) + " bytes."});
            if (ec == beast::http::error::header_limit)
                return refuse({431, "HEADERS_TOO_LARGE", "The request line and header are larger than " + kib(core_.limits.max_header_bytes) + "."});
            return refuse({400, "BAD_REQUEST", "The request could not be read as HTTP/1.1 (" + ec.message() + ")."});
        }
        if (state_ == State::header && parser_->is_header_done()) {
            state_ = State::body;
            started_ = std::chrono::steady_clock::now();
            body_deadline_ = started_ + core_.limits.body_timeout;
            arm_body();
            if (core_.stopping) close_after_ = true;
            if (!parser_->is_done() && same(trimmed(request_.get_header_value("Expect")), "100-continue")) {
                static const std::string go_on = "HTTP/1.1 100 Continue\r\n\r\n";
                beast::error_code ignored;
                asio::write(socket_, asio::buffer(go_on), ignored);  // 25 bytes to an empty send buffer
            }
        }
        if (used == 0) break;
    }
    if (parser_->is_done()) return dispatch();
    read_more();
}

void Connection::dispatch() {
    state_ = State::handling;
    ++timer_generation_;  // no deadline while a worker answers (stop() has its own)
    timer_.cancel();
    head_ = request_.method == "HEAD";
    if (!parser_->keep_alive() || core_.stopping) close_after_ = true;
    std::string problem;
    const int status = decode_body(request_, core_.limits.max_body_bytes, problem);
    if (status != 0)
        return refuse({status, status == 413 ? "PAYLOAD_TOO_LARGE" : status == 415 ? "UNSUPPORTED_MEDIA_TYPE" : "BAD_REQUEST", problem});
    // The handler runs here, on this connection's loop: the thread that read the request answers
    // it, with no hand-off to another thread and back (docs/decisions.md, "The bridge's threads").
    Response response;
    try {
        core_.handler(request_, response);
    } catch (const std::exception&) {
        response = Response{};
        core_.refuser(request_, response, 500, "INTERNAL_ERROR", "The server failed unexpectedly.");
    }
    answer(std::move(response));
}

void Connection::refuse(const ParseRefusal& refusal) {
    Response response;
    response.status = refusal.status;
    core_.refuser(request_, response, refusal.status, refusal.code, refusal.detail);
    close_after_ = true;
    refused_ = true;
    head_ = request_.method == "HEAD";
    answer(std::move(response));
}

// The answer in one write: status line, headers, Content-Length, and the body (none for HEAD).
void Connection::answer(Response response) {
    if (state_ == State::closed) return;
    if (core_.stopping) close_after_ = true;
    const CaseInsensitiveLess less;
    for (const auto& [name, value] : response.headers)
        if (!less(name, "Connection") && !less("Connection", name) && value.find("close") != std::string::npos) close_after_ = true;
    const int status = response.status;
    out_.clear();
    out_.reserve(256 + response.body.size());
    out_ += "HTTP/1.1 " + std::to_string(status) + " ";
    out_ += std::string(beast::http::obsolete_reason(static_cast<beast::http::status>(status)));
    out_ += "\r\n";
    for (const auto& [name, value] : response.headers) {
        if ((!less(name, "Connection") && !less("Connection", name)) || (!less(name, "Content-Length") && !less("Content-Length", name)))
            continue;
        out_ += name + ": " + value + "\r\n";
    }
    const bool bodiless_status = status < 200 || status == 204 || status == 304;
    if (!bodiless_status) out_ += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
    if (close_after_) out_ += "Connection: close\r\n";
    else if (request_.version == 10) out_ += "Connection: keep-alive\r\n";
    out_ += "\r\n";
    if (!head_ && !bodiless_status) out_ += response.body;
    response.body.clear();
    response_ = std::move(response);
    state_ = State::writing;
    arm(core_.limits.write_timeout);
    written_ = 0;
    write_more();
}

// The answer a piece at a time, as the client takes it: each piece taken is progress, so an answer
// nobody reads counts as stalled (server.cpp, admit).
void Connection::write_more() {
    socket_.async_write_some(asio::buffer(out_.data() + written_, out_.size() - written_),
                             [self = shared_from_this()](const beast::error_code& ec, std::size_t n) {
                                 if (self->state_ == State::closed) return;
                                 if (ec) return self->on_written(ec);
                                 self->written_ += n;
                                 if (n > 0) self->progressed();
                                 if (self->written_ < self->out_.size()) return self->write_more();
                                 self->on_written(ec);
                             });
}

void Connection::on_written(const beast::error_code& ec) {
    if (state_ == State::closed) return;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
    try {
        core_.logger(request_, response_, ms);
    } catch (const std::exception&) {
        // the access log is best effort: a failed line never fails the answer
    }
    if (ec) return close();
    if (refused_) return linger();
    if (close_after_) {
        beast::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_send, ignored);
        return linger();
    }
    next_request();
}

void Connection::next_request() {
    request_ = Request{};
    request_.remote_addr = remote_;
    parser_.emplace(core_.limits, request_);
    response_ = Response{};
    out_.clear();
    out_.shrink_to_fit();
    state_ = State::idle;
    progressed();
    arm(core_.limits.idle_timeout);
    if (buffer_.size() > 0) return feed();  // a pipelined request, already here
    read_more();
}

// After a refusal the client may still be sending what was refused: read and drop it for a
// while, so the answer is not lost to a reset, then close.
void Connection::linger() {
    if (core_.stopping) return close();  // the process is ending: no time to wait for the client
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    state_ = State::lingering;
    buffer_.consume(buffer_.size());
    arm(core_.limits.linger);
    read_more();
}

void Connection::on_stop() {
    switch (state_) {
    case State::idle:
    case State::header:
    case State::lingering: return close();
    case State::body:
    case State::handling:
    case State::writing: close_after_ = true; return;
    case State::closed: return;
    }
}

void Connection::close() {
    if (state_ == State::closed) return;
    state_ = State::closed;
    ++timer_generation_;
    beast::error_code ignored;
    timer_.cancel();
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    core_.forget(this);
}

}  // namespace syndic::http
