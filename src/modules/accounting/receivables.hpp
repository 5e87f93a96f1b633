// What the units owe (catalogue §4.4): lots, charges and the debts still open. A lot is a unit
// with the linked parking and storage units that have no co-owner of their own; its charges are
// one debtor's, and a payment on any of its units pays them. A charge is posted whole (receivable
// against income, per fund) and takes the lot's credit at once. Knows storage and the ledger; not
// JSON-RPC.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::co_owners {
struct Persons;
}

namespace syndic::accounting {

// The unit heading the lot of `unit_id`: the unit it is linked to when it has no active co-owner
// of its own, else itself.
std::string lot_root(Database& db, const std::string& syndicate_id, const std::string& unit_id);
// The units of the lot `root` heads: itself first, then its linked units without a co-owner.
std::vector<std::string> lot_units(Database& db, const std::string& syndicate_id, const std::string& root);
// Every lot of the syndicate at once, as lot_root and lot_units answer them one at a time (a
// voting roll asks for all of them).
struct Lots {
    std::map<std::string, std::string> root_of;                // unit -> the unit heading its lot
    std::map<std::string, std::vector<std::string>> linked_of;  // root -> its linked units without a co-owner
    std::string root(const std::string& unit_id) const;
    std::vector<std::string> units(const std::string& root) const;  // lot_units
};
Lots syndicate_lots(Database& db, const std::string& syndicate_id);
// The lots the person of `co_owner_id` holds (records joined by samePersonAs; the record itself and
// the person's active records), `persons` being the register's (co_owners::persons_of).
std::vector<std::string> person_lots(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                                     const co_owners::Persons& persons);

// Kinds that are common expenses (arts. 1094, 1086, 2729): regular and special contributions.
bool is_common_expense(const std::string& kind);

struct FundShare {
    std::string fund;
    std::int64_t cents = 0;
};

struct ChargeDraft {
    std::string unit_id, kind, description, posted_on, due_on;
    std::string entry_source;  // the journal entry's source: assessment, interest, fee, penalty...
    std::optional<std::string> source_type, source_id, assessment_notice_id;
    std::vector<FundShare> funds;  // at least one share above 0 cents
};

// Posts the charge (its entry dated posted_on, in an open year: PERIOD_LOCKED at /date), then lets
// the lot's credit pay it; returns its id.
std::string create_charge(Database& db, const std::string& syndicate_id, const ChargeDraft& draft, const std::string& now);

// A charge still owed, as the imputation reads it: what is unpaid of each of its funds.
struct Debt {
    std::string id, unit_id, kind, due_on, description;
    std::int64_t amount_cents = 0;
    std::optional<std::string> principal_id;       // an interest charge's principal
    std::optional<std::string> principal_due_on;   // ... its due date
    std::optional<std::string> principal_kind;     // ... and its kind
    std::map<std::string, std::int64_t> unpaid;    // by fund, above 0
    std::int64_t outstanding() const;
};

// The open debts of the units on `day` (posted by then, not cancelled, not fully paid by posted
// payments), by due date then id: a payment received on a day pays only what was owed by then. Read
// among the charges not settled for good (migration 010), as every charge once paid is.
std::vector<Debt> open_debts(Database& db, const std::string& syndicate_id, const std::vector<std::string>& unit_ids,
                             const std::string& day);

// A JSON array of ids, as queries take a set ("... IN (SELECT value FROM json_each(?))").
std::string id_set(const std::vector<std::string>& ids);

}  // namespace syndic::accounting
