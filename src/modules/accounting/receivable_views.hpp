// Charges, payments and standings as the tools show them (catalogue §4.4 records): shared by
// record_payment, reverse_payment, get_owner_statement, list_arrears and apply_late_interest.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

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

// The unit's number, for the rows that name a unit ("" when none).
std::string unit_number(Database& db, const std::string& unit_id);

}  // namespace syndic::accounting
