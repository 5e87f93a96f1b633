// The files behind the syndicate's documents (generated minutes, uploads): finding a document's
// file for the caller's syndicate, and how a document's location is shown to a caller (its path on this
// machine over stdio, a download address over HTTP). Knows storage and the caller; not HTTP.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

#include "core/context.hpp"

namespace syndic {

class Database;

struct DocumentFile {
    std::string id;
    std::string meeting_id;
    std::string path;        // on this machine
    std::string file_name;   // the name to save it under (the uploader's, or the generated file's)
    std::string media_type;  // application/pdf, image/png...
    std::int64_t size_bytes = 0;
};

// The file of a document of the caller's syndicate: any with read:documents, minutes with
// read:meetings too (as before the documents module), else INSUFFICIENT_SCOPE; DOCUMENT_NOT_FOUND
// for a document of another syndicate, an unknown one, or one whose file is gone.
DocumentFile document_file(Database& db, const CallerContext& caller, const std::string& document_id);

// Where a remote caller downloads a document: <base>/documents/{id}/content.
std::string document_download_url(const CallerContext& caller, const std::string& document_id);

// Puts the document's location in `record`: "path" for a local (stdio) caller, "downloadUrl"
// for a remote one.
void add_document_location(nlohmann::json& record, const CallerContext& caller, const std::string& document_id,
                           const std::string& path);

// Whether a document row (of any syndicate) names the file `final_name` in the data folder's
// `folder_name` ("exports", "documents"): by its full path under this database's data folder, or
// by its last two parts (a database moved with its folders keeps the paths it had).
bool file_is_recorded(Database& db, const std::string& folder_name, const std::string& final_name);

}  // namespace syndic
