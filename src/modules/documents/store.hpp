// The documents module's rows: a document as the tools show it (with its links, `protected`
// computed, and where its file is), the pages of list_documents, new documents, links and archives.
// Knows storage and the caller; not JSON-RPC. Other modules include documents/filing.hpp only.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "core/context.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"

namespace syndic {
class Database;
}

namespace syndic::documents {

// The document as the tools show it, with its location for this caller.
nlohmann::json document_json(Database& db, const CallerContext& caller, const std::string& id);

struct DocumentFilter {
    std::optional<std::string> record_type, record_id, kind, register_item, search;
    bool include_archived = false;
};
nlohmann::json document_page(Database& db, const CallerContext& caller, const DocumentFilter& filter,
                             const PageRequest& page);

// An active document of the syndicate with these bytes' digest, if any; and the path of any
// document (archived too) that holds them, to reuse the file.
std::optional<std::string> active_document_with(Database& db, const std::string& syndicate_id, const std::string& sha256);
std::optional<std::string> file_with(Database& db, const std::string& syndicate_id, const std::string& sha256);

// Archives the active link to `record_id` (of `record_type` when given); false when there is none.
bool detach(Database& db, const std::string& document_id, const std::optional<std::string>& record_type,
            const std::string& record_id, const std::string& reason, const std::string& now);
void archive(Database& db, const std::string& document_id, const std::string& reason, const std::string& now);

}  // namespace syndic::documents
