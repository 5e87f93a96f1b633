#include "app/tool_errors_option.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace syndic {

void add_tool_errors_option(CLI::App& command, ToolErrors& target) {
    command
        .add_option_function<std::string>(
            "--tool-errors", [&target](const std::string& value) { target = value == "result" ? ToolErrors::result : ToolErrors::jsonrpc; },
            "how a tool's refusal is answered: jsonrpc (a JSON-RPC error whose message is the code; the default) or "
            "result (an isError result whose text gives the code and the explanation, for hosts that show a model "
            "only an error's message)")
        ->envname("SYNDIC_TOOL_ERRORS")
        ->check(CLI::IsMember({"jsonrpc", "result"}));
}

}  // namespace syndic
