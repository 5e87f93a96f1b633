#include "http/oauth_forms.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "auth/oauth.hpp"
#include "core/text.hpp"
#include "http/oauth_endpoints.hpp"
#include "http/pages.hpp"

namespace syndic::http {

using nlohmann::json;

namespace {

std::string percent_encode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

}  // namespace

std::string percent_decode(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') out += ' ';
        else if (text[i] == '%' && i + 2 < text.size() && hex_digit_value(text[i + 1]) >= 0 &&
                 hex_digit_value(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit_value(text[i + 1]) * 16 + hex_digit_value(text[i + 2]));
            i += 2;
        } else out += text[i];
    }
    return out;
}

Params parse_form(std::string_view body) {
    Params out;
    std::size_t start = 0;
    while (start <= body.size()) {
        const auto end = std::min(body.find('&', start), body.size());
        const auto pair = body.substr(start, end - start);
        if (!pair.empty()) {
            const auto eq = pair.find('=');
            out.emplace(percent_decode(pair.substr(0, eq)), eq == std::string_view::npos ? "" : percent_decode(pair.substr(eq + 1)));
        }
        start = end + 1;
    }
    return out;
}

Params query_of(const Request& req) {
    Params out;
    for (const auto& [k, v] : req.params) out.emplace(k, v);
    return out;
}

std::string get(const Params& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? "" : it->second;
}

std::string cookie(const Request& req, const std::string& name) {
    const auto header = req.get_header_value("Cookie");
    std::size_t start = 0;
    while (start < header.size()) {
        const auto end = std::min(header.find(';', start), header.size());
        auto item = header.substr(start, end - start);
        item.erase(0, item.find_first_not_of(' '));
        if (item.rfind(name + "=", 0) == 0) return item.substr(name.size() + 1);
        start = end + 1;
    }
    return "";
}

std::vector<std::string> split_scopes(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string s; in >> s;)
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    return out;
}

std::string join_scopes(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
    return out;
}

std::string with_query(const std::string& uri, const Fields& fields) {
    std::string out = uri + (uri.find('?') == std::string::npos ? "?" : "&");
    bool first = true;
    for (const auto& [k, v] : fields) {
        if (!first) out += '&';
        out += percent_encode(k) + "=" + percent_encode(v);
        first = false;
    }
    return out;
}

Fields authorization_fields(const Params& p) {
    Fields out;
    for (const char* key : {"response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge",
                            "code_challenge_method", "resource", "lang"})
        if (p.count(key)) out.emplace_back(key, p.at(key));
    return out;
}

void send_json(Response& res, int status, const json& body) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("Pragma", "no-cache");
    res.set_content(body.dump(), "application/json");
}

void send_oauth_error(Response& res, const oauth::OAuthError& e) {
    send_json(res, e.status, {{"error", e.error}, {"error_description", e.description}});
}

void send_page(Response& res, int status, const std::string& html, const std::string& form_target) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Frame-Options", "DENY");  // no clickjacking of the consent buttons
    res.set_header("Referrer-Policy", "same-origin");  // so forms carry an Origin the bridge can check
    res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" +
                                                  (form_target.empty() ? std::string() : " " + form_target) +
                                                  "; frame-ancestors 'none'");
    res.set_content(html, "text/html; charset=utf-8");
}

std::string csp_source(const std::string& uri) {
    const auto sep = uri.find("://");
    if (sep == std::string::npos) return uri.substr(0, uri.find(':') + 1);
    const auto end = uri.find_first_of("/?", sep + 3);
    return uri.substr(0, end);
}

void redirect(Response& res, const std::string& location) {
    res.status = 303;
    res.set_header("Location", location);
    res.set_header("Cache-Control", "no-store");
}

std::string language_of(const Request& req, const std::optional<User>& user, const Params& form) {
    const auto asked = form.count("lang") ? form.at("lang") : req.get_param_value("lang");
    if (asked == "fr" || asked == "en") return asked;
    if (user) return user->language;
    return page_language(req.get_header_value("Accept-Language"));
}

std::string session_cookie_header(const OAuthSettings& s, const std::string& value, bool clear) {
    std::string header = std::string(session_cookie) + "=" + value + "; Path=" + (s.base.path.empty() ? "/" : s.base.path) +
                         "; HttpOnly; SameSite=Lax";
    if (s.base.scheme == "https") header += "; Secure";
    if (clear) header += "; Max-Age=0";
    return header;
}

}  // namespace syndic::http
