#include "modules/documents/file_types.hpp"

#include <cstdint>
#include <vector>

#include "core/base64url.hpp"

namespace syndic::documents {

namespace {

const std::string_view docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const std::string_view xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

std::uint32_t le16(std::string_view b, std::size_t at) {
    return static_cast<unsigned char>(b[at]) | static_cast<unsigned char>(b[at + 1]) << 8;
}
std::uint32_t le32(std::string_view b, std::size_t at) { return le16(b, at) | le16(b, at + 2) << 16; }

// Strict UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF) without NUL.
bool plain_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0) return false;
        if (c < 0x80) {
            ++i;
            continue;
        }
        int more = 0;
        std::uint32_t cp = 0;
        if (c >= 0xC2 && c <= 0xDF) more = 1, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF) more = 2, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4) more = 3, cp = c & 0x07;
        else return false;
        if (i + more >= s.size()) return false;
        for (int k = 1; k <= more; ++k) {
            const auto n = static_cast<unsigned char>(s[i + k]);
            if ((n & 0xC0) != 0x80) return false;
            cp = cp << 6 | (n & 0x3F);
        }
        if ((more == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (more == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        i += more + 1;
    }
    return true;
}

// The names of a ZIP's entries, read from its central directory (found through the end record in
// the last 65,557 bytes); nullopt when the archive is not whole.
std::optional<std::vector<std::string>> zip_entries(std::string_view b) {
    if (b.size() < 22 || !b.starts_with(std::string_view("PK\x03\x04", 4))) return std::nullopt;
    std::size_t end = std::string_view::npos;
    const std::size_t lowest = b.size() > 65557 ? b.size() - 65557 : 0;
    for (std::size_t at = b.size() - 22 + 1; at-- > lowest;)
        if (b.substr(at, 4) == std::string_view("PK\x05\x06", 4)) {
            end = at;
            break;
        }
    if (end == std::string_view::npos) return std::nullopt;
    const std::size_t count = le16(b, end + 10), size = le32(b, end + 12), offset = le32(b, end + 16);
    if (offset > end || size > end - offset) return std::nullopt;
    std::vector<std::string> names;
    std::size_t at = offset;
    for (std::size_t n = 0; n < count; ++n) {
        if (at + 46 > end || b.substr(at, 4) != std::string_view("PK\x01\x02", 4)) return std::nullopt;
        const std::size_t name = le16(b, at + 28), extra = le16(b, at + 30), comment = le16(b, at + 32);
        if (at + 46 + name > end) return std::nullopt;
        names.emplace_back(b.substr(at + 46, name));
        at += 46 + name + extra + comment;
    }
    return names;
}

std::string office_mismatch(std::string_view b, std::string_view part, const char* what) {
    const auto names = zip_entries(b);
    if (!names) return std::string("The bytes are not a whole ZIP archive, as a ") + what + " file is.";
    bool types = false, parts = false;
    for (const auto& n : *names) {
        types = types || n == "[Content_Types].xml";
        parts = parts || n.starts_with(part);
    }
    if (!types || !parts)
        return std::string("The ZIP archive is not a ") + what + " file: it lacks [Content_Types].xml or the " +
               std::string(part) + " parts.";
    return "";
}

}  // namespace

std::optional<std::string> decode_base64(std::string_view text) {
    if (text.size() % 4 != 0) return std::nullopt;
    std::size_t padding = 0;
    while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
    std::string url(text.substr(0, text.size() - padding));
    for (auto& c : url) {
        if (c == '+') c = '-';
        else if (c == '/') c = '_';
        else if (c == '-' || c == '_' || c == '=') return std::nullopt;
    }
    return base64url_decode(url);
}

std::string extension_for(std::string_view m) {
    if (m == "application/pdf") return "pdf";
    if (m == "image/jpeg") return "jpg";
    if (m == "image/png") return "png";
    if (m == "image/webp") return "webp";
    if (m == "text/plain") return "txt";
    if (m == "text/csv") return "csv";
    if (m == docx) return "docx";
    if (m == xlsx) return "xlsx";
    return "bin";
}

std::string type_mismatch(std::string_view m, std::string_view b) {
    if (m == "application/pdf")
        return b.starts_with("%PDF-") ? "" : "The bytes are not a PDF file: it begins with %PDF-.";
    if (m == "image/jpeg")
        return b.starts_with(std::string_view("\xFF\xD8\xFF", 3)) ? "" : "The bytes are not a JPEG image: it begins with FF D8 FF.";
    if (m == "image/png")
        return b.starts_with(std::string_view("\x89PNG\r\n\x1A\n", 8)) ? "" : "The bytes are not a PNG image: it begins with 89 50 4E 47 0D 0A 1A 0A.";
    if (m == "image/webp")
        return b.size() >= 12 && b.starts_with("RIFF") && b.substr(8, 4) == "WEBP"
                   ? ""
                   : "The bytes are not a WebP image: it begins with RIFF, a size, then WEBP.";
    if (m == "text/plain" || m == "text/csv")
        return plain_utf8(b) ? "" : "The bytes are not text: a text or CSV file is valid UTF-8 without NUL characters.";
    if (m == docx) return office_mismatch(b, "word/", "DOCX (Word)");
    if (m == xlsx) return office_mismatch(b, "xl/", "XLSX (Excel)");
    return "The type " + std::string(m) + " is not one the syndicate keeps.";
}

}  // namespace syndic::documents
