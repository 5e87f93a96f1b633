#include "modules/declaration/declaration.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <vector>

#include "modules/common.hpp"
#include "modules/declaration/tools.hpp"
#include "modules/units/unit_shares.hpp"
#include "modules/units/units.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace {

json get_fraction_sum(const ToolCall& call) {
    return fraction_sum_json(unit_fraction_sum(call.db, call.caller.syndicate_id));
}

struct Share {
    std::string id;
    std::string number;
    Fraction before;
    Fraction after;
};

// Decisions 5: every unit's fraction scaled by 100/sum, rounded down to the millionth, the
// remainder given to the largest unit (the first by number among equals), in the call's
// transaction. A dry run writes nothing (it works the changes out and shows them), so it needs no
// savepoint to undo them.
json rebalance_fractions(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const bool dry_run = call.arguments().flag("dryRun", false);

    std::vector<Share> shares;
    {
        auto q = call.db.prepare(
            "SELECT id, number, fraction_units FROM units WHERE syndicate_id = ? AND deleted_at IS NULL "
            "ORDER BY " SYNDIC_UNIT_NUMBER_ORDER("number") ", id");
        q->bind(1, syndicate);
        while (q->executeStep())
            shares.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(),
                              Fraction::from_units(q->getColumn(2).getInt64()), {}});
    }
    const auto before = unit_fraction_sum(call.db, syndicate);
    if (before.sum.units() <= 0)
        throw DomainError(codes::fraction_sum_out_of_range,
                          "There is nothing to rebalance: the units' fractions sum to 0.")
            .with("currentSum", std::int64_t{0})
            .with("resultingSum", std::int64_t{0})
            .with("min", figure(fraction_sum_min))
            .with("max", figure(fraction_sum_max));

    const std::int64_t target = Fraction::percent(100).units();
    std::int64_t assigned = 0;
    for (auto& s : shares) {
        // At most 1e8 * 1e8 = 1e16, well inside 64 bits.
        s.after = Fraction::from_units(s.before.units() * target / before.sum.units());
        assigned += s.after.units();
    }
    auto largest = std::max_element(shares.begin(), shares.end(),
                                    [](const Share& a, const Share& b) { return a.before < b.before; });
    largest->after += Fraction::from_units(target - assigned);

    // Each lot (a unit and its linked parking and storage units) before and after, so its
    // co-owners keep their share of it.
    std::map<std::string, std::pair<Fraction, Fraction>> lots;
    for (const auto& s : shares) {
        auto& lot = lots[lot_of(call.db, s.id)];
        lot.first += s.before;
        lot.second += s.after;
    }
    json changes = json::array();
    for (const auto& s : shares) {
        if (s.after == s.before) continue;
        changes.push_back({{"unitId", s.id},
                           {"number", s.number},
                           {"before", percent(s.before)},
                           {"after", percent(s.after)}});
        if (dry_run) continue;
        auto q = call.db.prepare("UPDATE units SET fraction_units = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*q, s.after.units(), to_utc_iso(call.clock.now()), s.id);
        q->exec();
    }
    if (!dry_run)
        for (const auto& [lot_id, fractions] : lots)
            scale_lot_co_owners(call.db, syndicate, lot_id, fractions.first, fractions.second,
                                to_utc_iso(call.clock.now()));
    json result = fraction_sum_json(dry_run ? FractionSum{Fraction::percent(100), before.unit_count}
                                            : unit_fraction_sum(call.db, syndicate));
    result["previousSum"] = percent(before.sum);
    result["dryRun"] = dry_run;
    result["changes"] = std::move(changes);
    if (!dry_run && !result["changes"].empty())
        call.name_event("declaration.fractions_rebalanced", "declaration", syndicate);
    return result;
}

}  // namespace

void register_declaration_module(ToolTable& table) {
    table.bind("get_fraction_sum", get_fraction_sum);
    table.bind("rebalance_fractions", rebalance_fractions);
    table.bind("get_declaration", declaration::get_declaration);
    table.bind("update_declaration", declaration::update_declaration);
    table.bind("list_bylaws", declaration::list_bylaws);
    table.bind("set_bylaw", declaration::set_bylaw);
    table.bind("list_common_portions", declaration::list_common_portions);
    table.bind("set_common_portion", declaration::set_common_portion);
    table.bind("record_declaration_amendment", declaration::record_declaration_amendment);
    // The units' get_unit shows the restricted common portions a unit may use (units.hpp).
    *table.question<RestrictedPortionsOfUnit>(restricted_portions_question) = restricted_portions_of_unit;
}

}  // namespace syndic
