#include "http/document_download.hpp"

#include <cctype>
#include <fstream>
#include <iterator>

#include "core/error.hpp"
#include "modules/documents/document_files.hpp"

namespace syndic::http {

std::optional<DownloadAnswer> document_download(const std::string& method, const std::string& path,
                                                const std::optional<CallerContext>& caller, Database& db) {
    static const std::string prefix = "/documents/", suffix = "/content";
    if (path.size() <= prefix.size() + suffix.size() || path.rfind(prefix, 0) != 0 || !path.ends_with(suffix))
        return std::nullopt;
    const std::string id = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    if (id.find('/') != std::string::npos) return std::nullopt;
    if (method != "GET") throw DomainError(codes::method_not_allowed, path + " answers GET only.");
    if (!caller) throw DomainError(codes::not_authenticated, "No credentials: send Authorization: Bearer <API key>.");

    const auto file = document_file(db, *caller, id);
    std::ifstream in(file.path, std::ios::binary);
    std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof())
        throw DomainError(codes::document_not_found, "The file of document " + id + " cannot be read on the server.");
    std::string name = file.file_name;  // letters, digits, '.', '-' and '_' only: no quoting rules apply
    for (auto& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    return DownloadAnswer{std::move(body), file.media_type, "attachment; filename=\"" + name + "\""};
}

}  // namespace syndic::http
