#include "core/clock.hpp"

#include <date/date.h>
#include <date/tz.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace syndic {

Instant SystemClock::now() const {
    return std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
}

namespace {

const date::time_zone* montreal() {
    static const date::time_zone* zone = date::locate_zone("America/Montreal");
    return zone;
}

// Writes `value` as `width` decimal digits (zero-padded) at `out`.
void put_digits(char* out, unsigned value, int width) {
    for (int i = width - 1; i >= 0; --i) {
        out[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
}

// "YYYY-MM-DDTHH:MM:SS" for a time on a clock (years 0-9999), in 19 characters at `out`.
template <typename Clock>
void put_date_time(char* out, std::chrono::time_point<Clock, std::chrono::seconds> t) {
    const auto day = std::chrono::floor<date::days>(t);
    const date::year_month_day ymd{day};
    const date::hh_mm_ss hms{t - day};
    put_digits(out, static_cast<unsigned>(static_cast<int>(ymd.year())), 4);
    out[4] = '-';
    put_digits(out + 5, static_cast<unsigned>(ymd.month()), 2);
    out[7] = '-';
    put_digits(out + 8, static_cast<unsigned>(ymd.day()), 2);
    out[10] = 'T';
    put_digits(out + 11, static_cast<unsigned>(hms.hours().count()), 2);
    out[13] = ':';
    put_digits(out + 14, static_cast<unsigned>(hms.minutes().count()), 2);
    out[16] = ':';
    put_digits(out + 17, static_cast<unsigned>(hms.seconds().count()), 2);
}

bool in_fast_range(Instant t) {
    const auto year = date::year_month_day{std::chrono::floor<date::days>(t)}.year();
    return year >= date::year{0} && year <= date::year{9999};
}

// Montreal's offset from UTC at `t`. The rule in force is kept per thread: instants shown one
// after another almost always fall under the same one.
std::chrono::seconds montreal_offset(date::sys_seconds t) {
    thread_local date::sys_seconds begin = date::sys_seconds::max(), end = date::sys_seconds::min();
    thread_local std::chrono::seconds offset{0};
    if (t < begin || t >= end) {
        const auto info = montreal()->get_info(t);
        begin = info.begin;
        end = info.end;
        offset = info.offset;
    }
    return offset;
}

}  // namespace

std::string to_utc_iso(Instant t) {
    if (!in_fast_range(t)) return date::format("%FT%TZ", t);
    char text[24];
    const auto seconds = std::chrono::floor<std::chrono::seconds>(t);
    put_date_time(text, seconds);
    text[19] = '.';
    put_digits(text + 20, static_cast<unsigned>((t - seconds).count()), 3);
    std::string out(text, 23);
    out += 'Z';
    return out;
}

std::string_view write_montreal_iso(Instant t, char (&out)[montreal_iso_size]) {
    const auto seconds = std::chrono::floor<std::chrono::seconds>(t);
    const auto offset = montreal_offset(seconds);
    if (!in_fast_range(t) || offset.count() % 60 != 0) {
        thread_local std::string other;
        other = date::format("%FT%T%Ez", date::make_zoned(montreal(), seconds));
        return other;
    }
    put_date_time(out, date::local_seconds{seconds.time_since_epoch() + offset});
    const auto minutes = std::abs(offset.count()) / 60;
    out[19] = offset.count() < 0 ? '-' : '+';
    put_digits(out + 20, static_cast<unsigned>(minutes / 60), 2);
    out[22] = ':';
    put_digits(out + 23, static_cast<unsigned>(minutes % 60), 2);
    return {out, montreal_iso_size};
}

std::string to_montreal_iso(Instant t) {
    char out[montreal_iso_size];
    return std::string(write_montreal_iso(t, out));
}

LocalTime montreal_local(Instant t) {
    const auto local = date::make_zoned(montreal(), std::chrono::floor<std::chrono::minutes>(t)).get_local_time();
    const auto day = date::floor<date::days>(local);
    const date::year_month_day ymd{day};
    const date::hh_mm_ss hms{local - day};
    return {static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
            static_cast<int>(static_cast<unsigned>(ymd.day())), static_cast<int>(hms.hours().count()),
            static_cast<int>(hms.minutes().count()), static_cast<int>(date::weekday{day}.c_encoding())};
}

namespace {

// The form instants are stored in, "2026-11-21T19:42:58.123Z", read without streams; nullopt for
// any other text (which the general parser then reads).
std::optional<Instant> parse_stored_instant(std::string_view text) {
    if (text.size() != 24 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
        text[16] != ':' || text[19] != '.' || text[23] != 'Z')
        return std::nullopt;
    auto number = [&](std::size_t at, std::size_t width) -> int {
        int value = 0;
        for (std::size_t i = at; i < at + width; ++i) {
            if (text[i] < '0' || text[i] > '9') return -1;
            value = value * 10 + (text[i] - '0');
        }
        return value;
    };
    const int year = number(0, 4), month = number(5, 2), day = number(8, 2), hour = number(11, 2),
              minute = number(14, 2), second = number(17, 2), millis = number(20, 3);
    if (year < 1900 || month < 1 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 ||
        second > 59 || millis < 0)
        return std::nullopt;
    const date::year_month_day ymd{date::year{year}, date::month{static_cast<unsigned>(month)},
                                   date::day{static_cast<unsigned>(day)}};
    if (!ymd.ok()) return std::nullopt;
    return Instant{date::sys_days{ymd}} + std::chrono::hours{hour} + std::chrono::minutes{minute} +
           std::chrono::seconds{second} + std::chrono::milliseconds{millis};
}

}  // namespace

// RFC 3339 as this server reads it, on upper-case text: YYYY-MM-DDTHH:MM, then optionally :SS with
// a fraction of 1 to 6 digits, then Z or +HH:MM / -HH:MM. Read field by field, never with a stream
// parser: date::parse, given "19:00Z" for %T, goes on with NaN seconds and converts them to an
// integer, which is undefined behaviour (found by fuzzing: seconds left out, "T000:0:00Z", "-:00").
struct Rfc3339Fields {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    std::int64_t microseconds = 0;
    int offset_minutes = 0;  // east of UTC
    bool local = false;      // no offset given: a wall clock's time (parse_given_instant reads Montreal's)
    bool utc = false;        // given as Z
};

static std::optional<Rfc3339Fields> rfc3339_fields(std::string_view t) {
    auto digits = [&](std::size_t at, std::size_t n) {
        if (at + n > t.size()) return false;
        for (std::size_t i = at; i < at + n; ++i)
            if (t[i] < '0' || t[i] > '9') return false;
        return true;
    };
    auto number = [&](std::size_t at, std::size_t n) {
        int v = 0;
        for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (t[i] - '0');
        return v;
    };
    auto is = [&](std::size_t at, char c) { return at < t.size() && t[at] == c; };
    if (!digits(0, 4) || !is(4, '-') || !digits(5, 2) || !is(7, '-') || !digits(8, 2) || !is(10, 'T') ||
        !digits(11, 2) || !is(13, ':') || !digits(14, 2))
        return std::nullopt;
    Rfc3339Fields f;
    f.year = number(0, 4), f.month = number(5, 2), f.day = number(8, 2), f.hour = number(11, 2), f.minute = number(14, 2);
    std::size_t at = 16;
    if (is(at, ':')) {
        if (!digits(at + 1, 2)) return std::nullopt;
        f.second = number(at + 1, 2);
        at += 3;
        if (is(at, '.')) {
            std::size_t n = 0;
            while (digits(at + 1 + n, 1)) ++n;
            if (n < 1 || n > 6) return std::nullopt;
            f.microseconds = number(at + 1, n);
            for (std::size_t i = n; i < 6; ++i) f.microseconds *= 10;
            at += 1 + n;
        }
    }
    if (at == t.size()) {
        f.local = true;
    } else if (is(at, 'Z')) {
        if (at + 1 != t.size()) return std::nullopt;
        f.utc = true;
    } else if ((is(at, '+') || is(at, '-')) && digits(at + 1, 2) && is(at + 3, ':') && digits(at + 4, 2) &&
               at + 6 == t.size()) {
        const int hours = number(at + 1, 2), minutes = number(at + 4, 2);
        if (hours > 14 || minutes > 59) return std::nullopt;  // a real offset is at most 14 hours
        f.offset_minutes = (t[at] == '-' ? -1 : 1) * (hours * 60 + minutes);
    } else {
        return std::nullopt;
    }
    if (f.hour > 23 || f.minute > 59 || f.second > 59) return std::nullopt;
    return f;
}

// The fields of an RFC 3339 date-time, with or without its offset, on a day that exists; nullopt
// otherwise. Its wall-clock reading, as if in UTC, in `wall`.
static std::optional<Rfc3339Fields> given_fields(std::string_view text, date::sys_time<std::chrono::microseconds>& wall) {
    if (text.size() < 16 || text.size() > 40) return std::nullopt;
    std::string upper(text);  // RFC 3339 allows "t" and "z"
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto f = rfc3339_fields(upper);
    if (!f || f->year < 1900 || f->year > 9999 || f->month < 1 || f->month > 12 || f->day < 1) return std::nullopt;
    const date::year_month_day ymd{date::year{f->year}, date::month{static_cast<unsigned>(f->month)},
                                   date::day{static_cast<unsigned>(f->day)}};
    if (!ymd.ok()) return std::nullopt;
    wall = date::sys_days{ymd} + std::chrono::hours{f->hour} + std::chrono::minutes{f->minute} +
           std::chrono::seconds{f->second} + std::chrono::microseconds{f->microseconds};
    return f;
}

static std::optional<Instant> within_years(date::sys_time<std::chrono::microseconds> utc) {
    const auto year = static_cast<int>(date::year_month_day{date::floor<date::days>(utc)}.year());
    if (year < 1900 || year > 9999) return std::nullopt;
    return std::chrono::floor<std::chrono::milliseconds>(utc);
}

std::optional<Instant> parse_iso_instant(std::string_view text) {
    if (auto stored = parse_stored_instant(text)) return stored;
    date::sys_time<std::chrono::microseconds> wall;
    const auto f = given_fields(text, wall);
    if (!f || f->local) return std::nullopt;
    return within_years(wall - std::chrono::minutes{f->offset_minutes});
}

std::optional<GivenInstant> parse_given_instant(std::string_view text) {
    date::sys_time<std::chrono::microseconds> wall;
    const auto f = given_fields(text, wall);
    if (!f) return std::nullopt;
    std::optional<Instant> at;
    if (f->local) {
        const date::local_time<std::chrono::microseconds> local{wall.time_since_epoch()};
        const auto info = montreal()->get_info(local);
        if (info.result == date::local_info::nonexistent) return std::nullopt;  // the spring's skipped hour
        // The autumn's repeated hour: the first of the two (daylight time).
        at = within_years(wall - info.first.offset);
    } else {
        at = within_years(wall - std::chrono::minutes{f->offset_minutes});
    }
    if (!at) return std::nullopt;
    const auto montreal_minutes =
        static_cast<int>(montreal()->get_info(std::chrono::floor<std::chrono::seconds>(*at)).offset.count() / 60);
    return GivenInstant{*at, f->local ? std::nullopt : std::optional<int>(f->offset_minutes), montreal_minutes, f->utc};
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

std::string montreal_date(Instant t) {
    const auto local = montreal_local(t);
    char out[16];
    std::snprintf(out, sizeof out, "%04d-%02d-%02d", local.year, local.month, local.day);
    return out;
}

bool is_calendar_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (text[i] < '0' || text[i] > '9') return false;
    const auto number = [&](std::size_t at, std::size_t n) {
        unsigned v = 0;
        for (std::size_t i = at; i < at + n; ++i) v = v * 10 + static_cast<unsigned>(text[i] - '0');
        return v;
    };
    const date::year_month_day day{date::year(static_cast<int>(number(0, 4))), date::month(number(5, 2)),
                                   date::day(number(8, 2))};
    return day.ok() && number(0, 4) >= 1900;
}

namespace {
date::sys_days calendar_day(std::string_view text) {
    if (!is_calendar_date(text)) throw std::invalid_argument("not a calendar date: " + std::string(text));
    const auto number = [&](std::size_t at, std::size_t n) {
        int v = 0;
        for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
        return v;
    };
    return date::year_month_day{date::year(number(0, 4)), date::month(static_cast<unsigned>(number(5, 2))),
                                date::day(static_cast<unsigned>(number(8, 2)))};
}
}  // namespace

std::string add_calendar_days(std::string_view date, int days) {
    return date::format("%F", calendar_day(date) + date::days{days});
}

std::string add_calendar_months(std::string_view date, int months) {
    const date::year_month_day day{calendar_day(date)};
    const auto month = date::year_month{day.year(), day.month()} + date::months{months};
    const auto last = date::year_month_day_last{month.year(), date::month_day_last{month.month()}}.day();
    return date::format("%F", date::year_month_day{month.year(), month.month(), std::min(day.day(), last)});
}

int calendar_days_between(std::string_view from, std::string_view to) {
    return static_cast<int>((calendar_day(to) - calendar_day(from)).count());
}

std::chrono::milliseconds montreal_wall_clock_between(Instant from, Instant to) {
    static const date::time_zone* zone = date::locate_zone("America/Montreal");
    return date::make_zoned(zone, to).get_local_time() - date::make_zoned(zone, from).get_local_time();
}

}  // namespace syndic
