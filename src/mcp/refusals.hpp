// The one place a refused call (a DomainError) is written for a client, from tools/wire_error's
// data: as a JSON-RPC error (stdio and /mcp), as an MCP tool result with isError (the
// --tool-errors result mode), and as a REST error body. Knows no transport and no HTTP status.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "jsonrpc/dispatcher.hpp"
#include "mcp/tool_errors.hpp"

namespace syndic {

class DomainError;

// The JSON-RPC error for a refusal: code -32000 (or `code`, for a parse error: "Parse error";
// an internal error: -32603), message the machine code, data {detail, field, figures, errors};
// the refusal itself rides along as the error's cause.
jsonrpc::Error jsonrpc_error(const DomainError& error, int code = -32000);

// The tools/call result for a refusal, as compact JSON text: {"content":[{"text":"CODE: detail
// (field /x)","type":"text"},{"text":<the JSON of {code, detail, field, figures..., errors}>,
// "type":"text"}],"isError":true}.
std::string tool_error_result(const DomainError& error);

// The REST body: {"error": {"code", "message": the detail, field, figures, errors}}.
nlohmann::json rest_error_body(const DomainError& error);

// Whether a refusal is about the credentials themselves (none, unknown, or lacking the scope), the
// ones HTTP answers with 401 or 403 and WWW-Authenticate, for the client to sign in or step up.
bool credential_refusal(const DomainError& error);

}  // namespace syndic
