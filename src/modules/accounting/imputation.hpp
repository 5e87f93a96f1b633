// The imputation of a payment (arts. 1569-1572, catalogue §4.4 record_payment): which debts it pays,
// in which order, and each debt's share by fund. plan_imputation is pure (the order alone);
// post_imputation writes it (allocations and their journal entry); apply_credit lets a lot's
// unapplied payments pay the debts that arose since. Not JSON-RPC.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "modules/accounting/ledger.hpp"
#include "modules/accounting/receivables.hpp"

namespace syndic::accounting {

struct Allocation {
    std::string charge_id, unit_id, fund;
    std::int64_t cents = 0;
};

struct ImputationRequest {
    std::int64_t amount_cents = 0;
    std::string day;                        // the payment's receivedOn: what is due by then is due
    std::vector<std::string> designated;    // the debtor's designation, in its order (art. 1569)
    bool creditor_consent = false;          // the syndicate agrees to a debt not yet due first
};

struct Imputation {
    std::vector<Allocation> allocations;    // in the order imputed, a row per charge and fund
    std::int64_t unapplied_cents = 0;       // the credit left
};

// The order of the Code over `debts` (updated: what is imputed is no longer unpaid). A designated
// id must be among the debts (the caller checks whose they are); a designated debt not yet due
// while a due one is unpaid is CHARGE_NOT_DUE at /designatedChargeIds/<i> without consent.
// - designated debts first, each after its own interest (art. 1570);
// - then common-expense debts due by `day`, oldest due date first, interest before capital, an
//   equal date shared pro rata (art. 1572);
// - then the other due debts (fees, penalties...), oldest first, an equal date pro rata;
// - then debts not yet due, earliest first;
// - within a debt, its funds in proportion to what is unpaid of each (art. 1572). Cents shared
//   pro rata go by largest remainder, so the shares add up exactly.
Imputation plan_imputation(std::vector<Debt>& debts, const ImputationRequest& request);

// Where the money imputed comes from: the deposit bank account on receipt, or the operating
// fund's prepayments account when a credit is applied.
struct MoneySource {
    Account account;
    std::string day, description, entry_source;  // the entry's date, description, source
    std::optional<std::string> unit_id, co_owner_id;
};

// Posts the imputation of a payment: the receivables credited per charge, the money source debited,
// interfund lines where a charge's fund is not the source's, and the unapplied cents (on receipt)
// credited to prepayments; returns the entry's id.
std::string post_imputation(Database& db, const std::string& syndicate_id, const MoneySource& source, const Imputation& imputation,
                            const std::string& now);
// Records the imputation's allocations for the payment, applied on `day` by `entry_id`, numbered in
// the payment's order after `last_seq`.
void record_allocations(Database& db, const std::string& payment_id, const Imputation& imputation, std::int64_t last_seq,
                        const std::string& day, const std::string& entry_id);

// Lets the unapplied cents of the lot's posted payments received by `day` (oldest first) pay the
// debts it owed on `day`; a payment with nothing unapplied is left alone.
void apply_credit(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& day,
                  const std::string& now);
// Undoes what the lot's payments' credit paid after `day` (applied later than received), so that it
// is planned again in order: each such application's entry countered on its own day and its
// allocations released that day (they never count at any day).
void unapply_credit_after(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& day,
                          const std::string& now);
// unapply_credit_after `day`, then apply_credit on `day` and on each later day a charge of the lot
// was posted, a payment received or a cancelled charge gave one back, in order: credit meets each
// debt on the first day both exist, whatever order the calls came in.
void apply_credit_from(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& day,
                       const std::string& now);

}  // namespace syndic::accounting
