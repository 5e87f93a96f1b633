// The listening socket, the bound on open connections, and stopping (server_detail.hpp).
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <stdexcept>
#include <thread>

#include "http/server_detail.hpp"

namespace syndic::http {

HttpServer::Core::Core(ServerLimits limits, std::size_t workers, Handler handler, Refuser refuser, Logger logger)
    : limits(limits), worker_count(workers), handler(std::move(handler)), refuser(std::move(refuser)), logger(std::move(logger)) {}

void HttpServer::Core::accept() {
    acceptor.async_accept([self = shared_from_this()](const beast::error_code& ec, tcp::socket socket) {
        if (self->stopping || !self->acceptor.is_open()) return;
        if (ec) {
            // Out of descriptors or memory: wait a little instead of spinning on the same error.
            self->accept_pause.expires_after(std::chrono::milliseconds(50));
            self->accept_pause.async_wait([self](const beast::error_code& wait_ec) {
                if (!wait_ec) self->accept();
            });
            return;
        }
        self->admit(std::move(socket));
        self->accept();
    });
}

// A new connection takes the place of the longest idle one when the bound is reached; with none
// idle it is refused at once with 503, never queued.
void HttpServer::Core::admit(tcp::socket socket) {
    if (live.size() >= limits.max_connections) {
        std::shared_ptr<Connection> oldest;
        for (const auto& [raw, connection] : live)
            if (connection->idle() && (!oldest || connection->idle_since() < oldest->idle_since())) oldest = connection;
        if (oldest) {
            oldest->close();
        } else {
            Request nothing;
            Response refusal;
            refusal.status = 503;
            refuser(nothing, refusal, 503, "SERVER_BUSY",
                    "The server has " + std::to_string(limits.max_connections) + " connections open; retry shortly.");
            std::string text = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n";
            for (const auto& [name, value] : refusal.headers) text += name + ": " + value + "\r\n";
            text += "Content-Length: " + std::to_string(refusal.body.size()) + "\r\n\r\n" + refusal.body;
            beast::error_code ignored;
            socket.non_blocking(true, ignored);
            socket.write_some(asio::buffer(text), ignored);  // into an empty send buffer, or not at all
            socket.shutdown(tcp::socket::shutdown_both, ignored);
            socket.close(ignored);
            return;
        }
    }
    auto connection = std::make_shared<Connection>(*this, std::move(socket));
    live.emplace(connection.get(), connection);
    connection->start();
}

void HttpServer::Core::begin_stop() {
    if (stopping) return;
    stopping = true;
    beast::error_code ignored;
    acceptor.close(ignored);
    accept_pause.cancel();
    std::vector<std::shared_ptr<Connection>> open;
    for (const auto& [raw, connection] : live) open.push_back(connection);
    for (const auto& connection : open) connection->on_stop();
    if (live.empty()) {
        keep_running.reset();
        return;
    }
    // Whatever is still open after the grace is closed, answered or not.
    stop_deadline.expires_after(limits.stop_grace);
    stop_deadline.async_wait([self = shared_from_this()](const beast::error_code& ec) {
        if (ec) return;
        std::vector<std::shared_ptr<Connection>> left;
        for (const auto& [raw, connection] : self->live) left.push_back(connection);
        for (const auto& connection : left) connection->close();
    });
}

void HttpServer::Core::forget(Connection* connection) {
    live.erase(connection);
    if (stopping && live.empty()) {
        stop_deadline.cancel();
        keep_running.reset();
    }
}

HttpServer::HttpServer(ServerLimits limits, std::size_t workers, Handler handler, Refuser refuser, Logger logger)
    : core_(std::make_shared<Core>(limits, workers, std::move(handler), std::move(refuser), std::move(logger))) {}

HttpServer::~HttpServer() {
    if (core_->pool) core_->pool->shutdown();
}

int HttpServer::bind(const std::string& host, int port) {
    auto& c = *core_;
    beast::error_code ec;
    tcp::resolver resolver(c.io);
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

void HttpServer::run() {
    auto& c = *core_;
    c.pool = std::make_unique<WorkerPool>(c.worker_count);
    c.keep_running.emplace(c.io.get_executor());
    c.accept();
    c.io.run();
    // Every connection is closed: the workers finish what they hold (their answers go nowhere).
    c.pool->shutdown();
    c.io.restart();
    c.io.poll();
}

void HttpServer::stop() {
    asio::post(core_->io, [core = core_] { core->begin_stop(); });
}

}  // namespace syndic::http
