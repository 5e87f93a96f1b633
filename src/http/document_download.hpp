// The download route of documents: GET <base>/documents/{id}/content answers the file of a
// document of the caller's syndicate (read:documents: any; read:meetings: minutes), with its own
// type and name, so remote callers never see server paths.
// Knows the route's path and the answer's headers; not sockets nor the HTTP library.
#pragma once
#include <optional>
#include <string>

#include "core/context.hpp"

namespace syndic {
class Database;
}

namespace syndic::http {

struct DownloadAnswer {
    std::string body;
    std::string content_type;         // the document's MIME type
    std::string content_disposition;  // attachment; filename="minutes-....pdf"
};

// The answer to `method` `path` (relative to the base path) when it is the download route;
// nullopt for any other path. Throws DomainError: NOT_AUTHENTICATED without a caller,
// METHOD_NOT_ALLOWED for a method other than GET, INSUFFICIENT_SCOPE or DOCUMENT_NOT_FOUND.
std::optional<DownloadAnswer> document_download(const std::string& method, const std::string& path,
                                                const std::optional<CallerContext>& caller, Database& db);

}  // namespace syndic::http
