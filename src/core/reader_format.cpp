#include "core/reader_format.hpp"

#include <array>

namespace syndic {

namespace {

std::string grouped(std::int64_t whole, const std::string& separator) {
    auto digits = std::to_string(whole);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += separator;
        out += digits[i];
    }
    return out;
}

}  // namespace

std::string format_money(std::int64_t cents, const std::string& language) {
    const auto magnitude = cents < 0 ? -cents : cents;
    auto part = std::to_string(magnitude % 100);
    if (part.size() < 2) part = "0" + part;
    const std::string sign = cents < 0 ? "-" : "";
    if (language == "en") return sign + "$" + grouped(magnitude / 100, ",") + "." + part;
    return sign + grouped(magnitude / 100, "\u00a0") + "," + part + "\u00a0$";
}

std::string long_date(const std::string& day, const std::string& language) {
    static const std::array<const char*, 12> fr{"janvier", "février", "mars", "avril", "mai", "juin",
                                                "juillet", "août", "septembre", "octobre", "novembre", "décembre"};
    static const std::array<const char*, 12> en{"January", "February", "March", "April", "May", "June",
                                                "July", "August", "September", "October", "November", "December"};
    const int month = std::stoi(day.substr(5, 2)), d = std::stoi(day.substr(8, 2));
    if (language == "en") return std::string(en[static_cast<std::size_t>(month - 1)]) + " " + std::to_string(d) + ", " + day.substr(0, 4);
    return (d == 1 ? std::string("1er") : std::to_string(d)) + " " + fr[static_cast<std::size_t>(month - 1)] + " " + day.substr(0, 4);
}

}  // namespace syndic
