#include "tools/surface.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

#include "core/embedded.hpp"
#include "tools/manifests.hpp"

namespace syndic {

using nlohmann::json;

namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

}  // namespace

namespace {

// A preset's "tools": {"<module>": ["<tool>", ...]}, single tools of modules it does not serve whole.
std::vector<SingleTool> preset_tools(const SurfaceCatalogue& catalogue, const Preset& p, const json& given,
                                     const std::function<void(const std::string&)>& fail) {
    std::vector<SingleTool> out;
    if (!given.is_object()) fail("preset " + p.name + ": 'tools' maps a module to some of its tools");
    for (const auto& [module, names] : given.items()) {
        if (!catalogue.has_module(module)) fail("preset " + p.name + " names tools of " + module + ", not a module of the catalogue");
        if (contains(p.modules, module)) fail("preset " + p.name + " serves " + module + " whole and names some of its tools");
        if (!names.is_array() || names.empty()) fail("preset " + p.name + ": the tools of " + module + " are a non-empty list");
        for (const auto& name : names) {
            if (!name.is_string()) fail("preset " + p.name + ": a tool of " + module + " is not a name");
            const SingleTool tool{module, name.get<std::string>()};
            if (std::find(out.begin(), out.end(), tool) != out.end()) fail("preset " + p.name + " names " + tool.name + " twice");
            out.push_back(tool);
        }
    }
    return out;
}

}  // namespace

SurfaceCatalogue SurfaceCatalogue::parse(const json& doc) {
    const std::function<void(const std::string&)> fail = [](const std::string& why) {
        throw std::logic_error("schemas/presets.json: " + why);
    };
    if (!doc.is_object() || !doc.contains("modules") || !doc["modules"].is_object() || !doc.contains("presets") ||
        !doc["presets"].is_object())
        fail("needs objects 'modules' (module id: planned tool count) and 'presets'");
    SurfaceCatalogue out;
    for (const auto& [id, count] : doc["modules"].items()) {
        if (!count.is_number_integer() || count.get<int>() < 1) fail("module " + id + " needs a tool count of at least 1");
        out.modules_.emplace_back(id, count.get<int>());
    }
    for (const auto& [name, preset] : doc["presets"].items()) {
        if (out.has_module(name) || name == "all" || name == "default") fail("preset " + name + " is named like a module");
        if (!preset.is_object() || !preset.contains("modules") || !preset["modules"].is_array() || preset["modules"].empty())
            fail("preset " + name + " needs a non-empty list 'modules'");
        Preset p{name, preset.value("description", ""), {}, {}};
        for (const auto& m : preset["modules"]) {
            if (!m.is_string() || !out.has_module(m.get<std::string>()))
                fail("preset " + name + " names " + m.dump() + ", which is not a module of the catalogue");
            if (contains(p.modules, m.get<std::string>())) fail("preset " + name + " names " + m.dump() + " twice");
            p.modules.push_back(m.get<std::string>());
        }
        if (preset.contains("tools")) p.tools = preset_tools(out, p, preset["tools"], fail);
        out.presets_.push_back(std::move(p));
    }
    return out;
}

const SurfaceCatalogue& SurfaceCatalogue::embedded() {
    static const SurfaceCatalogue catalogue = [] {
        for (const auto& file : embedded_schemas())
            if (file.name == "presets.json") return parse(json::parse(file.content));
        throw std::logic_error("schemas/presets.json is not embedded");
    }();
    return catalogue;
}

bool SurfaceCatalogue::has_module(const std::string& id) const {
    return std::any_of(modules_.begin(), modules_.end(), [&](const auto& m) { return m.first == id; });
}

const Preset* SurfaceCatalogue::preset(const std::string& name) const {
    for (const auto& p : presets_)
        if (p.name == name) return &p;
    return nullptr;
}

int SurfaceCatalogue::planned_tools(const std::vector<std::string>& modules) const {
    int total = 0;
    for (const auto& [id, count] : modules_)
        if (contains(modules, id)) total += count;
    return total;
}

int SurfaceCatalogue::planned_tools(const std::vector<std::string>& modules, const std::vector<SingleTool>& tools) const {
    int total = planned_tools(modules);
    for (const auto& t : tools)
        if (!contains(modules, t.module)) ++total;
    return total;
}

std::vector<std::string> default_modules() {
    std::vector<std::string> out;
    for (const auto& m : module_manifests())
        if (m.is_default) out.push_back(m.id);
    return out;
}

std::vector<SingleTool> default_tools() {
    std::vector<SingleTool> out;
    for (const auto& m : module_manifests())
        for (const auto& name : m.default_tools) out.push_back({m.id, name});
    return out;
}

std::vector<std::string> select_surface(const std::vector<std::string>& items, const SurfaceCatalogue& catalogue,
                                        const std::vector<std::string>& built, const std::vector<std::string>& defaults,
                                        const std::vector<SingleTool>& default_tools) {
    std::set<std::string> wanted;
    std::vector<SingleTool> singles;
    const auto add = [&](const std::vector<std::string>& modules) { wanted.insert(modules.begin(), modules.end()); };
    const auto add_tools = [&](const std::vector<SingleTool>& tools) { singles.insert(singles.end(), tools.begin(), tools.end()); };
    if (items.empty()) add(defaults), add_tools(default_tools);
    for (const auto& item : items) {
        if (item == "all") add(built);
        else if (item == "default") add(defaults), add_tools(default_tools);
        else if (const auto* p = catalogue.preset(item)) add(p->modules), add_tools(p->tools);
        else if (catalogue.has_module(item) || contains(built, item)) wanted.insert(item);
        else {
            std::vector<std::string> presets;
            for (const auto& p : catalogue.presets()) presets.push_back(p.name);
            throw std::invalid_argument("unknown module or preset '" + item + "' (presets: " + joined(presets) +
                                        ", default, all; modules: " + joined(built) + ")");
        }
    }
    std::vector<std::string> out;
    for (const auto& m : built)
        if (wanted.count(m)) out.push_back(m);
    // Nothing offered is never what was meant (a registry given no module would offer them all).
    if (out.empty())
        throw std::invalid_argument("'" + joined(items) + "' selects no module built yet (built: " + joined(built) + ")");
    // Then the single tools of built modules not served whole, each once.
    for (const auto& t : singles)
        if (contains(built, t.module) && !wanted.count(t.module) && !contains(out, t.name)) out.push_back(t.name);
    return out;
}

}  // namespace syndic
