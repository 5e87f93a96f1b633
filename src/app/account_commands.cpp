#include "app/account_commands.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/cli_audit.hpp"
#include "app/cli_support.hpp"
#include "app/secrets_options.hpp"
#include "auth/credentials.hpp"
#include "auth/oauth.hpp"
#include "auth/users.hpp"
#include "core/text.hpp"
#include "storage/database.hpp"

namespace syndic::cli {

using nlohmann::json;

namespace {

// users: the people who sign in to the HTTP bridge's OAuth pages (docs/oauth.md).
// The terminal's settings while a password is typed without echo, restored however the prompt ends.
termios terminal_before_prompt;

extern "C" void restore_terminal_and_stop(int signal_number) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &terminal_before_prompt);
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

class EchoOff {
public:
    EchoOff() {
        if (::tcgetattr(STDIN_FILENO, &terminal_before_prompt) != 0) throw std::runtime_error("cannot read the terminal's settings");
        for (std::size_t i = 0; i < signals_.size(); ++i) before_[i] = ::signal(signals_[i], restore_terminal_and_stop);
        termios quiet = terminal_before_prompt;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
    ~EchoOff() {
        ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &terminal_before_prompt);
        for (std::size_t i = 0; i < signals_.size(); ++i) ::signal(signals_[i], before_[i]);
    }
    EchoOff(const EchoOff&) = delete;
    EchoOff& operator=(const EchoOff&) = delete;

private:
    static constexpr std::array<int, 4> signals_{SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    std::array<sighandler_t, 4> before_{};
};

// The new user's password: typed twice without echo on a terminal, else the first line of stdin.
std::string read_new_password() {
    const auto line = [](const char* what) {
        std::string text;
        if (!std::getline(std::cin, text)) throw std::runtime_error(what);
        if (!text.empty() && text.back() == '\r') text.pop_back();
        return text;
    };
    if (!::isatty(STDIN_FILENO))
        return line("no password on standard input: give it as the first line (or run on a terminal to be asked)");
    std::string first, second;
    {
        EchoOff quiet;
        std::cerr << "Password (at least 10 characters): " << std::flush;
        first = line("no password typed");
        std::cerr << "\nThe same password again: " << std::flush;
        second = line("no password typed");
        std::cerr << "\n";
    }
    if (first != second) throw std::runtime_error("the two passwords differ; no user was created");
    return first;
}

}  // namespace


void UsersCommand::add_to(CLI::App& app) {
    auto* users = app.add_subcommand("users", "Create, list and disable the people who sign in (OAuth)");
    users->require_subcommand(1);
    create = users->add_subcommand("create", "Create a user; the password is read from stdin (asked twice on a terminal)");
    create->add_option("--email", email, "the e-mail address they sign in with (unique in the database)")->required();
    create->add_option("--name", name, "their name, as the consent page shows it")->required();
    create->add_option("--role", role, "admin or member")->capture_default_str()->check(CLI::IsMember({"admin", "member"}));
    create->add_option("--syndicate", syndicate, "syndicate id (default: the only one)");
    create->add_option("--language", language, "fr or en: the language of their pages")
        ->capture_default_str()
        ->check(CLI::IsMember({"fr", "en"}));
    create->add_flag("--json", as_json, "print {\"userId\":..}");
    list = users->add_subcommand("list", "List users (never their password hashes)");
    list->add_option("--syndicate", syndicate, "only this syndicate's users");
    list->add_flag("--json", as_json, "print a JSON array");
    disable = users->add_subcommand("disable", "Disable a user: they cannot sign in, their sessions and tokens end at once");
    disable->add_option("user", who, "the user's e-mail address or id")->required();
}

bool UsersCommand::parsed() const { return create->parsed() || list->parsed() || disable->parsed(); }

int UsersCommand::run(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    if (create->parsed()) {
        const auto chosen = pick_syndicate(*db, syndicate);
        // Refused before the password is asked for, rather than after it is typed twice.
        available_email(*db, email);
        const auto password = read_new_password();
        CommandAudit audit(*db, "users create");
        const auto user = create_user(*db, clock, chosen, email, name, *parse_role(role), language, password);
        audit.commit(clock);
        std::cerr << "Created " << role << " user " << user.email << " (" << user.id << ") for syndicate " << chosen << ".\n";
        if (as_json) std::cout << json{{"userId", user.id}}.dump() << "\n";
        else std::cout << user.id << "\n";
        return 0;
    }
    if (list->parsed()) {
        const auto users = list_users(*db, syndicate.empty() ? std::nullopt : std::optional(syndicate));
        std::map<std::string, std::string> syndicate_names;
        for (const auto& s : list_syndicates(*db)) syndicate_names[s.id] = s.name;
        json out = json::array();
        for (const auto& u : users) {
            if (as_json)
                out.push_back({{"userId", u.id}, {"syndicateId", u.syndicate_id}, {"email", u.email}, {"name", u.name},
                               {"role", role_name(u.role)}, {"language", u.language}, {"createdAt", u.created_at},
                               {"disabledAt", u.disabled_at ? json(*u.disabled_at) : json(nullptr)}});
            else
                std::cout << u.id << "  " << u.email << "  " << u.name << "  " << role_name(u.role) << "  " << u.language
                          << "  (" << syndicate_names[u.syndicate_id] << ")  created " << u.created_at
                          << (u.disabled_at ? "  DISABLED " + *u.disabled_at : "") << "\n";
        }
        if (as_json) std::cout << out.dump(2) << "\n";
        else if (users.empty()) std::cerr << "No users.\n";
        return 0;
    }
    CommandAudit audit(*db, "users disable");
    if (!disable_user(*db, clock, who)) {
        std::cerr << "syndic-mcp: no enabled user has the e-mail address or id '" << who
                  << "' (see `syndic-mcp users list`)\n";
        return 1;
    }
    audit.commit(clock);
    std::cerr << "Disabled user " << who << ": they can no longer sign in, and their sessions and tokens have ended.\n";
    return 0;
}

// `clients create|list|disable`: OAuth applications registered by an administrator (others
// register themselves through RFC 7591).

void ClientsCommand::add_to(CLI::App& app) {
    auto* clients = app.add_subcommand("clients", "Register, list and disable OAuth applications");
    clients->require_subcommand(1);
    create = clients->add_subcommand("create", "Register an application; prints its client_id (and its secret once)");
    create->add_option("--name", name, "the application's name, as the consent page shows it")->required();
    create->add_option("--redirect-uri", redirect_uris,
                       "where the answer goes (exact match; https, http on loopback, or com.example.app:/cb); repeatable")
        ->required();
    create->add_option("--client-uri", client_uri, "the application's home page");
    create->add_flag("--confidential", confidential,
                     "a server-side application with a secret (client_secret_basic); default: public, PKCE only");
    create->add_flag("--json", as_json, "print {\"clientId\":..,\"clientSecret\":..}");
    list = clients->add_subcommand("list", "List applications (never their secrets)");
    list->add_flag("--json", as_json, "print a JSON array");
    disable = clients->add_subcommand("disable", "Disable an application: its codes and refresh tokens stop working");
    disable->add_option("client_id", who, "the application's client_id")->required();
}

bool ClientsCommand::parsed() const { return create->parsed() || list->parsed() || disable->parsed(); }

int ClientsCommand::run(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    if (create->parsed()) {
        CommandAudit audit(*db, "clients create");
        const auto made = oauth::register_client(*db, clock, name, redirect_uris,
                                                 confidential ? "client_secret_basic" : "none", "admin",
                                                 client_uri.empty() ? std::nullopt : std::optional(client_uri));
        audit.commit(clock);
        std::cerr << "Registered " << (confidential ? "confidential" : "public") << " application \"" << made.client.name
                  << "\"" << (made.secret ? "; its secret is shown only this once" : "") << ":\n";
        if (as_json) {
            json out = {{"clientId", made.client.id}};
            if (made.secret) out["clientSecret"] = *made.secret;
            std::cout << out.dump() << "\n";
        } else {
            std::cout << made.client.id << (made.secret ? " " + *made.secret : "") << "\n";
        }
        return 0;
    }
    if (list->parsed()) {
        json out = json::array();
        for (const auto& c : oauth::list_clients(*db, clock.now())) {
            if (as_json)
                out.push_back({{"clientId", c.id}, {"name", c.name}, {"redirectUris", c.redirect_uris},
                               {"authMethod", c.auth_method}, {"registeredBy", c.registered_by}, {"createdAt", c.created_at},
                               {"disabledAt", c.disabled_at ? json(*c.disabled_at) : json(nullptr)}});
            else {
                std::string uris;
                for (const auto& u : c.redirect_uris) uris += (uris.empty() ? "" : " ") + u;
                std::cout << c.id << "  " << c.name << "  " << (c.is_public() ? "public" : "confidential") << "  "
                          << c.registered_by << "  " << uris << "  created " << c.created_at
                          << (c.disabled_at ? "  DISABLED " + *c.disabled_at : "") << "\n";
            }
        }
        if (as_json) std::cout << out.dump(2) << "\n";
        return 0;
    }
    CommandAudit audit(*db, "clients disable");
    if (!oauth::disable_client(*db, clock, who)) {
        std::cerr << "syndic-mcp: no enabled application has the client_id '" << who << "' (see `syndic-mcp clients list`)\n";
        return 1;
    }
    audit.commit(clock);
    std::cerr << "Disabled application " << who << ".\n";
    return 0;
}

}  // namespace syndic::cli
