#include "core/text.hpp"

#include <cctype>

namespace syndic {
namespace {

// Latin-1 Supplement letters U+00C0..U+00FF folded to ASCII (lower case); "" for non-letters.
constexpr const char* latin1_fold[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", "",  "o", "u", "u", "u", "u", "y", "th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", "",  "o", "u", "u", "u", "u", "y", "th", "y",
};

}  // namespace

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

std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

}  // namespace syndic
