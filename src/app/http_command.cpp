#include "app/http_command.hpp"

#include <spdlog/spdlog.h>

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <thread>

#include "app/secrets_options.hpp"
#include "app/tick_command.hpp"
#include "delivery/delivery_worker.hpp"
#include "app/tool_errors_option.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"

namespace syndic::cli {

void HttpCommand::add_to(CLI::App& app) {
    command = app.add_subcommand(
        "http", "Serve the HTTP bridge: MCP at <base-url>/mcp, the REST routes and <base-url>/openapi.json");
    command->add_option("--listen", listen, "HOST:PORT to listen on (port 0: any free port)")->capture_default_str();
    command->add_option("--base-url", options.base_url,
                        "the public URL of the API, ending in /api (default http://HOST:PORT/api)");
    command->add_option("--allow-origin", options.allowed_origins,
                        "a browser origin allowed besides the base URL's, e.g. https://app.example.org (repeatable)")
        ->delimiter(',');
    command->add_option("--allow-host", options.allowed_hosts,
                        "a Host header name accepted besides the base URL's and loopback names (repeatable)")
        ->delimiter(',');
    command->add_option("--rate-limit", rate, "requests allowed per API key: N/min, N/s or N/h (off: no limit)")
        ->capture_default_str();
    command->add_option("--workers", options.workers, "requests served at once, each with its own database connection")
        ->capture_default_str()
        ->check(CLI::Range(1, 256));
    command->add_option("--max-connections", options.max_connections,
                        "connections open at once; beyond it the one longest without progress (no byte sent or read) is closed, or the new one refused (503)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    command->add_option("--max-connections-per-address", options.max_connections_per_address,
                        "connections open at once from one IPv4 address or IPv6 /64 (default: a sixteenth of --max-connections, at least 8); "
                        "beyond it that address's own connection longest without progress is closed, or the new one refused (503)")
        ->check(CLI::Range(1, 100000));
    command->add_option("--trusted-proxy", options.trusted_proxies,
                        "the address of a reverse proxy in front (repeatable): its connections count only against "
                        "--max-connections, not per address; the proxy must bound each client itself")
        ->delimiter(',');
    surface.add_to(*command);
    smtp.add_to(*command, true);
    webhooks.add_to(*command);
    command->add_option("--tools-page-size", options.tools_page_size, "tools per tools/list page (0: all in one page)");
    add_tool_errors_option(*command, options.tool_errors);
}

namespace {

// HOST:PORT (HOST may be a bracketed IPv6 address) into the options' host and port.
void parse_listen(const std::string& listen, http::BridgeOptions& options) {
    const auto colon = listen.rfind(':');
    if (colon == std::string::npos || colon == 0) throw std::runtime_error("--listen takes HOST:PORT, e.g. 127.0.0.1:8080");
    options.listen_host = listen.substr(0, colon);
    if (options.listen_host.size() > 2 && options.listen_host.front() == '[' && options.listen_host.back() == ']')
        options.listen_host = options.listen_host.substr(1, options.listen_host.size() - 2);
    try {
        std::size_t used = 0;
        options.listen_port = std::stoi(listen.substr(colon + 1), &used);
        if (used != listen.size() - colon - 1 || options.listen_port < 0 || options.listen_port > 65535) throw std::out_of_range("port");
    } catch (const std::exception&) {
        throw std::runtime_error("--listen " + listen + ": the port must be a number from 0 to 65535");
    }
}

// Runs `bridge` until SIGTERM or SIGINT; requests in flight finish first. The signals are taken
// by one thread that stops the server; every other thread, the workers included, is started with
// them blocked (so this is called before the bridge starts any). SIGUSR1 only wakes that thread
// when the server ends on its own.
struct StopOnSignal {
    sigset_t stop_signals{}, waited{};
    StopOnSignal() {
        sigemptyset(&stop_signals);
        sigaddset(&stop_signals, SIGTERM);
        sigaddset(&stop_signals, SIGINT);
        waited = stop_signals;
        sigaddset(&waited, SIGUSR1);
        pthread_sigmask(SIG_BLOCK, &waited, nullptr);
        ::signal(SIGPIPE, SIG_IGN);  // a client that hangs up is the library's to handle, not a crash
    }
    void run(http::HttpBridge& bridge) {
        std::atomic<bool> finished{false};
        std::thread watcher([&] {
            int signal_number = 0;
            sigwait(&waited, &signal_number);
            if (signal_number == SIGUSR1) return;
            // A second Ctrl-C or SIGTERM ends the process at once, as users expect of a stuck stop.
            pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
            spdlog::info("signal {}: finishing the requests already accepted, then stopping", signal_number);
            // stop() is lost if it comes before the server runs: repeat it until run() returns.
            while (!finished) {
                bridge.stop();
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
        bridge.run();
        finished = true;
        pthread_kill(watcher.native_handle(), SIGUSR1);  // wakes the watcher if no signal came
        watcher.join();
    }
};

}  // namespace

int HttpCommand::run(const Common& common) {
    const auto mail = smtp.settings();
    webhooks.apply();
    parse_listen(listen, options);
    options.rate = http::RatePlan::parse(rate);
    if (common.db_path == ":memory:" || !std::filesystem::exists(common.db_path))
        throw std::runtime_error("no database at " + common.db_path +
                                 ": create it with `syndic-mcp init --name \"...\"` or `syndic-mcp demo` (or pass --db)");
    options.db_path = common.db_path;
    check_database_at_start(common.db_path);
    Database::open(options.db_path);  // migrates once, before the workers open their own connections
    settle_leftover_files(options.db_path);

    StopOnSignal signals;
    ToolRegistry registry(all_tool_handlers(), surface.modules(), surface.read_only());
    SystemClock clock;
    http::HttpBridge bridge(registry, clock, std::move(options));
    const auto base_url = bridge.bind();
    // One write, so no log line of another thread lands inside it (scripts read the address from it).
    std::cerr << ("syndic-mcp: HTTP bridge serving " + base_url + " (MCP endpoint " + base_url + "/mcp, REST routes under " +
                  base_url + "/, OpenAPI at " + base_url + "/openapi.json); database " + common.db_path +
                  "; stop with Ctrl-C or SIGTERM\n")
              << std::flush;
    // After the signals are blocked, so the delivery thread leaves them to the watcher. It posts the
    // webhooks, with SMTP settings sends the e-mail, and runs the daily tick (at start, then 02:00).
    DeliveryWorker delivery(common.db_path, mail, true, std::chrono::seconds(smtp.interval_seconds()), tick_reader());

    signals.run(bridge);
    spdlog::info("HTTP bridge stopped");
    return 0;
}

}  // namespace syndic::cli
