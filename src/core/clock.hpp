// The one source of "now" (decisions 7), injectable so tests can fix it, and the ISO 8601 forms
// the service writes: UTC instants for storage, America/Montreal for what users read.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace syndic {

using Instant = std::chrono::sys_time<std::chrono::milliseconds>;

class Clock {
public:
    virtual ~Clock() = default;
    virtual Instant now() const = 0;
};

class SystemClock final : public Clock {
public:
    Instant now() const override;
};

class FixedClock final : public Clock {
public:
    explicit FixedClock(Instant at) : at_(at) {}
    Instant now() const override { return at_; }
    void set(Instant at) { at_ = at; }
    void advance(std::chrono::milliseconds by) { at_ += by; }

private:
    Instant at_;
};

// "2026-11-21T19:42:58.123Z": sortable text, how instants are stored.
std::string to_utc_iso(Instant t);
// "2026-11-21T14:42:58-05:00": how instants are shown (America/Montreal, with its offset).
std::string to_montreal_iso(Instant t);
// The same into a buffer of the caller's, for years 0-9999 (otherwise into a thread's own one).
inline constexpr std::size_t montreal_iso_size = 25;
std::string_view write_montreal_iso(Instant t, char (&out)[montreal_iso_size]);
// A moment as a Montreal wall clock reads it (daylight saving time included).
struct LocalTime {
    int year, month, day, hour, minute;
    int weekday;  // 0 = Sunday
};
LocalTime montreal_local(Instant t);

// How far apart two moments are on Montreal's wall clocks: 21 days from 19:00 before the change
// to daylight saving time to 19:00 after it, though 20 days 23 hours pass.
std::chrono::milliseconds montreal_wall_clock_between(Instant from, Instant to);

// The instant a Montreal calendar day ("2026-12-15") begins, `plus_days` later; nullopt when the
// text is not such a date.
std::optional<Instant> montreal_day_start(const std::string& date, int plus_days = 0);

// The Montreal calendar day of a moment, "2026-11-21": what "today" is for due dates.
std::string montreal_date(Instant t);
// Whether text is a calendar date "YYYY-MM-DD" that exists (2026-02-29 does not).
bool is_calendar_date(std::string_view text);
// A calendar date "YYYY-MM-DD" plus `days` (which may be negative); std::invalid_argument when the
// text is not such a date.
std::string add_calendar_days(std::string_view date, int days);
// A calendar date plus `months` (which may be negative), the day clamped to the month's end:
// 2026-11-30 + 3 months is 2027-02-28, 2027-11-30 + 3 is 2028-02-29.
std::string add_calendar_months(std::string_view date, int months);
// Calendar days from `from` to `to` (both "YYYY-MM-DD"): 2026-11-01 to 2026-11-06 is 5;
// std::invalid_argument when either is not such a date.
int calendar_days_between(std::string_view from, std::string_view to);

// Parses an ISO 8601 / RFC 3339 date-time that carries an offset ("Z" or "+hh:mm", at most 14
// hours), with optional seconds and fractions, years 1900-9999; nullopt otherwise.
std::optional<Instant> parse_iso_instant(std::string_view text);

// An instant as a caller gives it (a tool's instant argument): what parse_iso_instant reads, or a
// local date-time without an offset ("2027-03-15T19:00", seconds and a fraction optional) read on
// America/Montreal's wall clock, the first of the two in the autumn's repeated hour; nullopt for any
// other text and for a local time Montreal skips (the spring's hour from 02:00).
struct GivenInstant {
    Instant at;
    std::optional<int> offset_minutes;  // the offset given, east of UTC; nullopt: a local time
    int montreal_offset_minutes = 0;    // Montreal's offset at that instant
    bool utc = false;                   // given with Z, as programs (and this service's storage) write instants
    bool offset_is_montreals() const { return !offset_minutes || *offset_minutes == montreal_offset_minutes; }
};
std::optional<GivenInstant> parse_given_instant(std::string_view text);

}  // namespace syndic
