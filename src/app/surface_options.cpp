#include "app/surface_options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "tools/registry.hpp"
#include "tools/surface.hpp"

namespace syndic {

namespace {

std::string from_environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::vector<std::string> items(const std::string& list) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        auto end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        auto item = list.substr(start, end - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) out.push_back(item);
        start = end + 1;
    }
    return out;
}

}  // namespace

SurfaceOptions::SurfaceOptions()
    : modules_(from_environment("SYNDIC_MODULES")), read_only_env_(from_environment("SYNDIC_READ_ONLY")) {}

void SurfaceOptions::add_to(CLI::App& command) {
    command.add_option("--modules", modules_,
                       "offer these modules' tools, comma-separated: module ids, presets (treasurer, secretary, building, works, "
                       "governance), default, all (default: the default set; env SYNDIC_MODULES)");
    command.add_flag("--read-only", read_only_flag_, "offer only the tools that change nothing (env SYNDIC_READ_ONLY=1)");
}

std::vector<std::string> SurfaceOptions::modules() const {
    return select_surface(items(modules_), SurfaceCatalogue::embedded(), ToolRegistry::built_modules(), default_modules(),
                          default_tools());
}

bool SurfaceOptions::read_only() const {
    if (read_only_flag_) return true;
    std::string value = read_only_env_;
    std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::tolower(c); });
    if (value.empty() || value == "0" || value == "false" || value == "no" || value == "off") return false;
    if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
    throw std::runtime_error("SYNDIC_READ_ONLY=" + read_only_env_ + ": give 1 (or true, yes) or 0 (or false, no)");
}

std::string describe_surface(const ToolRegistry& registry) {
    const auto tools = registry.tools();
    std::vector<std::string> modules;
    bool writes = false;
    for (const auto& t : tools) {
        if (std::find(modules.begin(), modules.end(), t.module) == modules.end()) modules.push_back(t.module);
        writes = writes || !t.read_only;
    }
    std::string out = std::to_string(tools.size()) + " tools of ";
    for (std::size_t i = 0; i < modules.size(); ++i) out += (i ? ", " : "") + modules[i];
    if (!writes) out += " (read-only)";
    if (tools.size() > 128) out += "; more than 128 tools, which some hosts refuse: name fewer modules with --modules";
    return out;
}

}  // namespace syndic
