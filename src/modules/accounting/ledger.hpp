// The ledger (catalogue §4.4): the three funds' accounts, entries posted whole (numbered, dated in
// an open fiscal year, balanced within each fund) and read back as the tools show them. Every
// tool that posts (manual entries today; charges, payments, expenses later) goes through
// post_entry. Knows storage and the declaration's fiscal year; not JSON-RPC.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::accounting {

inline constexpr const char* funds[] = {"operating", "contingency", "self-insurance"};

struct Account {
    std::string id, fund, code, name, type;
    std::optional<std::string> role;  // a system account's part in the books
    bool system = false, is_bank = false;
};

// The account of the syndicate, or ACCOUNT_NOT_FOUND at `field`.
Account require_account(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field);
// The fund's system account of `role` (bank, receivables, interfund...): every chart has one.
Account system_account(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& role);

// The fiscal year a day falls in, named by the calendar year it starts in, and its bounds.
struct FiscalYear {
    int year = 0;
    std::string starts_on, ends_on;
};
FiscalYear fiscal_year_of(Database& db, const std::string& syndicate_id, const std::string& day);
// PERIOD_LOCKED at `field` when `day` falls in a closed fiscal year; its fiscal year otherwise.
FiscalYear require_open_period(Database& db, const std::string& syndicate_id, const std::string& day, const std::string& field);

struct Line {
    Account account;
    std::int64_t debit_cents = 0, credit_cents = 0;
    std::optional<std::string> unit_id, co_owner_id, contractor_id, project_id, charge_id;
};

// A line debiting or crediting the account, untagged.
inline Line make_line(Account account, std::int64_t debit_cents, std::int64_t credit_cents) {
    Line l;
    l.account = std::move(account);
    l.debit_cents = debit_cents;
    l.credit_cents = credit_cents;
    return l;
}

struct EntryDraft {
    std::string date, description, source;
    std::vector<Line> lines;
    std::optional<std::string> reverses_entry_id, fund_use_authorization_id;
};

// UNBALANCED_ENTRY (data.fund, data.differenceCents = debits - credits) unless the lines balance
// within each fund.
void require_balanced(const std::vector<Line>& lines);

// Posts the entry (its fiscal year checked open at /date, its lines balanced); returns its id.
std::string post_entry(Database& db, const std::string& syndicate_id, const EntryDraft& draft, const std::string& now);

// Posts the counter-entry of `entry_id` (each line's debit and credit swapped, its tags kept),
// dated `date` in an open year (PERIOD_LOCKED at `field`); returns its id.
std::string post_counter_entry(Database& db, const std::string& syndicate_id, const std::string& entry_id, const std::string& date,
                               const std::string& description, const std::string& source, const std::string& field,
                               const std::string& now);

// The account's balance (debits less credits) over the entries dated on or before `as_of`.
std::int64_t account_balance(Database& db, const std::string& account_id, const std::string& as_of);

// What debits less credits the account had from `from` to `to` (days, both included), closing
// entries aside: a closed year's income and expenses still show what it earned and spent.
std::int64_t account_activity(Database& db, const std::string& account_id, const std::string& from, const std::string& to);

// A fund's figures on a day: its net assets (its asset accounts less its liabilities: what the
// fund holds, receivables and what the other funds owe it included), its cash (its bank accounts)
// and its interfund balance (positive: the other funds owe it).
struct FundBalances {
    std::int64_t net_assets_cents = 0, cash_cents = 0, interfund_cents = 0;
    std::int64_t payables_cents = 0;  // what the fund owes its suppliers (invoices booked, holdbacks kept), unpaid
};
FundBalances fund_balances(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& as_of);

// The warning a fund gets while it has no bank account of its own (arts. 1071, 1071.1: a
// recommendation, never a refusal); nullopt when it has one.
std::optional<std::string> own_bank_warning(Database& db, const std::string& syndicate_id, const std::string& fund);

// An entry with its lines, as list_transactions and record_journal_entry show it.
nlohmann::json entry_json(Database& db, const std::string& syndicate_id, const std::string& entry_id);

}  // namespace syndic::accounting
