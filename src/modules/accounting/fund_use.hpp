// The gate of the contingency and self-insurance funds (arts. 1071, 1071.1, catalogue §4.4 and
// §4.6, link L14): money leaves them only under an authorisation the board gave for a use the law
// allows, up to its amount. The ledger keeps the authorisations (the funds module's
// authorize_fund_use decides them) and what each entry used of one. Knows storage; not JSON-RPC.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "modules/accounting/ledger.hpp"

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct FundUseAuthorization {
    std::string id, fund, purpose, use_kind, resolution_id, status, created_at, updated_at;
    std::optional<std::string> project_id, insurance_claim_id;
    std::int64_t amount_cents = 0, used_cents = 0;
    // A used authorisation (spent whole, or its project closed) allows nothing more.
    std::int64_t remaining_cents() const { return status == "authorized" ? amount_cents - used_cents : 0; }
};

// FUND_USE_AUTHORIZATION_NOT_FOUND at `field` unless the syndicate has it.
FundUseAuthorization require_authorization(Database& db, const std::string& syndicate_id, const std::string& id,
                                           const std::string& field);

// What the fund's authorisations still allowed at the end of the Montreal day `as_of` (those given by
// then, less the uses posted by then): the "authorised unused uses".
std::int64_t authorized_unused(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& as_of);

// What the protected fund may pay, as a refusal says it: "the contingency fund pays only major
// repairs and replacements of common portions (art. 1071)", or the self-insurance fund's.
std::string use_of(const std::string& fund);

// Records an authorisation the board gave (its checks are the caller's); returns its id.
std::string record_authorization(Database& db, const std::string& syndicate_id, const FundUseAuthorization& draft,
                                 const std::string& now);

// What an entry takes out of each of the two protected funds (0 for a fund it does not touch):
// what it takes from the fund's resources (a net debit to its expense, income and equity
// accounts), or the money its assets pay out (a net credit to its bank and other asset accounts,
// interfund and receivables aside), the larger, less what repays the fund's debt to the other
// funds through its interfund account. Opening entries state balances: nothing leaves.
std::map<std::string, std::int64_t> money_leaving(Database& db, const std::string& syndicate_id, const EntryDraft& draft);

// Refuses an entry taking money from a protected fund without an authorisation of that fund
// (FUND_USE_NOT_ALLOWED at /lines, data.fund, data.cents), or beyond what it still allows
// (FUND_USE_EXCEEDED at `field`, data.remainingCents). Returns what the entry uses of it.
std::int64_t require_fund_use_allowed(Database& db, const std::string& syndicate_id, const EntryDraft& draft,
                                      const std::optional<FundUseAuthorization>& authorization, const std::string& field);

// Records that `entry_id` used `cents` of the authorisation; it is `used` once nothing remains.
void record_fund_use(Database& db, const FundUseAuthorization& authorization, const std::string& entry_id, std::int64_t cents,
                     const std::string& now);

// The authorisations given for the project `project_id` become `used` (the project closed: what
// they did not pay is no longer authorised).
void use_up_project_authorizations(Database& db, const std::string& syndicate_id, const std::string& project_id, const std::string& now);

}  // namespace syndic::accounting
