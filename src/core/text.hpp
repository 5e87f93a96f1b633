// Text rules shared by modules: the folded form used for searching names (lower case, French
// accents removed, so "belanger" finds "Bélanger") and trimming of user input (ASCII and Unicode
// spaces).
#pragma once
#include <string>
#include <string_view>

namespace syndic {

std::string fold_for_search(std::string_view utf8);
std::string trim(std::string_view text);

}  // namespace syndic
