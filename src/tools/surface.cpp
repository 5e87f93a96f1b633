#include "tools/surface.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
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

SurfaceCatalogue SurfaceCatalogue::parse(const json& doc) {
    const auto fail = [](const std::string& why) { throw std::logic_error("schemas/presets.json: " + why); };
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
        Preset p{name, preset.value("description", ""), {}};
        for (const auto& m : preset["modules"]) {
            if (!m.is_string() || !out.has_module(m.get<std::string>()))
                fail("preset " + name + " names " + m.dump() + ", which is not a module of the catalogue");
            if (contains(p.modules, m.get<std::string>())) fail("preset " + name + " names " + m.dump() + " twice");
            p.modules.push_back(m.get<std::string>());
        }
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

std::vector<std::string> default_modules() {
    std::vector<std::string> out;
    for (const auto& m : module_manifests())
        if (m.is_default) out.push_back(m.id);
    return out;
}

std::vector<std::string> select_modules(const std::vector<std::string>& items, const SurfaceCatalogue& catalogue,
                                        const std::vector<std::string>& built, const std::vector<std::string>& defaults) {
    std::set<std::string> wanted;
    const auto add = [&](const std::vector<std::string>& modules) { wanted.insert(modules.begin(), modules.end()); };
    if (items.empty()) add(defaults);
    for (const auto& item : items) {
        if (item == "all") add(built);
        else if (item == "default") add(defaults);
        else if (const auto* p = catalogue.preset(item)) add(p->modules);
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
    return out;
}

}  // namespace syndic
