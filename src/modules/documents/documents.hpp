// The documents module (catalogue 4.1): the syndicate's files, stored under <data dir>/documents/
// (generated ones under exports/), each attached to any number of records by document_links.
// Knows storage and core; not JSON-RPC.
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_documents_module(ToolTable& table);

}  // namespace syndic
