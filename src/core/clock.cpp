#include "core/clock.hpp"

#include <date/date.h>
#include <date/tz.h>

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
    for (const char* fmt : {"%FT%T%Ez", "%FT%TZ", "%FT%R%Ez", "%FT%RZ"}) {
        std::istringstream in(text);
        date::sys_time<std::chrono::milliseconds> tp;
        in >> date::parse(fmt, tp);
        if (!in.fail() && in.peek() == std::char_traits<char>::eof()) return tp;
    }
    return std::nullopt;
}

}  // namespace syndic
