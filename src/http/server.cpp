// The listening socket, the bound on open connections, the loop's threads, and stopping
// (server_detail.hpp).
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "http/address_share.hpp"
#include "http/server_detail.hpp"

namespace syndic::http {

HttpServer::Core::Core(ServerLimits limits, std::size_t threads, Handler handler, Refuser refuser, Logger logger)
    : limits(limits), handler(std::move(handler)), refuser(std::move(refuser)), logger(std::move(logger)) {
    for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) loops.push_back(std::make_unique<Loop>());
}

std::vector<std::shared_ptr<Connection>> HttpServer::Core::open_connections() {
    std::lock_guard lock(live_mutex);
    std::vector<std::shared_ptr<Connection>> open;
    open.reserve(live.size());
    for (const auto& [raw, connection] : live) open.push_back(connection);
    return open;
}

// Each socket is accepted onto the loop with the fewest connections (the first of them on a tie).
void HttpServer::Core::accept() {
    Loop* quietest = loops.front().get();
    {
        std::lock_guard lock(live_mutex);
        for (const auto& l : loops)
            if (l->connections < quietest->connections) quietest = l.get();
    }
    acceptor.async_accept(quietest->io, [self = shared_from_this(), quietest](const beast::error_code& ec, tcp::socket socket) {
        if (self->stopping || !self->acceptor.is_open()) return;
        if (ec) {
            // Out of descriptors or memory: wait a little instead of spinning on the same error.
            self->accept_pause.expires_after(std::chrono::milliseconds(50));
            self->accept_pause.async_wait([self](const beast::error_code& wait_ec) {
                if (!wait_ec) self->accept();
            });
            return;
        }
        self->admit(*quietest, std::move(socket));
        self->accept();
    });
}

std::shared_ptr<Connection> HttpServer::Core::stalest(const std::string& key) {
    std::shared_ptr<Connection> found;
    std::chrono::steady_clock::rep found_stamp = 0;
    for (const auto& [raw, connection] : live) {
        if ((!key.empty() && connection->share_key != key) || !connection->sheddable() || connection->chosen) continue;
        const auto stamp = connection->progress_stamp();
        if (!found || stamp < found_stamp) found = connection, found_stamp = stamp;
    }
    if (found) found->chosen = true;
    return found;
}

void HttpServer::Core::refuse_at_once(tcp::socket& socket, const std::string& detail) {
    Request nothing;
    Response refusal;
    refusal.status = 503;
    refuser(nothing, refusal, 503, "SERVER_BUSY", detail);
    if (refusal.get_header_value("Retry-After").empty()) refusal.set_header("Retry-After", "1");
    std::string text = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n";
    for (const auto& [name, value] : refusal.headers) text += name + ": " + value + "\r\n";
    text += "Content-Length: " + std::to_string(refusal.body.size()) + "\r\n\r\n" + refusal.body;
    beast::error_code ignored;
    socket.non_blocking(true, ignored);
    socket.write_some(asio::buffer(text), ignored);  // into an empty send buffer, or not at all
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
}

// Two bounds (issue 28, point 1): connections from one address (an IPv4 address, an IPv6 /64),
// then connections in all. At either, the connection that has gone longest without sending a byte
// (of that address's, for the first) is closed to make room: a client holding half-sent requests,
// or not reading its answers, loses them to anyone who sends; with none to close (every handler
// busy), the new connection is refused at once with 503, never queued. The chosen one is closed on
// its own loop unless its handler started meanwhile: then it is answered, and the bound passed by
// one until then.
void HttpServer::Core::admit(Loop& loop, tcp::socket socket) {
    beast::error_code ec;
    std::string remote;
    if (const auto peer = socket.remote_endpoint(ec); !ec) {
        const auto address = peer.address();
        remote = address.is_v6() && address.to_v6().is_v4_mapped() ? address.to_v6().to_v4().to_string() : address.to_string();
    }
    const bool proxy = std::find(limits.proxy_addresses.begin(), limits.proxy_addresses.end(), remote) != limits.proxy_addresses.end();
    std::string key = proxy ? std::string() : address_share_key(remote);
    if (!proxy && key.empty()) key = "-";  // no address to be read: all such count as one
    std::shared_ptr<Connection> victim;
    std::string busy;
    {
        std::lock_guard lock(live_mutex);
        const auto held = per_address.find(key);
        if (!key.empty() && held != per_address.end() && held->second >= limits.max_connections_per_address) {
            victim = stalest(key);
            if (!victim)
                busy = "This address has " + std::to_string(limits.max_connections_per_address) + " connections open; retry shortly.";
        } else if (live.size() >= limits.max_connections) {
            victim = stalest({});
            if (!victim) busy = "The server has " + std::to_string(limits.max_connections) + " connections open; retry shortly.";
        }
    }
    if (!busy.empty()) return refuse_at_once(socket, busy);
    if (victim) victim->post([](Connection& c) { c.shed(); });
    auto connection = std::make_shared<Connection>(*this, loop, std::move(socket), std::move(remote), std::move(key));
    {
        std::lock_guard lock(live_mutex);
        live.emplace(connection.get(), connection);
        ++loop.connections;
        if (!connection->share_key.empty()) ++per_address[connection->share_key];
    }
    connection->post([](Connection& c) { c.start(); });
}

void HttpServer::Core::begin_stop() {
    if (stopping) return;
    stopping = true;
    beast::error_code ignored;
    acceptor.close(ignored);
    accept_pause.cancel();
    const auto open = open_connections();
    for (const auto& connection : open) connection->post([](Connection& c) { c.on_stop(); });
    if (open.empty()) return finish();
    // Whatever is still open after the grace is closed, answered or not.
    stop_deadline.expires_after(limits.stop_grace);
    stop_deadline.async_wait([self = shared_from_this()](const beast::error_code& ec) {
        if (ec) return;
        for (const auto& connection : self->open_connections()) connection->post([](Connection& c) { c.close(); });
    });
}

void HttpServer::Core::forget(Connection* connection) {
    bool last = false;
    {
        std::lock_guard lock(live_mutex);
        --connection->loop.connections;
        if (const auto it = per_address.find(connection->share_key); it != per_address.end() && --it->second == 0)
            per_address.erase(it);
        live.erase(connection);
        last = live.empty();
    }
    if (stopping && last)
        asio::post(control, [self = shared_from_this()] {
            std::lock_guard lock(self->live_mutex);
            if (self->live.empty()) self->finish();
        });
}

void HttpServer::Core::finish() {
    stop_deadline.cancel();
    for (auto& l : loops) l->keep_running.reset();
    keep_running.reset();
}

HttpServer::HttpServer(ServerLimits limits, std::size_t workers, Handler handler, Refuser refuser, Logger logger)
    : core_(std::make_shared<Core>(limits, workers, std::move(handler), std::move(refuser), std::move(logger))) {}

HttpServer::~HttpServer() = default;

int HttpServer::bind(const std::string& host, int port) {
    auto& c = *core_;
    beast::error_code ec;
    tcp::resolver resolver(c.control);
    const auto found = resolver.resolve(host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
    if (ec || found.empty()) throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) + " (" + ec.message() + ")");
    const tcp::endpoint endpoint = found.begin()->endpoint();
    c.acceptor.open(endpoint.protocol(), ec);
    if (!ec) c.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) c.acceptor.bind(endpoint, ec);
    if (!ec) c.acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port) +
                                 " (the port is taken, or the address is not this machine's)");
    return c.acceptor.local_endpoint().port();
}

// The loops run on `threads` threads (the bridge's --workers), `control` on this one.
void HttpServer::run() {
    auto& c = *core_;
    c.keep_running.emplace(c.control.get_executor());
    std::vector<std::thread> threads;
    for (auto& l : c.loops) {
        l->keep_running.emplace(l->io.get_executor());
        threads.emplace_back([&io = l->io] { io.run(); });
    }
    c.accept();
    c.control.run();
    for (auto& t : threads) t.join();
    for (auto& l : c.loops) {
        l->io.restart();
        l->io.poll();
    }
    c.control.restart();
    c.control.poll();
}

void HttpServer::stop() {
    asio::post(core_->control, [core = core_] { core->begin_stop(); });
}

}  // namespace syndic::http
