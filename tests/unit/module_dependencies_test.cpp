// What the modules use and what the layers include (docs/architecture.md), read from the source
// tree: each module of src/modules/ declares the modules it uses ("dependsOn" of its manifest,
// schemas/<module>/module.json, or src/modules/<module>/module.json for an internal module without
// tools); its sources include no header of a module it does not declare, nor another module's
// store; every declared module exists; the declared graph has no cycle. Each folder of src/
// includes only its own headers and those of the layers below it.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "source_paths.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace module_dependencies_test {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The source tree.
fs::path source_root() { return fs::path(syndic::test::source_root()); }

// The layers of src/, the top first: a folder's sources include headers of their own folder and
// of the folders of lower layers, never of its own layer's other folders or of a higher one.
// docs/architecture.md says the same list in words.
const std::vector<std::vector<std::string>> src_layers = {
    {"app"},      // the command line
    {"http"},     // the HTTP bridge
    {"mcp"},      // the MCP methods
    {"modules"},  // the domain
    {"tools"},    // the registry
    {"delivery"}, // sending the outbox and webhooks
    {"events"},   // the event log, its types and the daily tick
    {"auth"},     // credentials and OAuth
    {"storage"},  // the database, migrations, settings, the audit trail
    {"jsonrpc", "transport"},
    {"core"},
};

struct Include {
    std::string file;  // relative to the source root
    int line = 0;
    std::string target;  // the quoted path: "modules/units/units.hpp"
    std::string where() const { return file + ":" + std::to_string(line); }
};

// Every `#include "..."` of the C++ sources under `folder`, by file and line.
std::vector<Include> includes_under(const fs::path& folder) {
    static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
    std::vector<Include> out;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const auto ext = entry.path().extension();
        if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
        std::ifstream in(entry.path());
        std::string text;
        for (int line = 1; std::getline(in, text); ++line) {
            std::smatch m;
            if (std::regex_search(text, m, include))
                out.push_back({fs::relative(entry.path(), source_root()).generic_string(), line, m[1].str()});
        }
    }
    std::sort(out.begin(), out.end(), [](const Include& a, const Include& b) {
        return std::tie(a.file, a.line) < std::tie(b.file, b.line);
    });
    return out;
}

// The module folder an include names ("modules/co_owners/active.hpp" -> "co_owners"); "" for a
// header of src/modules/ itself (modules/common.hpp) or of another layer.
std::string module_folder_of(const std::string& target) {
    static const std::regex in_module(R"re(^modules/([A-Za-z0-9_]+)/)re");
    std::smatch m;
    return std::regex_search(target, m, in_module) ? m[1].str() : "";
}

struct Module {
    std::string id;           // "co-owners"
    std::string folder;       // "co_owners": src/modules/co_owners
    std::string declared_in;  // the manifest whose dependsOn this is
    std::vector<std::string> depends_on;
    std::vector<Include> includes;  // of other modules' headers
};

// A cycle of the declared graph, as "a -> b -> a"; "" when there is none.
std::string find_cycle(const std::vector<Module>& modules) {
    std::map<std::string, const Module*> by_id;
    for (const auto& m : modules) by_id[m.id] = &m;
    std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
    std::vector<std::string> path;
    std::string cycle;
    std::function<bool(const Module&)> visit = [&](const Module& m) {
        state[m.id] = 1;
        path.push_back(m.id);
        for (const auto& next : m.depends_on) {
            const auto it = by_id.find(next);
            if (it == by_id.end()) continue;  // reported as a module that does not exist
            if (state[next] == 1) {
                for (auto at = std::find(path.begin(), path.end(), next); at != path.end(); ++at) cycle += *at + " -> ";
                cycle += next;
                return true;
            }
            if (state[next] == 0 && visit(*it->second)) return true;
        }
        path.pop_back();
        state[m.id] = 2;
        return false;
    };
    for (const auto& m : modules)
        if (state[m.id] == 0 && visit(m)) return cycle;
    return "";
}

// What is wrong with the modules' declarations and includes, one line each.
std::vector<std::string> dependency_faults(const std::vector<Module>& modules) {
    std::vector<std::string> faults;
    std::map<std::string, const Module*> by_folder;
    std::set<std::string> ids;
    for (const auto& m : modules) {
        by_folder[m.folder] = &m;
        ids.insert(m.id);
    }
    for (const auto& m : modules) {
        for (const auto& other : m.depends_on)
            if (!ids.count(other))
                faults.push_back(m.declared_in + ": dependsOn names " + other + ", which is no module of src/modules/");
        for (const auto& inc : m.includes) {
            const auto it = by_folder.find(module_folder_of(inc.target));
            if (it == by_folder.end()) {
                faults.push_back(inc.where() + " includes \"" + inc.target + "\", in no module of src/modules/");
                continue;
            }
            const auto& other = it->second->id;
            if (std::find(m.depends_on.begin(), m.depends_on.end(), other) == m.depends_on.end())
                faults.push_back(inc.where() + " includes \"" + inc.target + "\" but " + m.id + " does not declare " +
                                 other + " (dependsOn of " + m.declared_in + ")");
            if (fs::path(inc.target).filename() == "store.hpp")
                faults.push_back(inc.where() + " includes another module's store, \"" + inc.target +
                                 "\": ask " + other + " through a narrow header");
        }
    }
    if (const auto cycle = find_cycle(modules); !cycle.empty())
        faults.push_back("the declared module graph has a cycle: " + cycle);
    return faults;
}

// A module's declaration: its tools' manifest, else its internal manifest; dependsOn required.
void read_declaration(Module& m, std::vector<std::string>& faults) {
    const auto tool_manifest = fs::path("schemas") / m.id / "module.json";
    const auto internal = fs::path("src/modules") / m.folder / "module.json";
    const bool has_tools = fs::exists(source_root() / tool_manifest), is_internal = fs::exists(source_root() / internal);
    if (has_tools == is_internal) {
        faults.push_back("src/modules/" + m.folder + "/ needs one manifest, " + tool_manifest.string() + " or " +
                         internal.string() + (has_tools ? ", not both" : ""));
        return;
    }
    m.declared_in = (has_tools ? tool_manifest : internal).generic_string();
    std::ifstream in(source_root() / m.declared_in);
    const auto doc = json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        faults.push_back(m.declared_in + " is not a JSON object");
        return;
    }
    if (doc.value("module", std::string()) != m.id)
        faults.push_back(m.declared_in + ": \"module\" is not " + m.id);
    if (!doc.contains("dependsOn") || !doc["dependsOn"].is_array()) {
        faults.push_back(m.declared_in + " declares no \"dependsOn\" (the modules " + m.id + " uses; [] for none)");
        return;
    }
    for (const auto& other : doc["dependsOn"])
        if (other.is_string()) m.depends_on.push_back(other.get<std::string>());
        else faults.push_back(m.declared_in + ": dependsOn holds a non-string " + other.dump());
}

// Every folder of src/modules/ as a module, with its declaration and its includes of other modules.
std::vector<Module> read_modules(std::vector<std::string>& faults) {
    std::vector<Module> modules;
    for (const auto& entry : fs::directory_iterator(source_root() / "src/modules")) {
        if (!entry.is_directory()) continue;
        Module m;
        m.folder = entry.path().filename().string();
        m.id = m.folder;
        std::replace(m.id.begin(), m.id.end(), '_', '-');
        read_declaration(m, faults);
        for (auto& inc : includes_under(entry.path())) {
            const auto folder = module_folder_of(inc.target);
            if (!folder.empty() && folder != m.folder) m.includes.push_back(std::move(inc));
        }
        modules.push_back(std::move(m));
    }
    std::sort(modules.begin(), modules.end(), [](const Module& a, const Module& b) { return a.id < b.id; });
    return modules;
}

// What breaks the layer rule, given each folder's includes; and any folder in no layer.
std::vector<std::string> layer_faults(const std::map<std::string, std::vector<Include>>& includes_by_folder,
                                      const std::vector<std::vector<std::string>>& layers) {
    std::map<std::string, std::size_t> rank;  // 0 for the top layer
    for (std::size_t i = 0; i < layers.size(); ++i)
        for (const auto& folder : layers[i]) rank[folder] = i;
    std::vector<std::string> faults;
    for (const auto& [folder, includes] : includes_by_folder) {
        const auto own = rank.find(folder);
        if (own == rank.end()) {
            faults.push_back("src/" + folder + "/ is in no layer (tests/unit/module_dependencies_test.cpp, "
                             "docs/architecture.md)");
            continue;
        }
        for (const auto& inc : includes) {
            const auto slash = inc.target.find('/');
            if (slash == std::string::npos) continue;  // a generated header of the build folder
            const auto target = rank.find(inc.target.substr(0, slash));
            if (target == rank.end() || target->first == folder || target->second > own->second) continue;
            faults.push_back(inc.where() + " includes \"" + inc.target + "\": " + folder +
                             "/ may include only the layers below it, not " + target->first + "/");
        }
    }
    return faults;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) text += "\n  " + line;
    return text;
}

bool mentions(const std::vector<std::string>& faults, const std::string& part) {
    return std::any_of(faults.begin(), faults.end(), [&](const std::string& f) { return f.find(part) != std::string::npos; });
}

}  // namespace

TEST_SUITE("module dependencies") {

TEST_CASE("every module declares what it includes of other modules, and the declared graph has no cycle") {
    std::vector<std::string> faults;
    const auto modules = read_modules(faults);
    REQUIRE(modules.size() > 10);
    const auto more = dependency_faults(modules);
    faults.insert(faults.end(), more.begin(), more.end());
    CHECK_MESSAGE(faults.empty(), std::string("module dependencies:" + joined(faults)));

    // The governance the declaration, the board and the meetings decide with is below all three.
    for (const auto* id : {"board", "declaration", "meetings"}) {
        const auto m = std::find_if(modules.begin(), modules.end(), [&](const Module& x) { return x.id == id; });
        REQUIRE(m != modules.end());
        CHECK(std::count(m->depends_on.begin(), m->depends_on.end(), "governance") == 1);
    }
}

TEST_CASE("each folder of src/ includes only its own layer's headers and those below") {
    std::map<std::string, std::vector<Include>> includes_by_folder;
    for (const auto& entry : fs::directory_iterator(source_root() / "src"))
        if (entry.is_directory()) includes_by_folder[entry.path().filename().string()] = includes_under(entry.path());
    REQUIRE(includes_by_folder.count("modules") == 1);
    const auto faults = layer_faults(includes_by_folder, src_layers);
    CHECK_MESSAGE(faults.empty(), std::string("layers:" + joined(faults)));
}

TEST_CASE("the checks catch each broken rule") {
    // Three modules whose declarations and includes break every rule once.
    std::vector<Module> modules(3);
    modules[0] = {"meetings", "meetings", "schemas/meetings/module.json", {"board", "ledger"},
                  {{"src/modules/meetings/notices.cpp", 3, "modules/units/units.hpp"}}};
    modules[1] = {"board", "board", "schemas/board/module.json", {"meetings"},
                  {{"src/modules/board/directors.cpp", 9, "modules/meetings/store.hpp"}}};
    modules[2] = {"units", "units", "schemas/units/module.json", {}, {}};
    const auto faults = dependency_faults(modules);
    CHECK(mentions(faults, "src/modules/meetings/notices.cpp:3 includes \"modules/units/units.hpp\" but meetings "
                           "does not declare units"));
    CHECK(mentions(faults, "schemas/meetings/module.json: dependsOn names ledger, which is no module"));
    CHECK(mentions(faults, "src/modules/board/directors.cpp:9 includes another module's store"));
    CHECK(mentions(faults, "the declared module graph has a cycle: meetings -> board -> meetings"));
    CHECK(faults.size() == 4);

    std::map<std::string, std::vector<Include>> includes_by_folder;
    includes_by_folder["storage"] = {{"src/storage/settings.cpp", 13, "tools/manifests.hpp"},
                                     {"src/storage/settings.cpp", 12, "storage/database.hpp"},
                                     {"src/storage/settings.cpp", 11, "core/error.hpp"}};
    includes_by_folder["jsonrpc"] = {{"src/jsonrpc/dispatcher.cpp", 2, "transport/stdio_transport.hpp"}};
    includes_by_folder["plugins"] = {};
    const auto layers = layer_faults(includes_by_folder, src_layers);
    CHECK(mentions(layers, "src/storage/settings.cpp:13 includes \"tools/manifests.hpp\": storage/ may include only "
                           "the layers below it, not tools/"));
    CHECK(mentions(layers, "src/jsonrpc/dispatcher.cpp:2 includes \"transport/stdio_transport.hpp\""));
    CHECK(mentions(layers, "src/plugins/ is in no layer"));
    CHECK(layers.size() == 3);
}

}

}  // namespace module_dependencies_test
