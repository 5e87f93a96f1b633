#include "modules/insurance/perils.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace syndic::insurance {

bool excluded_peril(const std::string& peril) {
    const auto folded = fold_for_search(peril);
    for (const char* word : {"earthquake", "seisme", "tremblement", "flood", "inondation", "crue"})
        if (folded.find(word) != std::string::npos) return true;
    return false;
}

std::int64_t highest_deductible(const nlohmann::json& coverages) {
    std::int64_t best = 0;
    for (const auto& c : coverages)
        if (!excluded_peril(c.value("peril", std::string())))
            best = std::max(best, c.value("deductibleCents", std::int64_t{0}));
    return best;
}

std::int64_t deductible_for(const nlohmann::json& coverages, const std::string& peril) {
    const auto wanted = fold_for_search(peril);
    std::int64_t highest = 0;
    for (const auto& c : coverages) {
        const auto cents = c.value("deductibleCents", std::int64_t{0});
        highest = std::max(highest, cents);
        const auto folded = fold_for_search(c.value("peril", std::string()));
        if (!wanted.empty() && !folded.empty() && (folded.find(wanted) != std::string::npos || wanted.find(folded) != std::string::npos))
            return cents;
    }
    return highest;
}

}  // namespace syndic::insurance
