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

// How deeply arrays and objects nest in a JSON text, strings skipped; stops counting past `limit`.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit);

}  // namespace syndic
