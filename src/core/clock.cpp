#include "core/clock.hpp"

#include <date/date.h>
#include <date/tz.h>

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace syndic {

Instant SystemClock::now() const {
    return std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

std::string to_utc_iso(Instant t) { return date::format("%FT%TZ", t); }

std::string to_montreal_iso(Instant t) {
    static const date::time_zone* zone = date::locate_zone("America/Montreal");
    return date::format("%FT%T%Ez", date::make_zoned(zone, std::chrono::floor<std::chrono::seconds>(t)));
}

LocalTime montreal_local(Instant t) {
    static const date::time_zone* zone = date::locate_zone("America/Montreal");
    const auto local = date::make_zoned(zone, std::chrono::floor<std::chrono::minutes>(t)).get_local_time();
    const auto day = date::floor<date::days>(local);
    const date::year_month_day ymd{day};
    const date::hh_mm_ss hms{local - day};
    return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
            static_cast<int>(static_cast<unsigned>(ymd.day())), static_cast<int>(hms.hours().count()),
            static_cast<int>(hms.minutes().count()), static_cast<int>(date::weekday{day}.c_encoding())};
}

std::optional<Instant> parse_iso_instant(const std::string& text) {
    if (text.size() < 16 || text.size() > 40) return std::nullopt;
    std::string upper = text;  // RFC 3339 allows "t" and "z"
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    // The offset, if numeric, must be a real one (at most 14 hours).
    const auto sign = upper.find_last_of("+-");
    if (sign != std::string::npos && sign > 10) {
        const int hours = std::atoi(upper.c_str() + sign + 1);
        if (hours > 14) return std::nullopt;
    }
    for (const char* fmt : {"%FT%T%Ez", "%FT%TZ", "%FT%R%Ez", "%FT%RZ"}) {
        std::istringstream in(upper);
        date::sys_time<std::chrono::microseconds> tp;  // fractions of a second down to microseconds
        in >> date::parse(fmt, tp);
        if (in.fail() || in.peek() != std::char_traits<char>::eof()) continue;
        const auto year = static_cast<int>(date::year_month_day{date::floor<date::days>(tp)}.year());
        if (year < 1900 || year > 9999) return std::nullopt;
        return std::chrono::floor<std::chrono::milliseconds>(tp);
    }
    return std::nullopt;
}

std::optional<Instant> montreal_day_start(const std::string& text, int plus_days) {
    static const date::time_zone* zone = date::locate_zone("America/Montreal");
    if (text.size() != 10) return std::nullopt;
    std::istringstream in(text);
    date::local_days day;
    in >> date::parse("%F", day);
    if (in.fail()) return std::nullopt;
    const auto local = day + date::days(plus_days);
    // A day always begins at 00:00 in Montreal (changes of time happen at 02:00 or 03:00).
    return std::chrono::floor<std::chrono::milliseconds>(zone->to_sys(local, date::choose::earliest));
}

std::chrono::milliseconds montreal_wall_clock_between(Instant from, Instant to) {
    static const date::time_zone* zone = date::locate_zone("America/Montreal");
    return date::make_zoned(zone, to).get_local_time() - date::make_zoned(zone, from).get_local_time();
}

}  // namespace syndic
