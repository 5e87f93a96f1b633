// The one apportionment of the contributions (catalogue §4.5, link L1, L8): each pool of cents (a
// fund's total, or the lines of a restricted common portion) shared among its units by relative
// value (art. 1064), in 128-bit intermediates, cents by largest remainder so the shares add up to
// the pool exactly. Every active unit with a relative value shares the general pools; a restricted
// common portion's lines are shared among its users alone. get_budget's preview, the assessment
// notices and the special assessments call it. Knows storage; not JSON-RPC.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/largest_remainder.hpp"

namespace syndic {
class Database;
}

namespace syndic::funds {

// A pool to share: a fund's cents, among every unit, the users of a common portion, or the units a
// resolution names with its own shares (art. 1097 2°).
struct Pool {
    std::string fund;
    std::int64_t cents = 0;
    std::optional<std::string> common_portion_id;  // its users only
    std::map<std::string, std::int64_t> shares;    // unit -> its share in millionths of a percent
};

struct UnitLine {
    std::string fund, basis;  // basis: fractions, restricted-users or resolution
    std::optional<std::string> common_portion_id;
    std::int64_t cents = 0;
};

struct UnitShare {
    std::string unit_id, number, type;
    std::int64_t fraction_units = 0;
    std::vector<UnitLine> lines;
    std::map<std::string, std::int64_t> by_fund;
    std::int64_t total() const;
};

// The units' shares of the pools, in unit number order (units without a relative value left out,
// unless a resolution's shares name them).
// A restricted pool whose portion has no user with a relative value is VALIDATION_FAILED at `field`.
std::vector<UnitShare> apportion(Database& db, const std::string& syndicate_id, const std::vector<Pool>& pools,
                                 const std::string& field);

// `yearly` cut into `count` instalments, the remainder on the first.
std::vector<std::int64_t> instalments(std::int64_t yearly, int count);
// `total` cut into instalments of the given weights (percents in millionths), each rounded down in
// 128 bits and the remainder on the first.
std::vector<std::int64_t> instalments(std::int64_t total, const std::vector<std::int64_t>& weights);

}  // namespace syndic::funds
