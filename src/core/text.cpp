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

}  // namespace syndic
