// The command line's --tool-errors option (and SYNDIC_TOOL_ERRORS) of `serve` and `http`: how a
// tool's refusal is answered (mcp/tool_errors.hpp). Holds the choice only, no rule of its own.
#pragma once
#include "mcp/tool_errors.hpp"

namespace CLI {
class App;
}

namespace syndic {

// Adds --tool-errors jsonrpc|result to `command`, writing into `target`; SYNDIC_TOOL_ERRORS gives
// it when the option is not on the command line. Any other value is a usage error.
void add_tool_errors_option(CLI::App& command, ToolErrors& target);

}  // namespace syndic
