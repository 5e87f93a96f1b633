// The tool surface a server offers: which modules, and which single tools of other modules, from a
// `--modules` list of module ids, role presets (schemas/presets.json), `default` and `all`; and the
// catalogue's planned tool counts that the budget checks use. Knows module ids, tool names and
// preset names only; the registry applies the choice.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace syndic {

// A single tool of a module a set does not serve whole: its module and its name.
struct SingleTool {
    std::string module;
    std::string name;
    bool operator==(const SingleTool&) const = default;
};

struct Preset {
    std::string name;
    std::string description;
    std::vector<std::string> modules;  // served whole
    std::vector<SingleTool> tools;     // "tools": {"documents": ["attach_document"]}, the most used of others
};

// The catalogue's modules with the number of tools each will have once built, and the presets.
class SurfaceCatalogue {
public:
    // schemas/presets.json as embedded; std::logic_error when malformed.
    static const SurfaceCatalogue& embedded();
    // Throws std::logic_error when `doc` lacks its "modules" counts or "presets", or a preset
    // names a module the catalogue does not have or is named like a module.
    static SurfaceCatalogue parse(const nlohmann::json& doc);

    const std::vector<std::pair<std::string, int>>& modules() const { return modules_; }
    const std::vector<Preset>& presets() const { return presets_; }
    bool has_module(const std::string& id) const;
    const Preset* preset(const std::string& name) const;
    // The tools `modules` will offer once the catalogue is built (its planned counts), and a set
    // of whole modules and single tools.
    int planned_tools(const std::vector<std::string>& modules) const;
    int planned_tools(const std::vector<std::string>& modules, const std::vector<SingleTool>& tools) const;

private:
    std::vector<std::pair<std::string, int>> modules_;
    std::vector<Preset> presets_;
};

// The modules served whole when none is named: those whose manifest says "default": true; and the
// single tools of others in it, those a manifest's "default" lists.
std::vector<std::string> default_modules();
std::vector<SingleTool> default_tools();

// What a `--modules` list selects, as the registry takes it: module ids (in the order of `built`),
// then the names of single tools of modules not selected whole. Each item is a module id, a preset
// name (its modules and its tools), `default` (`defaults` and `default_tools`) or `all` (every
// built module); an empty list is `default`. Modules of the catalogue not built yet, and their
// tools, are skipped; an item that is neither a module (built or planned) nor a preset, or a list
// that selects no built module, throws std::invalid_argument naming the choices.
std::vector<std::string> select_surface(const std::vector<std::string>& items, const SurfaceCatalogue& catalogue,
                                        const std::vector<std::string>& built, const std::vector<std::string>& defaults,
                                        const std::vector<SingleTool>& default_tools = {});

}  // namespace syndic
