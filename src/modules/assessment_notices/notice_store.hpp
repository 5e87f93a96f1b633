// The assessment notices as rows (assessment-notices 001) and as the tools show them: a notice with
// its lines, instalments (each with the charges it became) and what has been paid of it. Knows
// storage and the ledger's charges; not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::assessment_notices {

struct Notice {
    std::string id, number, kind, unit_id, status, language;
    int fiscal_year = 0;
    std::int64_t total_cents = 0;
    nlohmann::json addressees;  // [{coOwnerId, name, email, language}], primary first
};

// ASSESSMENT_NOTICE_NOT_FOUND at `field` unless the syndicate has it.
Notice require_notice(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field);

// The lot's addressees: its units' active co-owners, the primary first, then by name.
nlohmann::json addressees_of(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units);

// The next number of the fiscal year: "2027-001", "2027-002"...
std::string next_number(Database& db, const std::string& syndicate_id, int fiscal_year);

// The numbers of the fiscal year's draft notices (accounting's close_fiscal_year asks: no year
// closes with drafts).
std::vector<std::string> draft_numbers(Database& db, const std::string& syndicate_id, int fiscal_year);

// The notice as the tools show it.
nlohmann::json notice_json(Database& db, const std::string& syndicate_id, const std::string& id);

}  // namespace syndic::assessment_notices
