// The command line: parses the arguments and runs the sub-command they name (serving MCP on stdio
// when none is named). Returns the process's exit status.
#pragma once

namespace syndic::cli {

int run_command_line(int argc, char** argv);

}  // namespace syndic::cli
