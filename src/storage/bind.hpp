#pragma once
// Binding values to a statement's parameters: an optional value or SQL NULL, and a whole row of
// values in the order of the statement's parameters (SQLiteCpp's variadic SQLite::bind, with
// optionals and nullopt as NULL), so an INSERT's values read as one list instead of numbered calls.
#include <optional>
#include <string>

#include <SQLiteCpp/Statement.h>

namespace syndic {

// NULL when there is no value.
inline void bind_or_null(SQLite::Statement& q, int index, const std::optional<std::string>& value) {
    if (value) q.bind(index, *value);
    else q.bind(index);
}

// NULL when there is no value or it is empty (an optional text field cleared with "").
inline void bind_nonempty_or_null(SQLite::Statement& q, int index, const std::optional<std::string>& value) {
    if (value && !value->empty()) q.bind(index, *value);
    else q.bind(index);
}

// A text for a column that "" clears: nullopt when there is none or it is empty.
inline std::optional<std::string> nonempty_text(const std::optional<std::string>& value) {
    return value && !value->empty() ? value : std::nullopt;
}

// One parameter: the value, or NULL for nullopt or an empty optional.
inline void bind_parameter(SQLite::Statement& q, int index, std::nullopt_t) { q.bind(index); }
template <class T>
void bind_parameter(SQLite::Statement& q, int index, const std::optional<T>& value) {
    if (value) q.bind(index, *value);
    else q.bind(index);
}
template <class T>
void bind_parameter(SQLite::Statement& q, int index, const T& value) {
    q.bind(index, value);
}

// `values` bound to ?1, ?2, ... in order. The statement's parameters are numbered 1..N (plain `?`,
// or `?N` that may repeat a number already bound).
template <class... Values>
void bind_parameters(SQLite::Statement& q, const Values&... values) {
    int index = 0;
    (bind_parameter(q, ++index, values), ...);
}

}  // namespace syndic
