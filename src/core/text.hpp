// Text rules shared by modules: the folded form used for searching names (lower case, French
// accents removed, so "belanger" finds "Bélanger") and trimming of user input (ASCII and Unicode
// spaces), and how deeply a JSON text nests (checked before parsing, so no parser recursion can
// exhaust the stack).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace syndic {

std::string fold_for_search(std::string_view utf8);
std::string trim(std::string_view text);
std::string ascii_lower(std::string_view text);  // A-Z only: header values, schemes, host names
int hex_digit_value(char c);  // 0..15 for 0-9, a-f, A-F; -1 for any other character
std::size_t code_point_count(std::string_view utf8);  // UTF-8 lead bytes: characters, not bytes

// A host of this machine's loopback interface: "localhost", an IPv4 literal in 127.0.0.0/8, or
// [::1] / ::1. A name that merely begins with "127." is not one.
bool is_loopback_host(std::string_view host);

// How deeply arrays and objects nest in a JSON text, strings skipped; stops counting past `limit`.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit);

// Whether `text` is UTF-8 as JSON allows it: no overlong form, no surrogate, nothing past U+10FFFF.
bool valid_utf8(std::string_view text);

// Unicode general category Cf (format characters, Unicode 15.1): soft hyphen, zero-width space
// and joiners, direction marks, embeddings, overrides and isolates, the BOM, tags...
bool is_format_character(char32_t c);
// C0 controls, DEL and C1 controls (Unicode category Cc).
inline bool is_control_character(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }
// Embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069): they reorder the text
// after them, so what is shown is not what is stored.
inline bool is_bidi_override(char32_t c) { return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069); }

// What reads as nothing, or as a blank that is no space: format characters (Cf), the Hangul
// fillers (U+115F, U+1160, U+3164, U+FFA0), the braille blank (U+2800), the combining grapheme
// joiner (U+034F), the Khmer inherent vowels (U+17B4, U+17B5), the Mongolian free variation
// selectors (U+180B..U+180F), the line and paragraph separators and the noncharacters (U+FDD0..
// U+FDEF, U+xFFFE and U+xFFFF). Two names that differ only by one of them look the same.
bool is_invisible_character(char32_t c);

// Whether valid UTF-8 `text` holds a control (Cc) or an invisible character (above): for names
// shown as they are, where nothing may be invisible or reorder what follows.
bool holds_control_or_invisible(std::string_view utf8);

// The first character a text field may not hold (its code point), or nullopt. Every field
// refuses C0 and C1 controls, DEL and bidi overrides; a multi-line field (a description, notes)
// may hold tab, line feed and carriage return, a single-line one (a name, an e-mail) none, nor
// U+2028/U+2029, nor an invisible character (two co-owners would look the same in the minutes),
// but for the zero-width joiner and non-joiner between two letters that are not ASCII (Persian,
// the Indic scripts and emoji need them). `utf8` must be valid UTF-8.
std::optional<char32_t> forbidden_text_character(std::string_view utf8, bool multi_line);

// How many values a JSON text holds at most, strings skipped: one, plus one for each comma, [ and
// { (each may start another); stops counting past `limit`. A parsed value takes tens of bytes for
// each byte of its text, so a count checked before parsing bounds the memory parsing takes.
std::size_t json_value_count(std::string_view text, std::size_t limit);

}  // namespace syndic
