// One HTTP request as the bridge's handlers see it, and the answer they fill in: plain values,
// read whole before a handler runs. Member names follow the subset of cpp-httplib the handlers
// were written against. Knows nothing of sockets, parsing or the server library (http/server.*).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace syndic::http {

// Header names compare without regard to case (RFC 9110, 5.1).
struct CaseInsensitiveLess {
    bool operator()(const std::string& a, const std::string& b) const;
};
using HeaderMap = std::multimap<std::string, std::string, CaseInsensitiveLess>;

struct Request {
    std::string method;       // as sent: "GET", "POST"...
    std::string target;       // as sent, e.g. "/api/units?type=parking"
    std::string path;         // the target's path, percent-decoded ('+' kept)
    std::multimap<std::string, std::string> params;  // the query string, decoded ('+' is a space)
    HeaderMap headers;
    std::string body;         // decoded (chunked, gzip) and within the body limit
    std::string remote_addr;  // the peer's address, numeric
    std::string client;       // who the request is counted for: the peer's share key, or the client a
                              // trusted proxy names (address_share.hpp, request_client)
    int version = 11;         // 10 for HTTP/1.0, 11 for HTTP/1.1

    bool has_header(const std::string& name) const { return headers.find(name) != headers.end(); }
    // The first value of the header, or "" when it is absent.
    std::string get_header_value(const std::string& name) const;
    bool has_param(const std::string& name) const { return params.find(name) != params.end(); }
    std::string get_param_value(const std::string& name) const;
};

struct Response {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;  // in the order set; repeats allowed (Set-Cookie)
    std::string body;
    std::string key_id;  // the API key that made the request, for the access log only (never sent)

    // Adds a header; a name or value holding CR or LF is dropped, so no answer can be split.
    void set_header(const std::string& name, const std::string& value);
    bool has_header(const std::string& name) const;
    std::string get_header_value(const std::string& name) const;
    // The body and its Content-Type (replacing any Content-Type set before).
    void set_content(std::string content, const std::string& content_type);
    void set_redirect(const std::string& url, int status = 302);
};

// "%41+b" -> "A+b" (a path) or "A b" (a query, plus_is_space); invalid escapes are kept as sent.
std::string url_decode(std::string_view text, bool plus_is_space);
// Splits a request target into its decoded path and query parameters.
void split_target(std::string_view target, std::string& path, std::multimap<std::string, std::string>& params);

}  // namespace syndic::http
