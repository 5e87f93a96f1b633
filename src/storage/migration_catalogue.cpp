#include "storage/migration_catalogue.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace syndic {

std::vector<Migration> order_migrations(std::span<const EmbeddedFile> files,
                                        const std::map<std::string, std::vector<std::string>>& depends_on) {
    std::vector<std::string> names;
    for (const auto& file : files) names.emplace_back(file.name);
    check_migration_names(names);
    std::map<std::string, std::size_t> rank;
    for (const auto& module : module_order(depends_on)) rank.emplace(module, rank.size());
    std::vector<Migration> plan;
    for (const auto& file : files) {
        auto key = *migration_key(file.name);
        if (!rank.count(key.module))
            throw std::logic_error("migration " + std::string(file.name) + " belongs to '" + key.module +
                                   "', which is neither the core nor a module with a manifest (schemas/<module>/module.json)");
        plan.push_back({std::move(key), file.name, file.content});
    }
    std::sort(plan.begin(), plan.end(), [&](const Migration& a, const Migration& b) {
        return std::pair(rank.at(a.key.module), a.key.number) < std::pair(rank.at(b.key.module), b.key.number);
    });
    return plan;
}

std::map<std::string, std::vector<std::string>> embedded_module_graph() {
    std::map<std::string, std::vector<std::string>> graph;
    for (const auto& file : embedded_schemas()) {
        const auto slash = file.name.find('/');
        if (slash == std::string_view::npos || file.name.substr(slash + 1) != "module.json") continue;
        // The manifests' form is checked at start-up (tools/manifests.hpp); only dependsOn is read here.
        const auto doc = nlohmann::json::parse(file.content);
        auto& deps = graph[std::string(file.name.substr(0, slash))];
        for (const auto& id : doc.value("dependsOn", nlohmann::json::array())) {
            if (!id.is_string()) throw std::logic_error("schemas/" + std::string(file.name) + ": 'dependsOn' must list module ids");
            deps.push_back(id.get<std::string>());
        }
    }
    return graph;
}

const std::vector<Migration>& embedded_migration_plan() {
    static const std::vector<Migration> plan = order_migrations(embedded_migrations(), embedded_module_graph());
    return plan;
}

}  // namespace syndic
