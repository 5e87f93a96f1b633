// How tools/call answers a tool's refusal (docs/decisions.md, "One error path, errors a model can
// read"): the choice only, shared by the servers and the command line. Knows nothing else.
#pragma once

namespace syndic {

// jsonrpc: a JSON-RPC error whose message is the machine code (the interface's contract, the
// default). result: an MCP result with isError: true whose text carries the code and the
// explanation, for hosts that show a model only an error's message.
enum class ToolErrors { jsonrpc, result };

}  // namespace syndic
