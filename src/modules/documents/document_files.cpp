#include "modules/documents/document_files.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>

#include "core/error.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

DocumentFile document_file(Database& db, const CallerContext& caller, const std::string& document_id) {
    const bool any = caller.has_scope("read:documents"), minutes = caller.has_scope("read:meetings");
    if (!any && !minutes)
        throw DomainError(codes::insufficient_scope, "Downloading a document needs the scope read:documents.")
            .with("requiredScope", std::string("read:documents"));
    auto q = db.prepare(
        "SELECT id, coalesce(meeting_id, ''), path, size_bytes, kind, mime_type, file_name FROM documents "
        "WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, document_id, caller.syndicate_id);
    if (!q->executeStep()) throw record_not_found("documents", document_id, "/id");
    // read:meetings reads the minutes, as before documents were a module; read:documents any file.
    if (!any && q->getColumn(4).getString() != "minutes")
        throw DomainError(codes::insufficient_scope, "Downloading a document other than minutes needs the scope read:documents.")
            .with("requiredScope", std::string("read:documents"));
    DocumentFile file{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                      q->getColumn(6).getString(), q->getColumn(5).getString(), q->getColumn(3).getInt64()};
    if (file.file_name.empty()) file.file_name = std::filesystem::path(file.path).filename().string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file.path, ec))
        throw DomainError(codes::document_not_found, "The file of document " + document_id + " is no longer on the server.")
            .at("/id");
    return file;
}

std::string document_download_url(const CallerContext& caller, const std::string& document_id) {
    return caller.remote_base + "/documents/" + document_id + "/content";
}

void add_document_location(nlohmann::json& record, const CallerContext& caller, const std::string& document_id,
                           const std::string& path) {
    if (caller.remote_base.empty()) record["path"] = path;
    else record["downloadUrl"] = document_download_url(caller, document_id);
}

bool file_is_recorded(Database& db, const std::string& folder_name, const std::string& final_name) {
    const auto full = (std::filesystem::path(db.data_dir()) / folder_name / final_name).string();
    const auto tail = "/" + folder_name + "/" + final_name;
    auto q = db.prepare("SELECT 1 FROM documents WHERE path = ? OR substr(path, -length(?2)) = ?2 LIMIT 1");
    bind_parameters(*q, full, tail);
    return q->executeStep();
}

}  // namespace syndic
