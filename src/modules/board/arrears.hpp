// Art. 1086 and art. 339 as the board applies them, apart from the tools so that they can be tested
// on any standing (the accounts answer "entitled" until the accounting batch): a co-owner director
// or manager who neglects to pay contributions may be replaced by the syndicate, a flag that never
// ends or refuses a mandate by itself, unless a by-law clause (arrearsMakeIneligible) bars them;
// and the length of a term when the by-laws are silent. Knows the declaration's board parameters
// and accounting's Standing; not JSON.
#pragma once
#include <optional>
#include <string>

#include "modules/accounting/standing.hpp"
#include "modules/declaration/parameters.hpp"

namespace syndic::board {

// Art. 1086 as a flag: a co-owner director or manager who neglects to pay their contributions may
// be replaced by the syndicate; nothing ends or refuses by itself. In arrears from the day the
// accounts say their arrears began (Standing's overdueSince), with no minimum delay.
struct ArrearsFlags {
    bool in_arrears = false;
    std::optional<std::string> arrears_since;
    bool replaceable() const { return in_arrears; }
};
// The flags of a standing (an entitled standing with no overdueSince is not in arrears).
ArrearsFlags arrears_flags(const accounting::Standing& standing, const std::string& as_of);
// The co-owner's flags on `as_of`, asked of the accounts.
ArrearsFlags co_owner_arrears(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                              const std::string& as_of);
// DIRECTOR_DISQUALIFIED at `field` (data.arrearsSince) when a by-law clause bars a co-owner in
// arrears (declaration.arrearsMakeIneligible) and `flags` says they are; nothing otherwise.
void check_eligible(const declaration::BoardParameters& rules, const ArrearsFlags& flags, const std::string& name,
                    const std::string& field);
// endReason disqualified is for a director in arrears under such a clause; VALIDATION_FAILED at
// `field` otherwise (art. 1086 alone disqualifies no one: replacing them is an ordinary end).
void check_disqualified_reason(const declaration::BoardParameters& rules, const ArrearsFlags& flags, const std::string& name,
                               const std::string& field);
// The term a mandate has when none is given: termStart plus the declaration's directorTermYears,
// 1 year when the by-laws are silent (art. 339); 29 February gives 28 February.
std::string default_term_end(const declaration::BoardParameters& rules, const std::string& term_start);

}  // namespace syndic::board
