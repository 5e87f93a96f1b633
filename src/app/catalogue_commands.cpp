#include "app/catalogue_commands.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

#include "http/openapi.hpp"
#include "modules/modules.hpp"

namespace syndic::cli {

using nlohmann::json;

void ToolsCommand::add_to(CLI::App& app) {
    command = app.add_subcommand("tools", "Print the tool catalogue with each tool's scope");
    command->add_flag("--json", as_json, "print the tools/list descriptors with scopes");
    surface.add_to(*command);
}

int ToolsCommand::run() const {
    ToolRegistry registry(all_tool_handlers(), surface.modules(), surface.read_only());
    if (as_json) {
        json out = registry.descriptors();
        const auto infos = registry.tools();
        for (std::size_t i = 0; i < infos.size(); ++i) {
            out[i]["requiredScope"] = infos[i].required_scope;
            out[i]["adminOnly"] = infos[i].admin_only;
            out[i]["module"] = infos[i].module;
            out[i]["http"] = {{"method", infos[i].http.method}, {"path", infos[i].http.path},
                              {"status", infos[i].http.success_status}};
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    const auto pad = [](const std::string& text, std::size_t width) {
        return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
    };
    std::string module;
    for (const auto& t : registry.tools()) {
        if (t.module != module) std::cout << (module.empty() ? "" : "\n") << (module = t.module) << "\n";
        std::cout << "  " << pad(t.name, 24) << pad(t.required_scope + (t.admin_only ? " (admin)" : ""), 26)
                  << pad(t.http.method + " " + t.http.path, 36) << t.title << "\n";
    }
    return 0;
}

void OpenapiCommand::add_to(CLI::App& app) {
    command = app.add_subcommand("openapi", "Print the OpenAPI 3.1 document of the HTTP bridge's REST routes (no database needed)");
    command->add_option("--base-url", base_url, "the URL the bridge is served at")->capture_default_str();
    surface.add_to(*command);
}

int OpenapiCommand::run() const {
    ToolRegistry registry(all_tool_handlers(), surface.modules(), surface.read_only());
    std::cout << openapi_document(registry, base_url).dump(2) << "\n";
    return 0;
}

}  // namespace syndic::cli
