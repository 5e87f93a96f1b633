// What the co-owners tests (tests/unit/co_owners/co_owner*_test.cpp) share: lists of strings shown in
// failures, the names and ids of a list result, a refusal's field errors and figures, and rows for
// create and bulk calls. It holds no check of a co-owner rule: those stay in the test files.
#pragma once
#include "fixture.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

// Lists of names and ids show their contents when a check fails.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
    static String convert(const std::vector<std::string>& v) {
        std::string out = "{";
        for (const auto& s : v) out += (out.size() > 1 ? ", \"" : "\"") + s + "\"";
        return (out + "}").c_str();
    }
};
}  // namespace doctest

namespace syndic::test::co_owner_fixture {

inline const std::string missing_id = "00000000-0000-4000-8000-000000000000";

// The last names of a list result, in order.
inline std::vector<std::string> last_names(const json& list) {
    std::vector<std::string> out;
    for (const auto& c : list["data"]) out.push_back(c["lastName"]);
    return out;
}

inline std::vector<std::string> ids_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& c : list["data"]) out.push_back(c["id"]);
    return out;
}

inline bool has_field_error(const syndic::DomainError& e, const std::string& field) {
    const auto& errors = e.errors();
    return std::any_of(errors.begin(), errors.end(), [&](const syndic::FieldError& f) { return f.field == field; });
}

inline std::string figure_text(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
    return "";
}

inline std::int64_t figure_int(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::int64_t>(v)) return std::get<std::int64_t>(v);
    return -1;
}

inline std::int64_t total_co_owners(Fixture& fx, bool include_archived = true) {
    return fx.call("list_co_owners", {{"includeArchived", include_archived}})["pagination"]["total"];
}

inline json row(const json& unit_id, const std::string& first, const std::string& last, json extra = json::object()) {
    json r = {{"unitId", unit_id}, {"firstName", first}, {"lastName", last}};
    r.update(extra);
    return r;
}

// What the fixed clock (2026-11-21T15:00:00Z) looks like in America/Montreal.
inline const std::string shown_now = "2026-11-21T10:00:00-05:00";

}  // namespace syndic::test::co_owner_fixture
