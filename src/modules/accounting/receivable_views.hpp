// Charges, payments and standings as the tools show them (catalogue §4.4 records): shared by
// record_payment, reverse_payment, get_owner_statement, list_arrears and apply_late_interest.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "modules/accounting/standing.hpp"

namespace syndic {
class Database;
}

namespace syndic::accounting {

// The Standing record: balanceCents, overdueCents, overdueCommonExpenseCents, overdueSince...
nlohmann::json standing_json(const Standing& s);

// The Payment record, with its allocations by charge (each with its funds) and what is unapplied.
nlohmann::json payment_json(Database& db, const std::string& syndicate_id, const std::string& payment_id);

// The Charge record (paidCents and status as the books stand now).
nlohmann::json charge_json(Database& db, const std::string& syndicate_id, const std::string& charge_id);

// Aging buckets of what is past due by days past its due date (Condo Manager practice).
struct Aging {
    std::int64_t days0to30 = 0, days31to60 = 0, days61to90 = 0, over90 = 0;
    void add(int days, std::int64_t cents);
    void add(const Aging& o);
    nlohmann::json to_json() const;
};
// The buckets of the charges' unpaid amounts past due on `as_of`.
Aging aging_of(const std::vector<ChargeOnDay>& charges, const std::string& as_of);

// The unit's number, for the rows that name a unit ("" when none).
std::string unit_number(Database& db, const std::string& unit_id);

}  // namespace syndic::accounting
