// Text rules shared by modules: the folded form used for searching names (lower case, French
// accents removed, so "belanger" finds "Bélanger") and trimming of user input (ASCII and Unicode
// spaces), and how deeply a JSON text nests (checked before parsing, so no parser recursion can
// exhaust the stack).
#pragma once
#include <string>
#include <string_view>

namespace syndic {

std::string fold_for_search(std::string_view utf8);
std::string trim(std::string_view text);
std::string ascii_lower(std::string_view text);  // A-Z only: header values, schemes, host names
std::size_t code_point_count(std::string_view utf8);  // UTF-8 lead bytes: characters, not bytes

// A host of this machine's loopback interface: "localhost", an IPv4 literal in 127.0.0.0/8, or
// [::1] / ::1. A name that merely begins with "127." is not one.
bool is_loopback_host(std::string_view host);

// How deeply arrays and objects nest in a JSON text, strings skipped; stops counting past `limit`.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit);

// Whether `text` is UTF-8 as JSON allows it: no overlong form, no surrogate, nothing past U+10FFFF.
bool valid_utf8(std::string_view text);

// How many values a JSON text holds at most, strings skipped: one, plus one for each comma, [ and
// { (each may start another); stops counting past `limit`. A parsed value takes tens of bytes for
// each byte of its text, so a count checked before parsing bounds the memory parsing takes.
std::size_t json_value_count(std::string_view text, std::size_t limit);

}  // namespace syndic
