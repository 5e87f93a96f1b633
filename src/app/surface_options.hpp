// The command line's part in choosing the tool surface: --modules (module ids, role presets,
// `default`, `all`; env SYNDIC_MODULES) and --read-only (env SYNDIC_READ_ONLY) on serve, http,
// tools and openapi. The choice itself is tools/surface's; this part only reads options.
#pragma once
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace syndic {

class ToolRegistry;

class SurfaceOptions {
public:
    SurfaceOptions();  // starts from SYNDIC_MODULES and SYNDIC_READ_ONLY
    void add_to(CLI::App& command);

    // The modules to offer, then single tools of others (never empty; tools/surface.hpp,
    // select_surface); std::invalid_argument for an unknown module or preset, std::runtime_error
    // for a SYNDIC_READ_ONLY that is not a yes or a no.
    std::vector<std::string> modules() const;
    bool read_only() const;

private:
    std::string modules_;
    std::string read_only_env_;
    bool read_only_flag_ = false;
};

// "28 tools of co-owners, units, declaration, meetings (read-only)", for start-up logs; a warning
// of hosts' limits past 128 tools.
std::string describe_surface(const ToolRegistry& registry);

}  // namespace syndic
