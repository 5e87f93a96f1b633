// `tools` (the tool catalogue with each tool's scope and REST route) and `openapi` (the HTTP
// bridge's OpenAPI document): what the server offers, printed without a database.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

#include "app/cli_support.hpp"
#include "app/surface_options.hpp"

namespace syndic::cli {

struct ToolsCommand {
    CLI::App* command = nullptr;
    SurfaceOptions surface;
    bool as_json = false;

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run() const;
};

struct OpenapiCommand {
    CLI::App* command = nullptr;
    SurfaceOptions surface;
    std::string base_url = "http://127.0.0.1:8080/api";

    void add_to(CLI::App& app);
    bool parsed() const { return command->parsed(); }
    int run() const;
};

}  // namespace syndic::cli
