// The units register: apartments, parking, storage and commercial units, their links and their
// share of the building; and the fraction-sum rule of decisions 5 that every unit write obeys.
// Knows storage and core; not JSON-RPC.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/fraction.hpp"
#include "tools/registry.hpp"

namespace syndic {

class Database;

// A restricted common portion a unit may use, as get_unit shows it.
struct UnitPortion {
    std::string id, name;
};
// The restricted common portions a unit may use, by the declaration (its common portions): a
// question the units' get_unit asks and the declaration module answers (ToolTable::question), so
// the units register never includes the declaration that builds on it.
using RestrictedPortionsOfUnit =
    std::function<std::vector<UnitPortion>(Database& db, const std::string& syndicate_id, const std::string& unit_id)>;
inline constexpr const char* restricted_portions_question = "restricted common portions of a unit";

void register_units_module(ToolTable& table);

// The sum of the fractions of the syndicate's units, and how many units there are.
struct FractionSum {
    Fraction sum;
    std::int64_t unit_count = 0;
};
FractionSum unit_fraction_sum(Database& db, const std::string& syndicate_id);

inline constexpr Fraction fraction_sum_min = Fraction::from_units(99'500'000);
inline constexpr Fraction fraction_sum_max = Fraction::from_units(100'500'000);
bool fraction_sum_in_range(Fraction sum);

// Decisions 5: refuses (FRACTION_SUM_OUT_OF_RANGE) a write that moves the sum from `before` to an
// `after` outside 99.5..100.5, unless it brings the sum strictly closer to 100. A write that
// leaves the sum as it was is never refused.
void check_fraction_sum(Fraction before, Fraction after, const std::string& field = "/fractionPercent");

// A fraction as an error figure: whole percentages as integers.
DomainError::Figure figure(Fraction f);

// {sum, unitCount, min, max, balanced}
nlohmann::json fraction_sum_json(const FractionSum& sum);

// SQL ordering units as people read a register: numbered units first in numeric order
// (2, 101, 1001), then the others alphabetically (P-1, P-2, R-1). `number` is the column.
#define SYNDIC_UNIT_NUMBER_ORDER(number) \
    "(" number " GLOB '[0-9]*') DESC, CAST(" number " AS INTEGER), " number " COLLATE NOCASE"

// The number of an active unit of the syndicate, or nullopt when there is none with this id.
std::optional<std::string> active_unit_number(Database& db, const std::string& syndicate_id,
                                              const std::string& unit_id);

}  // namespace syndic
