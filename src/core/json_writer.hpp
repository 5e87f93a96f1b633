// Compact JSON text written straight into a string, for results read row by row from the
// database: no document is built, so a page of records costs its bytes, not a tree of
// allocations. Strings are escaped as nlohmann::json writes them (UTF-8 kept, invalid bytes
// replaced by U+FFFD); numbers too. Knows nothing of what it writes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

class JsonWriter {
public:
    explicit JsonWriter(std::string& out) : out_(out) {}

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    // Inside an object, before each value. Names are the code's own and are written as they are:
    // never pass one that needs escaping.
    JsonWriter& key(std::string_view name);

    JsonWriter& string(std::string_view text);
    JsonWriter& integer(std::int64_t value);
    JsonWriter& number(double value);  // as nlohmann::json writes a double (1e-06, 12.5, 100.0)
    JsonWriter& boolean(bool value);
    JsonWriter& null();
    // A value already written as JSON text (a stored record), appended as it is.
    JsonWriter& raw(std::string_view json_text);

    // `text` as a JSON string value, escaped, appended to `out`.
    static void append_quoted(std::string& out, std::string_view text);

private:
    void before_value();

    std::string& out_;
    std::vector<bool> first_;  // per open container: nothing written in it yet
    bool after_key_ = false;
};

}  // namespace syndic
