// Whether a professional preparing a report for the syndicate is independent of it (Reg. 991-2025:
// the maintenance logbook's preparer and reviser, the contingency fund study's preparer): not a
// director in office, the manager under a mandate in force (nor of the manager's firm), nor a
// co-owner. Names are compared folded (case, accents and punctuation aside). Asked by the logbook
// (record_logbook_revision) and the funds (record_fund_study); reads the board's directors and
// mandates and the co-owners, never writes them. Not JSON.
#pragma once
#include <optional>
#include <string>

namespace syndic {
class Database;
}

namespace syndic::governance {

// What the person named `name` (of `firm`, when given) is to the syndicate on `day`: "a director in
// office", "the syndicate's manager", "of the manager's firm" or "a co-owner"; nullopt when none.
std::optional<std::string> preparer_conflict(Database& db, const std::string& syndicate_id, const std::string& name,
                                             const std::optional<std::string>& firm, const std::string& day);

}  // namespace syndic::governance
