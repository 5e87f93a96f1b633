// A list tool's page read by one SQL query (interface 2.6: data and pagination), its filters
// written in the SQL as named parameters that are the tool's arguments: the module writes
// "FROM outbox o WHERE o.syndicate_id = :syndicate AND (:status IS NULL OR o.status = :status)",
// and each :name is bound from the argument of that name (absent or null: NULL, or the parameter's
// default), :syndicate from the caller, :today the caller's Montreal day. Included only by module sources.
#pragma once
#include <nlohmann/json.hpp>

#include <SQLiteCpp/Statement.h>

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>

#include "tools/arguments.hpp"
#include "tools/registry.hpp"

namespace syndic {

// How an argument is bound.
enum class ListValue {
    text,           // as given
    boolean,        // 0 or 1
    folded_search,  // trimmed and folded (lower case, no accents) to match a search_text column
    date,           // a calendar day "YYYY-MM-DD"; one that does not exist is VALIDATION_FAILED
    from_instant,   // a day in Montreal or an instant: its first moment, as a stored UTC instant (time_bound)
    to_instant,     // the same, its last moment
};

struct ListParameter {
    const char* name;  // the argument and the :name in the SQL
    ListValue value = ListValue::text;
    const char* when_absent = nullptr;  // the JSON of the value bound when the argument is absent ("false", "\"active\"")
};

// `columns` the SELECT list, `from_where` from FROM to the end of WHERE, `order` the ORDER BY list;
// `row` makes one record of the page from a row.
nlohmann::json list_page(const ToolCall& call, const std::string& columns, const std::string& from_where,
                         const std::string& order, std::initializer_list<ListParameter> parameters,
                         const std::function<nlohmann::json(SQLite::Statement&)>& row);

// An optional date argument: nullopt when absent or null, VALIDATION_FAILED at /<key> unless it is a
// calendar day that exists ("YYYY-MM-DD").
std::optional<std::string> date_argument(const Arguments& args, const char* key);

}  // namespace syndic
