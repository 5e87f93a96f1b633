// The list of modules: every tool handler the server has, for the registry to pair with schemas.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

ToolTable all_tool_handlers();

}  // namespace syndic
