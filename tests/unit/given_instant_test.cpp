// A tool's instant argument as a caller gives it (core/clock.hpp, parse_given_instant; issue 27,
// item 3): RFC 3339 with an offset, or a local date-time read on Montreal's wall clock, with
// daylight saving time (-04:00 from the second Sunday of March, -05:00 from the first of November),
// the spring's skipped hour refused, the autumn's repeated hour read as its first; and whether an
// offset given is Montreal's. parse_iso_instant (stored times) still takes no local time.
#include "core_fixture.hpp"

#include <string>

#include "core/clock.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace given_instant_test {

using namespace syndic;

namespace {

Instant utc(const std::string& text) { return parse_iso_instant(text).value(); }

}  // namespace

TEST_SUITE("given-instant") {

TEST_CASE("a local date-time is Montreal's time, summer or winter, with or without seconds") {
    CHECK(parse_given_instant("2027-03-15T19:00")->at == utc("2027-03-15T23:00:00Z"));
    CHECK(parse_given_instant("2027-03-15T19:00:00")->at == utc("2027-03-15T23:00:00Z"));
    CHECK(parse_given_instant("2027-01-15t19:00:30.25")->at == utc("2027-01-16T00:00:30.250Z"));
    const auto local = parse_given_instant("2027-03-15T19:00").value();
    CHECK_FALSE(local.offset_minutes.has_value());
    CHECK(local.montreal_offset_minutes == -240);
    CHECK(local.offset_is_montreals());
    CHECK_FALSE(parse_iso_instant("2027-03-15T19:00").has_value());  // a stored time always has its offset
}

TEST_CASE("an offset given is kept, and said when it is not Montreal's at that instant") {
    const auto copied = parse_given_instant("2027-03-15T19:00:00-05:00").value();
    CHECK(copied.at == utc("2027-03-16T00:00:00Z"));  // 20:00 in Montreal
    CHECK(copied.offset_minutes == -300);
    CHECK(copied.montreal_offset_minutes == -240);
    CHECK_FALSE(copied.offset_is_montreals());
    CHECK(parse_given_instant("2027-01-15T19:00:00-05:00")->offset_is_montreals());
    const auto zulu = parse_given_instant("2027-03-15T23:00:00Z").value();
    CHECK(zulu.montreal_offset_minutes == -240);
    CHECK_FALSE(zulu.offset_is_montreals());
    CHECK(zulu.utc);
    CHECK_FALSE(copied.utc);
    CHECK_FALSE(parse_given_instant("2027-03-15T23:00:00+00:00")->utc);
}

TEST_CASE("the spring's skipped hour does not exist; the autumn's repeated hour is its first") {
    CHECK_FALSE(parse_given_instant("2027-03-14T02:30").has_value());
    CHECK(parse_given_instant("2027-03-14T01:59")->at == utc("2027-03-14T06:59:00Z"));
    CHECK(parse_given_instant("2027-03-14T03:00")->at == utc("2027-03-14T07:00:00Z"));
    CHECK(parse_given_instant("2027-11-07T01:30")->at == utc("2027-11-07T05:30:00Z"));  // -04:00, the first
}

TEST_CASE("what is not a date-time is refused") {
    for (const char* text : {"2027-03-15", "2027-03-15T19", "2027-03-15 19:00", "2027-02-30T19:00", "2027-03-15T24:00",
                             "2027-03-15T19:00+5", "1899-12-31T19:00", "19:00", ""}) {
        CAPTURE(text);
        CHECK_FALSE(parse_given_instant(text).has_value());
    }
}

}  // TEST_SUITE

}  // namespace given_instant_test
