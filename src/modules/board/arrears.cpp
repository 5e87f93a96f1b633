// Art. 1086 as a flag and art. 339's default term (board/arrears.hpp).
#include "modules/board/arrears.hpp"

#include <chrono>
#include <cstdio>

#include "core/error.hpp"
#include "modules/board/codes.hpp"

namespace syndic::board {

ArrearsFlags arrears_flags(const accounting::Standing& standing, const std::string& as_of) {
    if (standing.entitled() && !standing.overdue_since) return {};
    return {true, standing.overdue_since.value_or(as_of)};
}

ArrearsFlags co_owner_arrears(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                              const std::string& as_of) {
    return arrears_flags(accounting::co_owner_standing(db, syndicate_id, co_owner_id, as_of), as_of);
}

void check_eligible(const declaration::BoardParameters& rules, const ArrearsFlags& flags, const std::string& name,
                    const std::string& field) {
    if (!flags.in_arrears || !rules.arrears_make_ineligible) return;
    throw DomainError(codes::director_disqualified,
                      name + " has owed common expenses since " + *flags.arrears_since +
                          ", and the declaration's by-laws bar a co-owner in arrears from the board (arrearsMakeIneligible).")
        .at(field)
        .with("arrearsSince", *flags.arrears_since);
}

void check_disqualified_reason(const declaration::BoardParameters& rules, const ArrearsFlags& flags, const std::string& name,
                               const std::string& field) {
    if (flags.in_arrears && rules.arrears_make_ineligible) return;
    throw invalid_argument(field, "is disqualified only under arrearsMakeIneligible",
                           !flags.in_arrears
                               ? name + " is not in arrears: endReason disqualified does not apply."
                               : "The declaration has no by-law clause barring a co-owner in arrears (arrearsMakeIneligible): " +
                                     name + " may be replaced (art. 1086), an ordinary end of mandate (removal, "
                                            "resignation or term), not disqualified.");
}

std::string default_term_end(const declaration::BoardParameters& rules, const std::string& term_start) {
    int y = 0;
    unsigned m = 0, d = 0;
    std::sscanf(term_start.c_str(), "%d-%u-%u", &y, &m, &d);
    using namespace std::chrono;
    year_month_day later{year{y + static_cast<int>(rules.term_years.value_or(1))}, month{m}, day{d}};
    if (!later.ok()) later = year_month_day{later.year() / later.month() / last};  // 29 February
    char out[16];
    std::snprintf(out, sizeof out, "%04d-%02u-%02u", static_cast<int>(later.year()), static_cast<unsigned>(later.month()),
                  static_cast<unsigned>(later.day()));
    return out;
}

}  // namespace syndic::board
