#include "modules/funds/apportionment.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

std::int64_t UnitShare::total() const {
    std::int64_t t = 0;
    for (const auto& [_, cents] : by_fund) t += cents;
    return t;
}

std::vector<std::int64_t> instalments(std::int64_t yearly, int count) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(count), yearly / count);
    out[0] += yearly % count;
    return out;
}

std::vector<std::int64_t> instalments(std::int64_t total, const std::vector<std::int64_t>& weights) {
    __int128 sum = 0;
    for (const auto w : weights) sum += w;
    std::vector<std::int64_t> out;
    std::int64_t given = 0;
    for (const auto w : weights) {
        out.push_back(sum == 0 ? 0 : static_cast<std::int64_t>(static_cast<__int128>(total) * w / sum));
        given += out.back();
    }
    if (!out.empty()) out[0] += total - given;
    return out;
}

std::vector<UnitShare> apportion(Database& db, const std::string& syndicate_id, const std::vector<Pool>& pools,
                                 const std::string& field) {
    std::vector<UnitShare> units;
    auto q = db.prepare(
        "SELECT id, number, type, fraction_units FROM units WHERE syndicate_id = ? AND deleted_at IS NULL "
        "ORDER BY number, id");
    bind_parameters(*q, syndicate_id);
    while (q->executeStep())
        units.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                         q->getColumn(3).getInt64(), {}, {}});
    auto users = db.prepare(
        "SELECT u.unit_id FROM common_portion_units u JOIN common_portions p ON p.id = u.common_portion_id "
        "WHERE u.common_portion_id = ? AND u.syndicate_id = ? AND p.deleted_at IS NULL");
    for (std::size_t p = 0; p < pools.size(); ++p) {
        const auto& pool = pools[p];
        if (pool.cents == 0) continue;
        std::vector<std::size_t> members;
        std::vector<std::int64_t> weights;
        if (!pool.shares.empty()) {
            for (std::size_t i = 0; i < units.size(); ++i)
                if (const auto it = pool.shares.find(units[i].unit_id); it != pool.shares.end()) {
                    members.push_back(i);
                    weights.push_back(it->second);
                }
            if (members.size() != pool.shares.size())
                throw invalid_argument(field, "names a unit no longer active", "A unit the shares name is no longer active.");
        } else if (pool.common_portion_id) {
            users->reset();
            bind_parameters(*users, *pool.common_portion_id, syndicate_id);
            std::vector<std::string> ids;
            while (users->executeStep()) ids.push_back(users->getColumn(0).getString());
            for (std::size_t i = 0; i < units.size(); ++i)
                if (units[i].fraction_units > 0 && std::find(ids.begin(), ids.end(), units[i].unit_id) != ids.end()) members.push_back(i);
            if (members.empty())
                throw invalid_argument(field, "names a common portion with no user unit",
                                       "The common portion " + *pool.common_portion_id +
                                           " has no user unit with a relative value: its costs cannot be shared among its users (art. 1064).");
        } else {
            for (std::size_t i = 0; i < units.size(); ++i)
                if (units[i].fraction_units > 0) members.push_back(i);
        }
        if (members.empty())
            throw invalid_argument(field, "has no unit to share among",
                                   "No unit has a relative value: record the units' fractions before sharing contributions (art. 1064).");
        if (pool.shares.empty())
            for (const auto i : members) weights.push_back(units[i].fraction_units);
        const auto shares = largest_remainder(pool.cents, weights);
        for (std::size_t k = 0; k < members.size(); ++k) {
            auto& u = units[members[k]];
            if (shares[k] == 0) continue;
            const char* basis = !pool.shares.empty() ? "resolution" : pool.common_portion_id ? "restricted-users" : "fractions";
            u.lines.push_back({pool.fund, basis, pool.common_portion_id, shares[k]});
            u.by_fund[pool.fund] += shares[k];
        }
    }
    std::erase_if(units, [](const UnitShare& u) { return u.fraction_units == 0 && u.lines.empty(); });
    return units;
}

}  // namespace syndic::funds
