// syndic-mcp's command line (decisions 1): serve (MCP on stdio, the default), init, keys, users,
// demo, tools, openapi. Wires the layers together; holds no rule of its own.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <atomic>
#include <chrono>
#include <sstream>
#include <thread>

#include "app/account_commands.hpp"
#include "app/cli_audit.hpp"
#include "app/cli_support.hpp"
#include "app/demo.hpp"
#include "app/secrets_options.hpp"
#include "core/error.hpp"
#include "core/fraction.hpp"
#include "core/text.hpp"
#include "http/openapi.hpp"
#include "auth/credentials.hpp"
#include "auth/oauth.hpp"
#include "auth/users.hpp"
#include "http/bridge.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"
#include "modules/modules.hpp"
#include "modules/water_heaters/water_heaters.hpp"
#include "storage/backup.hpp"
#include "storage/database.hpp"
#include "storage/durable_file.hpp"
#include "storage/file_modes.hpp"
#include "transport/stdio_transport.hpp"

namespace {

using namespace syndic;
using namespace syndic::cli;
using nlohmann::json;

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const auto first = item.find_first_not_of(' ');
        if (first == std::string::npos) continue;
        out.push_back(item.substr(first, item.find_last_not_of(' ') - first + 1));
    }
    return out;
}

void setup_logging(const std::string& level, const std::string& file) {
    std::shared_ptr<spdlog::logger> logger;
    if (file.empty()) logger = spdlog::stderr_logger_mt("syndic-mcp");
    else logger = spdlog::basic_logger_mt("syndic-mcp", file);
    logger->set_level(spdlog::level::from_str(level));
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
}

std::vector<std::string> checked_scopes(const ToolRegistry& registry, const std::string& text) {
    if (text.empty() || text == "*") return {all_scopes};
    auto known = registry.all_scopes();
    for (const char* s : {"read:co-owners", "write:co-owners", "read:meetings", "write:meetings"})
        if (std::find(known.begin(), known.end(), s) == known.end()) known.push_back(s);
    auto scopes = split_list(text);
    for (const auto& s : scopes)
        if (std::find(known.begin(), known.end(), s) == known.end()) {
            std::string list;
            for (const auto& k : known) list += " " + k;
            throw std::runtime_error("unknown scope '" + s + "'; known scopes:" + list);
        }
    return scopes;
}

int serve(const Common& common, const std::string& api_key, const std::string& modules, std::size_t page_size) {
    check_database_at_start(common.db_path);
    ToolRegistry registry(all_tool_handlers(), split_list(modules));
    SystemClock clock;
    remove_leftover_exports(common.db_path);
    std::unique_ptr<Database> db;  // opened by the first call that needs it
    StdioTransport transport(STDIN_FILENO, STDOUT_FILENO);
    McpServer server(
        registry,
        [&]() -> Database& {
            // A call never creates a database: without one there is no key to accept.
            if (!db && common.db_path != ":memory:" && !std::filesystem::exists(common.db_path))
                throw DomainError(codes::not_authenticated,
                                  "There is no database at " + common.db_path +
                                      ", so no API key can be valid; create it with `syndic-mcp init`.");
            if (!db) db = Database::open(common.db_path);
            return *db;
        },
        clock, McpOptions{api_key.empty() ? std::nullopt : std::optional(api_key), page_size, {}},
        [&](const std::string& line) { transport.send(line); });
    jsonrpc::Dispatcher dispatcher;
    server.attach(dispatcher);
    spdlog::info("syndic-mcp {} serving MCP on stdio: {} tools, database {}{}", server_version(),
                 registry.tools().size(), common.db_path, api_key.empty() ? " (no API key: calls will fail NOT_AUTHENTICATED)" : "");
    transport.run([&](const std::string& line) { server.peek(line); },
                  [&](const std::string& line) { return dispatcher.handle(line); },
                  [&](std::size_t limit) { return jsonrpc::Dispatcher::message_too_long(limit); });
    spdlog::info("end of input: stopping");
    return 0;
}

// The HTTP bridge until SIGTERM or SIGINT; requests in flight finish first.
int serve_http(const Common& common, http::BridgeOptions options, const std::string& listen, const std::string& modules,
               const std::string& rate) {
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
    options.rate = http::RatePlan::parse(rate);
    if (common.db_path == ":memory:" || !std::filesystem::exists(common.db_path))
        throw std::runtime_error("no database at " + common.db_path +
                                 ": create it with `syndic-mcp init --name \"...\"` or `syndic-mcp demo` (or pass --db)");
    options.db_path = common.db_path;
    check_database_at_start(common.db_path);
    Database::open(options.db_path);  // migrates once, before the workers open their own connections
    remove_leftover_exports(options.db_path);

    // SIGTERM and SIGINT are taken by one thread that stops the server; every other thread, the
    // workers included, is started with them blocked. SIGUSR1 only wakes that thread when the
    // server ends on its own.
    sigset_t stop_signals, wake_signal;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    sigemptyset(&wake_signal);
    sigaddset(&wake_signal, SIGUSR1);
    sigset_t waited = stop_signals;
    sigaddset(&waited, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &waited, nullptr);
    ::signal(SIGPIPE, SIG_IGN);  // a client that hangs up is the library's to handle, not a crash

    ToolRegistry registry(all_tool_handlers(), split_list(modules));
    SystemClock clock;
    http::HttpBridge bridge(registry, clock, std::move(options));
    const auto base_url = bridge.bind();
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
    std::cerr << "syndic-mcp: HTTP bridge serving " << base_url << " (MCP endpoint " << base_url << "/mcp, REST routes under "
              << base_url << "/, OpenAPI at " << base_url << "/openapi.json); database " << common.db_path
              << "; stop with Ctrl-C or SIGTERM" << std::endl;
    bridge.run();
    finished = true;
    pthread_kill(watcher.native_handle(), SIGUSR1);  // wakes the watcher if no signal came
    watcher.join();
    spdlog::info("HTTP bridge stopped");
    return 0;
}

// Key management works on an existing database only: a typo in --db should not create an empty one.
void print_key(const IssuedKey& key, const std::string& syndicate_id, bool as_json, const char* id_name) {
    if (as_json) std::cout << json{{id_name, id_name == std::string("syndicateId") ? syndicate_id : key.id}, {"apiKey", key.secret}}.dump() << "\n";
    else std::cout << key.secret << "\n";
}


}  // namespace

int main(int argc, char** argv) {
    // Answers are built in buffers of tens to hundreds of kilobytes, one after another. glibc
    // would hand such buffers back to the system at each free (trim, or munmap above its mmap
    // threshold) and take them again at the next call, a page fault per 4 KiB: keep them instead.
    // What the process holds is still bounded by the largest answer and the read-ahead.
    mallopt(M_MMAP_THRESHOLD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 32 << 20);
    // A write past RLIMIT_FSIZE or to a closed pipe fails (EFBIG, EPIPE) and is refused as such,
    // instead of killing the process.
    ::signal(SIGXFSZ, SIG_IGN);
    ::signal(SIGPIPE, SIG_IGN);
    // Every file and folder this process makes (database, -wal, -shm, backups, exports, key
    // files) is its owner's alone, whatever the umask it was started with.
    ::umask(077);
    CLI::App app{"syndic-mcp: the administration of a Quebec co-ownership syndicate (syndicat de copropriété), "
                 "served to AI assistants over MCP.",
                 "syndic-mcp"};
    app.set_version_flag("--version", std::string("syndic-mcp ") + SYNDIC_VERSION);
    app.fallthrough();  // --db, --log-level and --log-file may follow the sub-command
    Common common;
    app.add_option("--db", common.db_path, "SQLite database file (env SYNDIC_DB)")
        ->capture_default_str();
    app.add_option("--log-level", common.log_level, "trace, debug, info, warn, error or off")
        ->capture_default_str()
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    app.add_option("--log-file", common.log_file, "write logs to this file instead of stderr");

    ApiKeyOptions api_key_options;
    std::string modules = env("SYNDIC_MODULES");
    std::size_t page_size = 0;
    auto* serve_cmd = app.add_subcommand("serve", "Serve MCP on stdin/stdout (the default)");
    for (auto* cmd : {static_cast<CLI::App*>(&app), serve_cmd}) {
        api_key_options.add_to(*cmd);
        cmd->add_option("--modules", modules, "offer only these modules' tools, comma-separated (env SYNDIC_MODULES)");
        cmd->add_option("--tools-page-size", page_size, "tools per tools/list page (0: all in one page)");
    }

    http::BridgeOptions http_options;
    std::string http_listen = "127.0.0.1:8080", http_rate = "off";
    auto* http_cmd = app.add_subcommand(
        "http", "Serve the HTTP bridge: MCP at <base-url>/mcp, the REST routes and <base-url>/openapi.json");
    http_cmd->add_option("--listen", http_listen, "HOST:PORT to listen on (port 0: any free port)")->capture_default_str();
    http_cmd->add_option("--base-url", http_options.base_url,
                         "the public URL of the API, ending in /api (default http://HOST:PORT/api)");
    http_cmd->add_option("--allow-origin", http_options.allowed_origins,
                         "a browser origin allowed besides the base URL's, e.g. https://app.example.org (repeatable)")
        ->delimiter(',');
    http_cmd->add_option("--allow-host", http_options.allowed_hosts,
                         "a Host header name accepted besides the base URL's and loopback names (repeatable)")
        ->delimiter(',');
    http_cmd->add_option("--rate-limit", http_rate, "requests allowed per API key: N/min, N/s or N/h (off: no limit)")
        ->capture_default_str();
    http_cmd->add_option("--workers", http_options.workers, "requests served at once, each with its own database connection")
        ->capture_default_str()
        ->check(CLI::Range(1, 256));
    http_cmd->add_option("--max-connections", http_options.max_connections,
                         "connections open at once; beyond it the longest idle one is closed, or the new one refused (503)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    http_cmd->add_option("--modules", modules, "offer only these modules' tools, comma-separated (env SYNDIC_MODULES)");
    http_cmd->add_option("--tools-page-size", http_options.tools_page_size, "tools per tools/list page (0: all in one page)");

    std::string init_name;
    bool init_json = false;
    auto* init_cmd = app.add_subcommand("init", "Create the database if missing and a syndicate; print its admin API key once");
    init_cmd->add_option("--name", init_name, "the syndicate's name")->required();
    init_cmd->add_flag("--json", init_json, "print {\"syndicateId\":..,\"apiKey\":..}");
    bool init_force = false;
    init_cmd->add_flag("--force", init_force, "create the syndicate even if one of that name exists already");

    auto* keys_cmd = app.add_subcommand("keys", "Create, list and revoke API keys");
    keys_cmd->require_subcommand(1);
    std::string key_syndicate, key_role = "member", key_scopes, key_name = "api key", revoke_id;
    bool key_json = false;
    auto* keys_create = keys_cmd->add_subcommand("create", "Create an API key and print it once");
    keys_create->add_option("--syndicate", key_syndicate, "syndicate id (default: the only one)");
    keys_create->add_option("--role", key_role, "admin or member")->capture_default_str()->check(CLI::IsMember({"admin", "member"}));
    keys_create->add_option("--scopes", key_scopes, "comma-separated scopes (default: every scope)");
    keys_create->add_option("--name", key_name, "a label to recognise the key")->capture_default_str();
    keys_create->add_flag("--json", key_json, "print {\"apiKeyId\":..,\"apiKey\":..}");
    auto* keys_list = keys_cmd->add_subcommand("list", "List API keys (never their secrets)");
    keys_list->add_option("--syndicate", key_syndicate, "only this syndicate's keys");
    keys_list->add_flag("--json", key_json, "print a JSON array");
    auto* keys_revoke = keys_cmd->add_subcommand("revoke", "Revoke an API key");
    keys_revoke->add_option("id", revoke_id, "the key's id, or its prefix as `keys list` shows it (sk_l56E0…), or a unique beginning of either")->required();
    UsersCommand users_cmd;
    users_cmd.add_to(app);
    ClientsCommand clients_cmd;
    clients_cmd.add_to(app);
    SigningKeyCommand signing_key_cmd;
    signing_key_cmd.add_to(app);

    bool demo_json = false;
    std::string demo_key_file;
    auto* demo_cmd = app.add_subcommand("demo", "Create (or reuse) a demo syndicate with realistic data and print an admin key for it");
    demo_cmd->add_flag("--json", demo_json, "print {\"syndicateId\":..,\"apiKey\":..}");
    demo_cmd->add_option("--key-file", demo_key_file,
                         "keep the key in this file (mode 600) and print that one again while it is valid "
                         "(default: demo-admin.key beside the database)");

    bool tools_json = false;
    auto* tools_cmd = app.add_subcommand("tools", "Print the tool catalogue with each tool's scope");
    tools_cmd->add_flag("--json", tools_json, "print the tools/list descriptors with scopes");
    tools_cmd->add_option("--modules", modules, "only these modules, comma-separated");

    std::string openapi_base_url = "http://127.0.0.1:8080/api";
    auto* openapi_cmd = app.add_subcommand("openapi", "Print the OpenAPI 3.1 document of the HTTP bridge's REST routes (no database needed)");
    openapi_cmd->add_option("--base-url", openapi_base_url, "the URL the bridge is served at")->capture_default_str();
    openapi_cmd->add_option("--modules", modules, "only these modules, comma-separated");

    std::string quorum_syndicate;
    std::optional<double> quorum_percent;
    auto* quorum_cmd = app.add_subcommand(
        "quorum", "Show the syndicate's required quorum, or set it (51 unless its declaration of co-ownership says otherwise)");
    quorum_cmd->add_option("--syndicate", quorum_syndicate, "syndicate id (default: the only one)");
    quorum_cmd->add_option("percent", quorum_percent, "the new quorum, in percent of the fractions (more than 0, at most 100)")
        ->check(CLI::Range(0.000001, 100.0));

    std::string heater_syndicate;
    std::optional<int> heater_years;
    auto* heater_cmd = app.add_subcommand(
        "water-heater-age",
        "Show the age in years at which the syndicate's water heaters are to be replaced, or set it (10 unless its insurer allows more)");
    heater_cmd->add_option("--syndicate", heater_syndicate, "syndicate id (default: the only one)");
    heater_cmd->add_option("years", heater_years, "the new replacement age, counted from the manufacture date (1 to 30)")
        ->check(CLI::Range(1, 30));

    std::string backup_to, restore_from;
    bool backup_replace = false, restore_replace = false, copy_json = false;
    auto* backup_cmd = app.add_subcommand(
        "backup", "Copy the whole database to a file, safely while servers run (SQLite's online backup)");
    backup_cmd->add_option("--to", backup_to, "the file to write")->required();
    backup_cmd->add_flag("--replace", backup_replace, "overwrite the file if it exists");
    backup_cmd->add_flag("--json", copy_json, "print what the copy holds as JSON");
    auto* restore_cmd = app.add_subcommand(
        "restore", "Put a backup in place of the database (the database it replaces is saved beside it first)");
    restore_cmd->add_option("--from", restore_from, "the backup file")->required()->check(CLI::ExistingFile);
    restore_cmd->add_flag("--replace", restore_replace, "replace a database that holds syndicates");
    restore_cmd->add_flag("--json", copy_json, "print what the restored database holds as JSON");

    app.footer(
        "Environment: SYNDIC_DB (database file), SYNDIC_API_KEY (credential for serve: the way to give it, unseen by\n"
        "other local users, unlike --api-key), SYNDIC_MODULES (tool subset).\n"
        "Default database: $XDG_DATA_HOME/syndic-mcp/syndic.db, else ~/.local/share/syndic-mcp/syndic.db.\n"
        "Logs go to stderr (or --log-file), never to stdout.");

    CLI11_PARSE(app, argc, argv);

    try {
        setup_logging(common.log_level, common.log_file);
        SystemClock clock;

        if (init_cmd->parsed()) {
            auto db = Database::open(common.db_path);
            WriteTransaction tx(*db);
            // Running init again must not add a second syndicate (and admin key) by the same name.
            for (const auto& existing : list_syndicates(*db))
                if (!init_force && fold_for_search(trim(existing.name)) == fold_for_search(trim(init_name))) {
                    std::cerr << "syndic-mcp: a syndicate named \"" << existing.name << "\" exists already ("
                              << existing.id << "); nothing was created. Its admin key was printed when it was "
                              << "created; for a new one: syndic-mcp keys create --syndicate " << existing.id
                              << " --role admin. Give --force to create another syndicate of that name.\n";
                    return 1;
                }
            const auto id = create_syndicate(*db, clock, init_name, false);
            const auto key = issue_api_key(*db, clock, id, Role::admin, {all_scopes}, "admin (init)");
            tx.commit();
            std::cerr << "Created syndicate \"" << init_name << "\" (" << id << ") in " << common.db_path
                      << ".\nIts admin API key follows; it is shown only this once:\n";
            print_key(key, id, init_json, "syndicateId");
            return 0;
        }
        if (keys_create->parsed()) {
            ToolRegistry registry(all_tool_handlers());
            auto db = open_existing(common.db_path);
            const auto syndicate = pick_syndicate(*db, key_syndicate);
            CommandAudit audit(*db, "keys create");
            const auto key = issue_api_key(*db, clock, syndicate, *parse_role(key_role),
                                           checked_scopes(registry, key_scopes), key_name);
            audit.commit(clock);
            std::cerr << "Created " << key_role << " key " << key.id << " for syndicate " << syndicate
                      << "; the secret is shown only this once:\n";
            print_key(key, syndicate, key_json, "apiKeyId");
            return 0;
        }
        if (keys_list->parsed()) {
            auto db = open_existing(common.db_path);
            const auto keys = list_api_keys(*db, key_syndicate.empty() ? std::nullopt : std::optional(key_syndicate));
            std::map<std::string, std::string> syndicate_names;
            for (const auto& syndicate : list_syndicates(*db)) syndicate_names[syndicate.id] = syndicate.name;
            json out = json::array();
            for (const auto& k : keys) {
                std::string scopes;
                for (const auto& s : k.scopes) scopes += (scopes.empty() ? "" : ",") + s;
                if (key_json)
                    out.push_back({{"apiKeyId", k.id}, {"syndicateId", k.syndicate_id}, {"name", k.name},
                                   {"prefix", k.prefix}, {"role", role_name(k.role)}, {"scopes", k.scopes},
                                   {"createdAt", k.created_at}, {"revokedAt", k.revoked_at ? json(*k.revoked_at) : json(nullptr)}});
                else
                    std::cout << k.id << "  " << k.prefix << "…  " << role_name(k.role) << "  "
                              << (scopes == "*" ? "all scopes" : scopes) << "  " << k.name << "  ("
                              << syndicate_names[k.syndicate_id] << ")  created "
                              << k.created_at << (k.revoked_at ? "  REVOKED " + *k.revoked_at : "") << "\n";
            }
            if (key_json) std::cout << out.dump(2) << "\n";
            else if (keys.empty()) std::cerr << "No API keys.\n";
            return 0;
        }
        if (keys_revoke->parsed()) {
            auto db = open_existing(common.db_path);
            CommandAudit audit(*db, "keys revoke");
            if (!revoke_api_key(*db, clock, revoke_id)) {
                const auto n = active_keys_matching(*db, revoke_id).size();
                std::cerr << "syndic-mcp: " << (n > 1 ? std::to_string(n) + " active keys match '" + revoke_id +
                                                            "'; give more of the id or prefix"
                                                      : "no active key matches '" + revoke_id + "'")
                          << " (see `syndic-mcp keys list`); nothing was revoked\n";
                return 1;
            }
            audit.commit(clock);
            std::cerr << "Revoked key " << revoke_id << ".\n";
            return 0;
        }
        if (users_cmd.parsed()) return users_cmd.run(common, clock);
        if (clients_cmd.parsed()) return clients_cmd.run(common, clock);
        if (signing_key_cmd.parsed()) return signing_key_cmd.run(common.db_path);
        if (demo_cmd->parsed()) {
            ToolRegistry registry(all_tool_handlers());
            auto db = Database::open(common.db_path);
            // The demo's admin key is kept beside the database unless told otherwise, so running
            // demo again prints the same key instead of adding one.
            if (demo_key_file.empty())
                demo_key_file = (std::filesystem::path(common.db_path).parent_path() / "demo-admin.key").string();
            const bool existed = find_demo_syndicate(*db).has_value();
            const auto syndicate = ensure_demo_syndicate(*db, clock, registry);
            if (!demo_key_file.empty()) {
                std::ifstream in(demo_key_file);
                std::string kept;
                if (in >> kept) {
                    if (auto caller = authenticate(*db, kept); caller && caller->syndicate_id == syndicate) {
                        std::cerr << "Demo syndicate " << syndicate << ": using the admin key kept in " << demo_key_file << "\n";
                        print_key({caller->api_key_id, kept}, syndicate, demo_json, "syndicateId");
                        return 0;
                    }
                }
            }
            const auto key = issue_api_key(*db, clock, syndicate, Role::admin, {all_scopes}, "demo admin");
            if (!demo_key_file.empty()) {
                const auto folder = std::filesystem::path(demo_key_file).parent_path();
                if (!folder.empty()) std::filesystem::create_directories(folder);
                // Readable by its owner only from the moment it exists.
                const int fd = ::open(demo_key_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
                if (fd < 0 || ::fchmod(fd, 0600) != 0) throw std::runtime_error("cannot write " + demo_key_file);
                const std::string line = key.secret + "\n";
                const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
                ::close(fd);
                if (!written) throw std::runtime_error("cannot write " + demo_key_file);
            }
            std::cerr << (existed ? "Reusing" : "Created") << " the demo syndicate \"" << demo_syndicate_name << "\" ("
                      << syndicate << ") in " << common.db_path << "; a new admin key for it follows:\n";
            print_key(key, syndicate, demo_json, "syndicateId");
            return 0;
        }
        if (backup_cmd->parsed() || restore_cmd->parsed()) {
            warn_if_readable_by_others(common.db_path);
            if (restore_cmd->parsed()) warn_file_readable_by_others(restore_from, "the backup");
            std::string saved_as;
            const auto summary = backup_cmd->parsed()
                                     ? backup_database(common.db_path, backup_to, backup_replace)
                                     : restore_database(restore_from, common.db_path, restore_replace, saved_as);
            json rows = json::object();
            for (const auto& [table, n] : summary.rows) rows[table] = n;
            if (copy_json) {
                json out = {{"schemaVersion", summary.schema_version}, {"bytes", summary.bytes}, {"rows", rows}};
                if (!saved_as.empty()) out["savedAs"] = saved_as;
                std::cout << out.dump() << "\n";
            }
            auto count = [&](const char* table) { return rows.value(table, std::int64_t{0}); };
            std::cerr << (backup_cmd->parsed() ? "Backed up " + common.db_path + " to " + backup_to
                                               : "Restored " + restore_from + " into " + common.db_path)
                      << ": " << count("syndicates") << " syndicate(s), " << count("units") << " units, "
                      << count("co_owners") << " co-owners, " << count("meetings") << " meetings, schema "
                      << summary.schema_version << ", " << summary.bytes << " bytes; integrity checked.\n";
            if (restore_cmd->parsed()) audit_restore(common.db_path, restore_from, saved_as, clock);
            if (!saved_as.empty()) std::cerr << "The database it replaced is saved as " << saved_as << ".\n";
            return 0;
        }
        if (quorum_cmd->parsed()) {
            auto db = open_existing(common.db_path);
            const auto syndicate = pick_syndicate(*db, quorum_syndicate);
            if (quorum_percent) {
                CommandAudit audit(*db, "quorum");
                set_required_quorum(*db, syndicate, Fraction::from_percent(*quorum_percent));
                audit.commit(clock);
            }
            std::cout << required_quorum(*db, syndicate).to_string() << "\n";
            if (quorum_percent) std::cerr << "Set the required quorum of syndicate " << syndicate << ".\n";
            return 0;
        }
        if (heater_cmd->parsed()) {
            auto db = open_existing(common.db_path);
            const auto syndicate = pick_syndicate(*db, heater_syndicate);
            if (heater_years) {
                CommandAudit audit(*db, "water-heater-age");
                set_water_heater_replacement_years(*db, syndicate, *heater_years);
                audit.commit(clock);
            }
            std::cout << water_heater_replacement_years(*db, syndicate) << "\n";
            if (heater_years) std::cerr << "Set the water heater replacement age of syndicate " << syndicate << ".\n";
            return 0;
        }
        if (http_cmd->parsed()) return serve_http(common, http_options, http_listen, modules, http_rate);
        if (tools_cmd->parsed()) {
            ToolRegistry registry(all_tool_handlers(), split_list(modules));
            if (tools_json) {
                json out = registry.descriptors();
                const auto infos = registry.tools();
                for (std::size_t i = 0; i < infos.size(); ++i) {
                    out[i]["requiredScope"] = infos[i].required_scope;
                    out[i]["adminOnly"] = infos[i].admin_only;
                    out[i]["module"] = infos[i].module;
                    out[i]["http"] = {{"method", infos[i].http.method}, {"path", infos[i].http.path},
                                      {"status", infos[i].http.success_status}};
                }
                std::cout << out.dump(2) << "\n";
            } else {
                std::string module;
                for (const auto& t : registry.tools()) {
                    if (t.module != module) std::cout << (module.empty() ? "" : "\n") << (module = t.module) << "\n";
                    const auto pad = [](const std::string& text, std::size_t width) {
                        return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
                    };
                    std::cout << "  " << pad(t.name, 24) << pad(t.required_scope + (t.admin_only ? " (admin)" : ""), 26)
                              << pad(t.http.method + " " + t.http.path, 36) << t.title << "\n";
                }
            }
            return 0;
        }
        if (openapi_cmd->parsed()) {
            ToolRegistry registry(all_tool_handlers(), split_list(modules));
            std::cout << openapi_document(registry, openapi_base_url).dump(2) << "\n";
            return 0;
        }
        return serve(common, api_key_options.resolve(), modules, page_size);
    } catch (const std::exception& e) {
        std::cerr << "syndic-mcp: " << e.what() << "\n";
        return 1;
    }
}
