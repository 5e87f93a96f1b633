// Helpers of the units module's tests (units_test.cpp, units_write_test.cpp): ids, the fraction
// sum, unit numbers of a page, and linking units. Inline in a named namespace, so each file that
// includes it shares one definition.
#pragma once
#include "fixture.hpp"

#include <set>
#include <string>
#include <vector>

namespace syndic::test::units_fixture {

inline const std::string shown_now = "2026-11-21T10:00:00-05:00";  // fixed_now() in America/Montreal
inline const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

inline std::string id_of(const json& record) { return record["id"].get<std::string>(); }

inline double fraction_sum(Fixture& fx) { return fx.call("get_fraction_sum")["sum"].get<double>(); }

inline std::vector<std::string> numbers_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& u : list["data"]) out.push_back(u["number"].get<std::string>());
    return out;
}

inline std::set<std::string> id_set(const json& ids) {
    std::set<std::string> out;
    for (const auto& id : ids) out.insert(id.get<std::string>());
    return out;
}

// get_unit's answer as the other unit tools give the record: without restrictedCommonPortions,
// which get_unit alone adds (declaration_portions_test.cpp checks it).
inline json get_unit(Fixture& fx, const json& unit) {
    auto u = fx.call("get_unit", {{"id", unit["id"]}});
    CHECK(u.at("restrictedCommonPortions").is_array());
    u.erase("restrictedCommonPortions");
    return u;
}

inline json link(Fixture& fx, const json& unit, json targets) {
    return fx.call("update_unit", {{"id", unit["id"]}, {"linkedUnits", std::move(targets)}});
}

}  // namespace syndic::test::units_fixture
