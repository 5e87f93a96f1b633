// The tool catalogue as the tests see it, read from the registry of every module: tests that
// count, name or route tools follow a new module with no edit. pinned_catalogue() reads the pinned
// copies of the contract, one a module in its test folder (tests/unit/<module>/catalogue.json,
// written by tests/update_catalogue.py), which only registry_test.cpp compares with the registry.
#pragma once
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "modules/modules.hpp"
#include "source_paths.hpp"
#include "tools/registry.hpp"

namespace syndic::test {

struct CatalogueTool {
    std::string name, module, scope, method, path;
    bool created = false;     // its route answers 201
    bool admin_only = false;

    bool operator==(const CatalogueTool&) const = default;
};

// Every tool of every module, in catalogue order.
inline const std::vector<CatalogueTool>& catalogue() {
    static const std::vector<CatalogueTool> tools = [] {
        std::vector<CatalogueTool> out;
        for (const auto& t : ToolRegistry(all_tool_handlers()).tools())
            out.push_back({t.name, t.module, t.required_scope, t.http.method, t.http.path, t.http.success_status == 201,
                           t.admin_only});
        return out;
    }();
    return tools;
}

// Every module's tests/unit/<module>/catalogue.json, the contract pinned: each folder that has one
// (a module gone from the registry still has its pin, so its tools show as missing).
inline std::vector<CatalogueTool> pinned_catalogue() {
    std::vector<std::filesystem::path> pins;
    for (const auto& entry : std::filesystem::directory_iterator(syndic::test::unit_tests_folder()))
        if (entry.is_directory() && std::filesystem::exists(entry.path() / "catalogue.json"))
            pins.push_back(entry.path() / "catalogue.json");
    std::sort(pins.begin(), pins.end());
    std::vector<CatalogueTool> out;
    for (const auto& pin : pins) {
        std::ifstream in(pin);
        if (!in) throw std::runtime_error("cannot read " + pin.string());
        const auto document = nlohmann::json::parse(in);
        for (const auto& t : document.at("tools")) {
            const std::string route = t["route"];
            out.push_back({t["name"], document.at("module"), t["scope"], route.substr(0, route.find(' ')),
                           route.substr(route.find(' ') + 1), t.value("created", false), t.value("adminOnly", false)});
        }
    }
    return out;
}

inline std::vector<std::string> catalogue_names() {
    std::vector<std::string> names;
    for (const auto& t : catalogue()) names.push_back(t.name);
    return names;
}

inline std::vector<std::string> catalogue_modules() {  // sorted, each once
    std::set<std::string> modules;
    for (const auto& t : catalogue()) modules.insert(t.module);
    return {modules.begin(), modules.end()};
}

}  // namespace syndic::test
