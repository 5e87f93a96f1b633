#include "delivery/mail_compose.hpp"

#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "core/ids.hpp"

namespace syndic {
namespace {

bool plain_ascii(const std::string& text) {
    for (unsigned char c : text)
        if (c >= 0x80 || c < 0x20) return false;
    return true;
}

// A header value in RFC 2047 encoded words when it is not plain ASCII, each word whole characters
// and under the 75-character limit. Plain ASCII holding "=?" is encoded too: left raw, a reader
// would decode a title that only looks like an encoded word into another text (issue 28, point 8).
std::string header_text(const std::string& text) {
    if (plain_ascii(text) && text.find("=?") == std::string::npos) return text;
    std::string out, chunk;
    auto flush = [&] {
        if (chunk.empty()) return;
        out += (out.empty() ? "" : "\r\n ") + std::string("=?UTF-8?B?") + base64_encode(chunk) + "?=";
        chunk.clear();
    };
    for (std::size_t i = 0; i < text.size();) {
        std::size_t len = 1;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0xF0) len = 4;
        else if (c >= 0xE0) len = 3;
        else if (c >= 0xC0) len = 2;
        if (chunk.size() + len > 45) flush();  // 45 bytes: 60 base64 characters
        chunk += text.substr(i, len);
        i += len;
    }
    flush();
    return out;
}

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// A display name as an RFC 5322 phrase: atoms as they are, a quoted string when it holds specials,
// encoded words when it is not plain ASCII.
std::string display_name(std::string name) {
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {  // a quoted string: its text
        std::string text;
        for (std::size_t i = 1; i + 1 < name.size(); ++i) {
            if (name[i] == '\\' && i + 2 < name.size()) ++i;
            text += name[i];
        }
        name = text;
    }
    if (!plain_ascii(name)) return header_text(name);
    if (name.find_first_of("()<>[]:;@\\,.\"") == std::string::npos) return name;
    std::string quoted = "\"";
    for (const char c : name) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
    }
    return quoted + "\"";
}

std::string rfc5322_date(Instant at) {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::time_point_cast<std::chrono::seconds>(at));
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::array<char, 64> buffer{};
    std::strftime(buffer.data(), buffer.size(), "%a, %d %b %Y %H:%M:%S +0000", &tm);
    return buffer.data();
}

std::string base64_lines(const std::string& bytes) {
    std::string out;
    const auto encoded = base64_encode(bytes);
    for (std::size_t i = 0; i < encoded.size(); i += 76) out += encoded.substr(i, 76) + "\r\n";
    return out;
}

// A file name for Content-Disposition: quoted when plain ASCII, else an ASCII fallback and the
// UTF-8 name percent-encoded (RFC 2231).
std::string disposition_file_name(const std::string& name) {
    std::string fallback, encoded;
    for (const unsigned char c : name) {
        const bool plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '%';
        fallback += plain ? static_cast<char>(c) : '_';
        if (std::isalnum(c) || c == '.' || c == '-' || c == '_') {
            encoded += static_cast<char>(c);
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            encoded += hex;
        }
    }
    if (fallback == name) return "filename=\"" + name + "\"";
    return "filename=\"" + fallback + "\"; filename*=UTF-8''" + encoded;
}

}  // namespace

std::string mailbox_header(const std::string& mailbox) {
    std::string address = mailbox, name;
    const auto open = mailbox.rfind('<');
    const auto close = mailbox.rfind('>');
    if (open != std::string::npos && close != std::string::npos && close > open) {
        address = mailbox.substr(open + 1, close - open - 1);
        name = trimmed(mailbox.substr(0, open));
    }
    std::string clean;  // no line break or control character reaches the header from an address
    for (const unsigned char c : trimmed(address))
        if (c >= 0x20 && c != 0x7f) clean += static_cast<char>(c);
    if (name.empty()) return clean;
    return display_name(name) + " <" + clean + ">";
}

std::string compose_mail(const std::string& from, const std::string& to, const std::string& subject,
                         const std::string& body, const std::string& message_id, Instant date,
                         const std::vector<MailAttachment>& attachments) {
    std::string normalized;  // CRLF line ends, whatever the body was written with
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] == '\n' && (i == 0 || body[i - 1] != '\r')) normalized += '\r';
        normalized += body[i];
    }
    std::string mail = "From: " + mailbox_header(from) + "\r\nTo: " + mailbox_header(to) + "\r\nSubject: " +
                       header_text(subject) + "\r\nDate: " + rfc5322_date(date) + "\r\nMessage-ID: <" + message_id +
                       "@syndic-mcp>\r\nMIME-Version: 1.0\r\n";
    const std::string text_part = "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
    if (attachments.empty()) return mail + text_part + base64_lines(normalized);
    const std::string boundary = "syndic-mcp-" + message_id;  // a message id never appears in base64 lines
    mail += "Content-Type: multipart/mixed; boundary=\"" + boundary + "\"\r\n\r\n";
    mail += "--" + boundary + "\r\n" + text_part + base64_lines(normalized);
    for (const auto& a : attachments)
        mail += "--" + boundary + "\r\nContent-Type: " + a.media_type + "\r\nContent-Disposition: attachment; " +
                disposition_file_name(a.file_name) + "\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
                base64_lines(a.bytes);
    return mail + "--" + boundary + "--\r\n";
}

}  // namespace syndic
