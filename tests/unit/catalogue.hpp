// The tools the tests expect, written by hand in tests/catalogue.json (the path is compiled in):
// tests that count, name or route tools read it, so a new module changes one file, not each test.
#pragma once
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace syndic::test {

struct CatalogueTool {
    std::string name, module, scope, method, path;
    bool created = false;  // its route answers 201
};

inline const std::vector<CatalogueTool>& catalogue() {
    static const std::vector<CatalogueTool> tools = [] {
        std::ifstream in(SYNDIC_TEST_CATALOGUE);
        if (!in) throw std::runtime_error("cannot read " SYNDIC_TEST_CATALOGUE);
        const auto document = nlohmann::json::parse(in);
        std::vector<CatalogueTool> out;
        for (const auto& t : document.at("tools")) {
            const std::string route = t["route"];
            out.push_back({t["name"], t["module"], t["scope"], route.substr(0, route.find(' ')),
                           route.substr(route.find(' ') + 1), t.value("created", false)});
        }
        return out;
    }();
    return tools;
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
