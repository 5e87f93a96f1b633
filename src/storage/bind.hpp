#pragma once
// Binding an optional value to a statement's parameter: the value, or SQL NULL.
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

}  // namespace syndic
