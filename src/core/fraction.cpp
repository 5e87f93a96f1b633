#include "core/fraction.hpp"

#include <cstdlib>

namespace syndic {

std::string Fraction::to_string() const {
    const std::int64_t magnitude = std::llabs(units_);
    std::string text = (units_ < 0 ? "-" : "") + std::to_string(magnitude / units_per_percent);
    std::int64_t rest = magnitude % units_per_percent;
    if (rest != 0) {
        std::string decimals = std::to_string(rest);
        decimals.insert(0, 6 - decimals.size(), '0');
        while (!decimals.empty() && decimals.back() == '0') decimals.pop_back();
        text += "." + decimals;
    }
    return text;
}

}  // namespace syndic
