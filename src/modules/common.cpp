#include "modules/common.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "storage/database.hpp"

namespace syndic {

std::string nonblank_text(const nlohmann::json& value, const std::string& field) {
    std::string text = trim(value.get<std::string>());
    if (text.empty())
        throw invalid_argument(field, "cannot be blank", field + " cannot be blank.");
    return text;
}

std::optional<std::string> time_bound(const Arguments& args, const char* key, bool end_of_day) {
    const auto given = args.optional_text(key);
    if (!given) return std::nullopt;
    const auto& text = *given;
    if (auto day = montreal_day_start(text, end_of_day ? 1 : 0))
        return to_utc_iso(end_of_day ? *day - std::chrono::milliseconds(1) : *day);
    if (auto instant = parse_given_instant(text)) return to_utc_iso(instant->at);
    const std::string field = args.pointer(key);
    throw invalid_argument(field, "is neither a day nor a date-time",
                           std::string(key) + " must be a day (2027-03-15, Montreal's) or a date-time: Montreal's "
                                              "local time (2027-03-15T19:00) or ISO 8601 with an offset.");
}

namespace {

// "19:00", the wall-clock time of a given date-time's text (its characters 11-15).
std::string given_clock(const std::string& text) { return text.substr(11, 5); }

}  // namespace

Instant instant_argument(const Arguments& args, const char* key, nlohmann::json* warnings) {
    const auto& text = args.text(key);
    const auto given = parse_given_instant(text);
    if (!given)
        throw invalid_argument(args.pointer(key), "is not a date-time in Montreal or with an offset",
                               std::string(key) + " must be a date-time: Montreal's local time (2027-03-15T19:00) or "
                                                  "ISO 8601 with an offset (2027-03-15T19:00:00-04:00); a local time "
                                                  "Montreal skips (02:00 to 03:00 on the spring change) does not exist.");
    if (warnings && !given->utc && !given->offset_is_montreals()) {  // Z: a program's UTC, not a copied offset
        // What the caller most likely meant: the same wall-clock time in Montreal.
        const auto meant = parse_given_instant(text.substr(0, 16));
        const auto local = montreal_local(given->at);
        char shown[8];
        std::snprintf(shown, sizeof shown, "%02d:%02d", local.hour, local.minute);
        warnings->push_back(std::string(key) + " " + text + " is " + shown + " in Montreal, not " + given_clock(text) +
                            ": Montreal's offset then is " + to_montreal_iso(given->at).substr(19) + "." +
                            (meant ? " If " + given_clock(text) + " in Montreal was meant, give " + text.substr(0, 16) +
                                         " (Montreal's time) or " + to_montreal_iso(meant->at) + "."
                                   : std::string()));
    }
    return given->at;
}

PageRequest page_request(const Arguments& args) {
    return {args.integer_or("page", 1), args.integer_or("pageSize", 50)};
}

nlohmann::json page_envelope(nlohmann::json data, const PageRequest& page, std::int64_t total) {
    return {{"data", std::move(data)},
            {"pagination", {{"page", page.page}, {"pageSize", page.size}, {"total", total}}}};
}

std::int64_t read_page(Database& db, const std::string& count_sql, const std::string& page_sql, const PageRequest& page,
                       const std::function<void(SQLite::Statement&)>& bind,
                       const std::function<void(SQLite::Statement&)>& each_row) {
    ReadTransaction snapshot(db);
    std::int64_t total = 0;
    {
        auto q = db.prepare(count_sql);
        bind(*q);
        q->executeStep();
        total = q->getColumn(0).getInt64();
    }
    auto q = db.prepare(page_sql);
    bind(*q);
    q->bind(100, page.size);
    q->bind(101, page.offset());
    while (q->executeStep()) each_row(*q);
    return total;
}

void write_pagination(JsonWriter& w, const PageRequest& page, std::int64_t total) {
    w.key("pagination").begin_object().key("page").integer(page.page).key("pageSize").integer(page.size);
    w.key("total").integer(total).end_object();
}

namespace {

// How a stored instant is shown: in Montreal time, or as stored if it is not an instant.
std::string_view shown_text(std::string_view stored, char (&buffer)[montreal_iso_size]) {
    const auto instant = parse_iso_instant(stored);
    return instant ? write_montreal_iso(*instant, buffer) : stored;
}

}  // namespace

void write_shown_time(JsonWriter& w, const SQLite::Column& column) {
    if (column.isNull()) {
        w.null();
        return;
    }
    char buffer[montreal_iso_size];
    w.string(shown_text(column_text(column), buffer));
}

void write_nullable_text(JsonWriter& w, const SQLite::Column& column) {
    if (column.isNull()) w.null();
    else w.string(column_text(column));
}

void write_percent(JsonWriter& w, Fraction f) {
    if (f.units() % Fraction::units_per_percent == 0) w.integer(f.units() / Fraction::units_per_percent);
    else w.number(f.to_percent());
}

nlohmann::json shown_time(const SQLite::Column& column) {
    if (column.isNull()) return nullptr;
    char buffer[montreal_iso_size];
    return std::string(shown_text(column_text(column), buffer));
}

std::optional<std::string> optional_text(SQLite::Statement& q, int column) {
    if (q.getColumn(column).isNull()) return std::nullopt;
    return q.getColumn(column).getString();
}

Instant stored_instant(const std::string& text) {
    if (auto t = parse_iso_instant(text)) return *t;
    throw std::runtime_error("a stored time is not ISO 8601: " + text);
}

nlohmann::json nullable_text(const SQLite::Column& column) {
    return column.isNull() ? nlohmann::json(nullptr) : nlohmann::json(column.getString());
}

nlohmann::json nullable_integer(const SQLite::Column& column) {
    return column.isNull() ? nlohmann::json(nullptr) : nlohmann::json(column.getInt64());
}

nlohmann::json nullable_real(const SQLite::Column& column) {
    if (column.isNull()) return nullptr;
    const double value = column.getDouble();
    if (std::trunc(value) == value && std::fabs(value) < 1e15) return static_cast<std::int64_t>(value);
    return value;
}

}  // namespace syndic
