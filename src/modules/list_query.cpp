#include "modules/list_query.hpp"

#include <cstdint>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"

namespace syndic {

using nlohmann::json;

std::optional<std::string> date_argument(const Arguments& args, const char* key) {
    auto value = args.optional_text(key);
    if (value && !is_calendar_date(*value))
        throw invalid_argument(args.pointer(key), "is not a calendar date",
                               std::string(key) + " must be a date that exists, as YYYY-MM-DD.");
    return value;
}

namespace {

// What one parameter binds: its value as SQL text or integer, or nothing (NULL).
struct Bound {
    std::string name;  // ":status"
    std::optional<std::string> text;
    std::optional<std::int64_t> integer;
};

Bound bound_value(const Arguments& args, const ListParameter& p) {
    Bound b{std::string(":") + p.name, std::nullopt, std::nullopt};
    json given = args.value(p.name);
    if (given.is_null() && p.when_absent) given = json::parse(p.when_absent);
    if (given.is_null()) return b;
    const json effective{{p.name, given}};  // the argument, or its default when absent
    const Arguments value(effective, nullptr, args.pointer());
    switch (p.value) {
        case ListValue::text: b.text = value.text(p.name); break;
        case ListValue::boolean: b.integer = value.flag(p.name, false) ? 1 : 0; break;
        case ListValue::folded_search: b.text = fold_for_search(trim(value.text(p.name))); break;
        case ListValue::date: b.text = date_argument(value, p.name); break;
        case ListValue::from_instant: b.text = time_bound(value, p.name, false); break;
        case ListValue::to_instant: b.text = time_bound(value, p.name, true); break;
    }
    return b;
}

}  // namespace

json list_page(const ToolCall& call, const std::string& columns, const std::string& from_where, const std::string& order,
               std::initializer_list<ListParameter> parameters, const std::function<json(SQLite::Statement&)>& row) {
    const auto args = call.arguments();
    const auto page = page_request(args);
    std::vector<Bound> values;  // read (and refused) before any SQL runs
    for (const auto& p : parameters) values.push_back(bound_value(args, p));
    json data = json::array();
    const auto total = read_page(
        call.db, "SELECT count(*) " + from_where,
        "SELECT " + columns + " " + from_where + " ORDER BY " + order + " LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) {
            if (const int i = q.getIndex(":syndicate")) q.bind(i, call.caller.syndicate_id);
            if (const int i = q.getIndex(":today")) q.bind(i, montreal_date(call.clock.now()));
            for (const auto& v : values) {
                const int i = q.getIndex(v.name.c_str());
                if (i == 0) continue;  // an argument this query does not filter on
                if (v.text) q.bind(i, *v.text);
                else if (v.integer) q.bind(i, *v.integer);
            }
        },
        [&](SQLite::Statement& q) { data.push_back(row(q)); });
    return page_envelope(std::move(data), page, total);
}

}  // namespace syndic
