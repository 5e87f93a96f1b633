// What other modules do with the documents module: check that a document a call names exists,
// file a new document (the meetings' minutes) and attach one to a record. The documents module
// owns the answers (documents/store.cpp); its store and its JSON stay its own. Knows storage;
// not JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace syndic {
class Database;
}

namespace syndic::documents {

struct StoredDocument {
    std::string id, path, kind;
    std::int64_t size_bytes = 0;
    bool is_protected = false, archived = false;
    std::string protected_because;  // the register's reason to keep it (documents/protection.hpp), when protected
};

// The document of the caller's syndicate (archived too when `archived_too`), or DOCUMENT_NOT_FOUND
// at `field`.
StoredDocument require_document(Database& db, const std::string& syndicate_id, const std::string& id,
                                const std::string& field, bool archived_too);

struct NewDocument {
    std::string id, kind, title, file_name, mime_type, path, sha256, visibility, uploaded_by, created_at;
    std::optional<std::string> language, register_item, meeting_id;
    std::optional<std::int64_t> pages;
    std::int64_t size_bytes = 0;
    bool draft = false;
    // Certified as the register's record (its protected kind then protects it): by whom, "" for
    // not yet (a member's upload); "syndic-mcp" for what the server writes.
    std::string certified_by;
};
void insert_document(Database& db, const std::string& syndicate_id, const NewDocument& d);

// A PDF the server wrote (a notice, the statements): staged under the data folder's exports/ as
// `<file_stem>-<8 characters of its id>.pdf`, published when the transaction commits, and recorded
// as a document the server certifies (protected when its kind is). Returns its id.
struct GeneratedPdf {
    std::string kind, title, file_stem, visibility, language, uploaded_by, created_at;
    std::optional<std::string> register_item;
};
std::string file_generated_pdf(Database& db, const std::string& syndicate_id, const GeneratedPdf& meta, const std::string& bytes, int pages);

// Attaches the document to the record (brings an archived link back); false when it already was.
bool attach(Database& db, const std::string& syndicate_id, const std::string& document_id, const std::string& record_type,
            const std::string& record_id, const std::string& now);

}  // namespace syndic::documents
