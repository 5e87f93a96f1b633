// What every module's handlers share: the pagination envelope (interface 2.6), how stored
// instants and fractions are shown, and nullable columns. Included only by module sources.
#pragma once
#include <nlohmann/json.hpp>

#include <SQLiteCpp/Column.h>

#include <SQLiteCpp/Statement.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "core/fraction.hpp"
#include "core/json_writer.hpp"
#include "tools/arguments.hpp"

namespace syndic {

class Database;

struct PageRequest {
    std::int64_t page = 1;
    std::int64_t size = 50;
    std::int64_t offset() const { return (page - 1) * size; }
};

// A list's from/to filter as a stored UTC instant: a date-time (as instant_argument reads it), or a
// day in Montreal ("2026-12-15": its first moment for `from`, its last for `to`); nullopt when
// absent, VALIDATION_FAILED at /<key> for anything else.
std::optional<std::string> time_bound(const Arguments& args, const char* key, bool end_of_day);

// A tool's instant argument (scheduledAt, reconveneAt...): ISO 8601 with an offset, or Montreal's
// local time without one ("2027-03-15T19:00"; core/clock.hpp, parse_given_instant); VALIDATION_FAILED
// at its pointer otherwise. A numeric offset that is not Montreal's at that instant (a model copying
// "-05:00" into the summer; not Z, a program's UTC) adds to `warnings`, when given, a sentence
// naming the Montreal time it means and what to give if the wall-clock time was meant (docs/decisions.md, "What a new user
// tripped on").
Instant instant_argument(const Arguments& args, const char* key, nlohmann::json* warnings = nullptr);

// page (default 1) and pageSize (default 50); their ranges are the schema's to enforce.
PageRequest page_request(const Arguments& args);
// {"data": [...], "pagination": {"page", "pageSize", "total"}}
nlohmann::json page_envelope(nlohmann::json data, const PageRequest& page, std::int64_t total);

// One page of a list and the number of rows over all pages, read in one snapshot. `count_sql`
// and `page_sql` share the filters that `bind` binds as ?1..?N; `page_sql` takes the page's LIMIT
// and OFFSET as ?100 and ?101. `each_row` sees every row of the page. Returns the total.
std::int64_t read_page(Database& db, const std::string& count_sql, const std::string& page_sql, const PageRequest& page,
                       const std::function<void(SQLite::Statement&)>& bind,
                       const std::function<void(SQLite::Statement&)>& each_row);

// The envelope's "pagination" member, written after "data" inside the envelope's object.
void write_pagination(JsonWriter& w, const PageRequest& page, std::int64_t total);

// A nullable column's text: nullopt for NULL.
std::optional<std::string> optional_text(SQLite::Statement& q, int column);
// A stored UTC instant (to_utc_iso's text); a stored text that is not one is a broken database
// (std::runtime_error).
Instant stored_instant(const std::string& text);

// A column's text without a copy (valid until the statement steps again).
inline std::string_view column_text(const SQLite::Column& column) {
    return {column.getText(), static_cast<std::size_t>(column.getBytes())};
}
// What shown_time, nullable_text and percent give, written to a JsonWriter.
void write_shown_time(JsonWriter& w, const SQLite::Column& column);
void write_nullable_text(JsonWriter& w, const SQLite::Column& column);
void write_percent(JsonWriter& w, Fraction f);

// A stored UTC instant shown in America/Montreal; null stays null.
nlohmann::json shown_time(const SQLite::Column& column);
nlohmann::json nullable_text(const SQLite::Column& column);
nlohmann::json nullable_integer(const SQLite::Column& column);
nlohmann::json nullable_real(const SQLite::Column& column);  // whole values as integers
// A whole percentage as an integer (100, not 100.0), otherwise the nearest double.
inline nlohmann::json percent(Fraction f) {
    if (f.units() % Fraction::units_per_percent == 0) return f.units() / Fraction::units_per_percent;
    return f.to_percent();
}

// The trimmed text of a string argument that must not be blank; VALIDATION_FAILED at `field`
// when only (Unicode) spaces remain.
std::string nonblank_text(const nlohmann::json& value, const std::string& field);

}  // namespace syndic
