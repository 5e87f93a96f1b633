#include "http/message.hpp"

#include <algorithm>
#include <cctype>

#include "core/text.hpp"

namespace syndic::http {

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool has_line_break(const std::string& text) { return text.find_first_of("\r\n") != std::string::npos; }

}  // namespace

bool CaseInsensitiveLess::operator()(const std::string& a, const std::string& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [](char x, char y) { return lower(x) < lower(y); });
}

std::string Request::get_header_value(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
}

std::string Request::get_param_value(const std::string& name) const {
    const auto it = params.find(name);
    return it == params.end() ? "" : it->second;
}

void Response::set_header(const std::string& name, const std::string& value) {
    if (has_line_break(name) || has_line_break(value)) return;
    headers.emplace_back(name, value);
}

bool Response::has_header(const std::string& name) const {
    const CaseInsensitiveLess less;
    return std::any_of(headers.begin(), headers.end(),
                       [&](const auto& h) { return !less(h.first, name) && !less(name, h.first); });
}

std::string Response::get_header_value(const std::string& name) const {
    const CaseInsensitiveLess less;
    for (const auto& [n, v] : headers)
        if (!less(n, name) && !less(name, n)) return v;
    return "";
}

void Response::set_content(std::string content, const std::string& content_type) {
    body = std::move(content);
    const CaseInsensitiveLess less;
    std::erase_if(headers, [&](const auto& h) { return !less(h.first, "Content-Type") && !less("Content-Type", h.first); });
    set_header("Content-Type", content_type);
}

void Response::set_redirect(const std::string& url, int redirect_status) {
    if (has_line_break(url)) return;
    set_header("Location", url);
    status = redirect_status >= 300 && redirect_status < 400 ? redirect_status : 302;
}

std::string url_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size() && hex_digit_value(text[i + 1]) >= 0 && hex_digit_value(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit_value(text[i + 1]) * 16 + hex_digit_value(text[i + 2]));
            i += 2;
        } else {
            out += plus_is_space && c == '+' ? ' ' : c;
        }
    }
    return out;
}

void split_target(std::string_view target, std::string& path, std::multimap<std::string, std::string>& params) {
    const auto question = target.find('?');
    path = url_decode(target.substr(0, question), false);
    params.clear();
    if (question == std::string_view::npos) return;
    const auto query = target.substr(question + 1);
    std::size_t start = 0;
    while (start <= query.size()) {
        const auto end = std::min(query.find('&', start), query.size());
        const auto pair = query.substr(start, end - start);
        if (!pair.empty()) {
            const auto eq = pair.find('=');
            params.emplace(url_decode(pair.substr(0, eq), true),
                           eq == std::string_view::npos ? "" : url_decode(pair.substr(eq + 1), true));
        }
        start = end + 1;
    }
}

}  // namespace syndic::http
