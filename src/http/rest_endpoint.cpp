// The REST endpoint: a tool's route (rest_routes.hpp) called with the request's arguments under
// the request's caller, answered with the tool's result and the route's status; and the download
// route of generated documents. Refusals go back to the router as values.
#include "http/bridge_impl.hpp"
#include "http/document_download.hpp"
#include "storage/database.hpp"

namespace syndic::http {

// The download route of generated documents (document_download.hpp): true when it answered.
bool HttpBridge::Impl::serve_download(const Request& req, Response& res, const std::string& path,
                                      const std::optional<CallerContext>& caller, Database& db) {
    try {
        auto answer = document_download(req.method, path, caller, db);
        if (!answer) return false;
        res.set_header("Content-Disposition", answer->content_disposition);
        res.set_content(std::move(answer->body), answer->content_type);
        return true;
    } catch (const DomainError& e) {
        throw Refusal{e};
    }
}

void HttpBridge::Impl::handle_rest(const Request& req, Response& res, const std::string& path,
                                   const std::optional<CallerContext>& caller) {
    const auto lookup = routes.find(req.method == "HEAD" ? "GET" : req.method, path);
    if (!lookup.match) {
        if (lookup.allowed.empty()) throw Refusal{DomainError(codes::route_not_found, "No route " + printable(path, 200) + ".")};
        auto allowed = lookup.allowed;
        allowed.push_back("OPTIONS");
        throw Refusal{DomainError(codes::method_not_allowed, printable(path, 200) + " answers " + joined(lookup.allowed) + " only."),
                      {{"Allow", joined(allowed)}}};
    }
    const auto& tool = *lookup.match->tool;
    if (!caller) throw Refusal{DomainError(codes::not_authenticated, "No credentials: send Authorization: Bearer <API key>.")};
    auto& w = worker();

    const bool takes_body = tool.http.method != "GET" && tool.http.method != "DELETE";
    const bool has_body = req.body.find_first_not_of(" \t\r\n") != std::string::npos;
    if (takes_body && (has_body || req.has_header("Content-Type")) && media_type(req.get_header_value("Content-Type")) != "application/json")
        throw Refusal{DomainError(codes::unsupported_media_type, "Send the body as JSON with Content-Type: application/json.")};
    Pairs query(req.params.begin(), req.params.end());
    try {
        const nlohmann::json args = routes.arguments(*lookup.match, query, req.body);
        std::string result = registry.call_text(tool.name, args, *caller, *w.db, clock);
        res.status = tool.http.success_status;
        res.set_content(std::move(result), "application/json");
    } catch (const DomainError& e) {
        throw Refusal{e};
    }
}

}  // namespace syndic::http
