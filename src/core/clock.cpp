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

std::optional<Instant> parse_iso_instant(const std::string& text) {
    for (const char* fmt : {"%FT%T%Ez", "%FT%TZ"}) {
        std::istringstream in(text);
        date::sys_time<std::chrono::milliseconds> tp;
        in >> date::parse(fmt, tp);
        if (!in.fail() && in.peek() == std::char_traits<char>::eof()) return tp;
    }
    return std::nullopt;
}

}  // namespace syndic
