// The command line's part in keeping secrets: where serve's API key comes from (--api-key-file,
// SYNDIC_API_KEY, or --api-key with a warning), the checks of a database's files at start
// (modes, schema version), and the `signing-key rotate` command. Holds no rule of the domain.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace syndic {

// --api-key and --api-key-file on a command; resolve() gives the key to use: the first line of
// the file (trimmed), else --api-key (with a warning on stderr: other local users see it in the
// process list), else SYNDIC_API_KEY. Throws std::runtime_error for both options at once, or a
// file that cannot be read or holds no key.
class ApiKeyOptions {
public:
    void add_to(CLI::App& command);
    std::string resolve() const;

private:
    std::string on_command_line_;
    std::string file_;
};

// Before a server or command uses the database at `db_path` (when it exists): a warning on stderr
// for each of its files other users can read, and a refusal (std::runtime_error) of a schema
// newer than this program's, naming both versions.
void check_database_at_start(const std::string& db_path);

// Overwrites the value of --api-key (and --api-key=...) in the process's arguments once they are
// parsed, so /proc/PID/cmdline no longer shows the key (it did for as long as the server ran).
void scrub_api_key_arguments(int argc, char** argv);

// `signing-key rotate`: replaces the key that signs OAuth access tokens; every token signed
// before is refused from then on.
struct SigningKeyCommand {
    CLI::App* rotate = nullptr;
    bool as_json = false;
    void add_to(CLI::App& app);
    bool parsed() const;
    int run(const std::string& db_path) const;
};

}  // namespace syndic
