#include "core/largest_remainder.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace syndic {

std::vector<std::int64_t> largest_remainder(std::int64_t total, const std::vector<std::int64_t>& weights) {
    const __int128 sum = std::accumulate(weights.begin(), weights.end(), __int128{0});
    std::vector<std::int64_t> shares(weights.size(), 0);
    if (sum == 0) return shares;
    std::vector<std::pair<__int128, std::size_t>> remainders;
    __int128 given = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const __int128 product = static_cast<__int128>(total) * weights[i];
        shares[i] = static_cast<std::int64_t>(product / sum);
        given += shares[i];
        remainders.emplace_back(product % sum, i);
    }
    std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; given < total && k < remainders.size(); ++k, ++given) ++shares[remainders[k].second];
    return shares;
}

}  // namespace syndic
