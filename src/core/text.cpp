#include "core/text.hpp"

#include <arpa/inet.h>

#include <cctype>

namespace syndic {
namespace {

// Latin-1 Supplement letters U+00C0..U+00FF folded to ASCII (lower case); × and ÷ kept.
constexpr const char* latin1_fold[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", "\xC3\x97", "o", "u", "u", "u", "u", "y", "th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", "\xC3\xB7", "o", "u", "u", "u", "u", "y", "th", "y",
};

}  // namespace

std::size_t code_point_count(std::string_view utf8) {
    std::size_t n = 0;
    for (const char c : utf8) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

std::string fold_for_search(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            out += static_cast<char>(std::tolower(c));
            ++i;
        } else if (c == 0xC3 && i + 1 < s.size()) {  // U+00C0..U+00FF
            const auto low = static_cast<unsigned char>(s[i + 1]);
            const unsigned code = 0xC0 + (low & 0x3F);
            out += latin1_fold[code - 0xC0];
            i += 2;
        } else if (c == 0xC5 && i + 1 < s.size() &&
                   (static_cast<unsigned char>(s[i + 1]) == 0x92 ||
                    static_cast<unsigned char>(s[i + 1]) == 0x93)) {  // Œ œ
            out += "oe";
            i += 2;
        } else {
            out += static_cast<char>(c);  // other code points are kept as they are
            ++i;
        }
    }
    return out;
}

namespace {

// The length of the white space (ASCII or Unicode: no-break, en/em... spaces, ideographic)
// that starts `s`, or 0.
std::size_t leading_space(std::string_view s) {
    if (s.empty()) return 0;
    const auto b = [&](std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
    if (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n' || s[0] == '\v' || s[0] == '\f') return 1;
    if (b(0) == 0xC2 && b(1) == 0xA0) return 2;                                     // U+00A0
    if (b(0) == 0xE2 && b(1) == 0x80 && (b(2) <= 0x8B || b(2) == 0xAF)) return 3;  // U+2000..200B, U+202F
    if (b(0) == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) return 3;                     // U+205F
    if (b(0) == 0xE3 && b(1) == 0x80 && b(2) == 0x80) return 3;                     // U+3000
    return 0;
}

// The length of the white space that ends `s`, or 0.
std::size_t trailing_space(std::string_view s) {
    for (std::size_t n : {1u, 2u, 3u})
        if (s.size() >= n && leading_space(s.substr(s.size() - n)) == n) return n;
    return 0;
}

}  // namespace

std::string trim(std::string_view text) {
    while (const auto n = leading_space(text)) text.remove_prefix(n);
    while (const auto n = trailing_space(text)) text.remove_suffix(n);
    return std::string(text);
}

namespace {

// Hands `on_structure` each character of JSON text that is outside its strings, until it returns
// true. Strings are skipped with their escapes, so "[" or "," inside one counts for nothing.
template <typename OnStructure>
void scan_outside_strings(std::string_view text, OnStructure on_structure) {
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (on_structure(c)) {
            return;
        }
    }
}

}  // namespace

std::size_t json_nesting_depth(std::string_view text, std::size_t limit) {
    std::size_t depth = 0, deepest = 0;
    scan_outside_strings(text, [&](char c) {
        if (c == '[' || c == '{') return ++depth > deepest && (deepest = depth) > limit;
        if ((c == ']' || c == '}') && depth > 0) --depth;
        return false;
    });
    return deepest;
}

bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n == 0 || i + n > text.size()) return false;
        const auto second = static_cast<unsigned char>(text[i + 1]);
        // The second byte's range rules out overlong forms (E0, F0), surrogates (ED) and U+110000 on (F4).
        const unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (second < low || second > high) return false;
        for (std::size_t k = 2; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

std::size_t json_value_count(std::string_view text, std::size_t limit) {
    std::size_t count = 1;
    scan_outside_strings(text, [&](char c) { return (c == ',' || c == '[' || c == '{') && ++count > limit; });
    return count;
}

int hex_digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool is_loopback_host(std::string_view host) {
    const auto h = ascii_lower(host);
    if (h == "localhost" || h == "[::1]" || h == "::1") return true;
    in_addr address{};
    return inet_pton(AF_INET, h.c_str(), &address) == 1 && (ntohl(address.s_addr) >> 24) == 127;
}

namespace {

// Decodes the code point at `i` of valid UTF-8 and moves `i` past it.
char32_t next_code_point(std::string_view text, std::size_t& i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n && i + k < text.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += n;
    return cp;
}

}  // namespace

bool is_format_character(char32_t c) {
    static constexpr std::pair<char32_t, char32_t> ranges[] = {
        {0x00AD, 0x00AD}, {0x0600, 0x0605}, {0x061C, 0x061C}, {0x06DD, 0x06DD}, {0x070F, 0x070F},
        {0x0890, 0x0891}, {0x08E2, 0x08E2}, {0x180E, 0x180E}, {0x200B, 0x200F}, {0x202A, 0x202E},
        {0x2060, 0x2064}, {0x2066, 0x206F}, {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0x110BD, 0x110BD},
        {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
        {0xE0020, 0xE007F}};
    for (const auto& [low, high] : ranges)
        if (c >= low && c <= high) return true;
    return false;
}

bool is_invisible_character(char32_t c) {
    if (is_format_character(c)) return true;
    if (c == 0x115F || c == 0x1160 || c == 0x3164 || c == 0xFFA0 || c == 0x2800 || c == 0x034F || c == 0x17B4 ||
        c == 0x17B5 || (c >= 0x180B && c <= 0x180F) || c == 0x2028 || c == 0x2029)
        return true;
    return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
}

bool holds_control_or_invisible(std::string_view utf8) {
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = next_code_point(utf8, i);
        if (is_control_character(c) || is_invisible_character(c)) return true;
    }
    return false;
}

std::optional<char32_t> forbidden_text_character(std::string_view utf8, bool multi_line) {
    char32_t before = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = next_code_point(utf8, i);
        const bool line_break = c == '\n' || c == '\r' || c == '\t' || c == 0x2028 || c == 0x2029;
        if (line_break ? !multi_line : is_control_character(c) || is_bidi_override(c)) return c;
        if (!multi_line && is_invisible_character(c)) {
            // A joiner between two letters that are not ASCII shapes them (Persian, Indic, emoji).
            std::size_t j = i;
            const char32_t after = j < utf8.size() ? next_code_point(utf8, j) : 0;
            const bool joiner = c == 0x200C || c == 0x200D;
            if (!(joiner && before >= 0x80 && after >= 0x80 && !is_invisible_character(before) && !is_invisible_character(after)))
                return c;
        }
        before = c;
    }
    return std::nullopt;
}

}  // namespace syndic
