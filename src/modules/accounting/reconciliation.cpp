// reconcile_bank_account (catalogue §4.4): a bank account's book balance on a statement's day
// matched with the bank's statement. The entries the bank cleared are named; the others on the
// account by that day are uncleared (deposits in transit, cheques outstanding), and the statement
// must equal the book less them. Finalised, the reconciliation is kept with what it cleared, and the
// next starts from it: the entries still uncleared stay to be cleared later.
#include <SQLiteCpp/Statement.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

struct BankMovement {
    std::string entry_id, date, description;
    std::int64_t number = 0, cents = 0;  // the entry's net debit of the account
};

// The account's movements dated on or before `day` that no finalised reconciliation cleared, by date.
std::vector<BankMovement> uncleared_movements(Database& db, const std::string& account_id, const std::string& day) {
    auto q = db.prepare(
        "SELECT e.id, e.entry_date, e.description, e.number, sum(l.debit_cents - l.credit_cents) FROM journal_lines l "
        "JOIN journal_entries e ON e.id = l.entry_id WHERE l.account_id = ?1 AND e.entry_date <= ?2 AND NOT EXISTS ("
        "SELECT 1 FROM bank_cleared_entries c WHERE c.account_id = ?1 AND c.entry_id = e.id) "
        "GROUP BY e.id HAVING sum(l.debit_cents - l.credit_cents) <> 0 ORDER BY e.entry_date, e.number");
    bind_parameters(*q, account_id, day);
    std::vector<BankMovement> out;
    while (q->executeStep())
        out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(), q->getColumn(3).getInt64(),
                       q->getColumn(4).getInt64()});
    return out;
}

// The last finalised reconciliation of the account: its day and the statement's balance.
std::optional<std::pair<std::string, std::int64_t>> last_reconciliation(Database& db, const std::string& account_id) {
    auto q = db.prepare(
        "SELECT statement_date, statement_balance_cents FROM bank_reconciliations WHERE account_id = ? ORDER BY statement_date DESC LIMIT 1");
    bind_parameters(*q, account_id);
    if (!q->executeStep()) return std::nullopt;
    return std::make_pair(q->getColumn(0).getString(), q->getColumn(1).getInt64());
}

// The named entries, each among the account's open movements (by index in `open`).
std::set<std::size_t> cleared_of(const Arguments& a, const std::vector<BankMovement>& open, const std::string& day) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < open.size(); ++i) index[open[i].entry_id] = i;
    std::set<std::size_t> out;
    const auto ids = a.texts("clearedEntryIds");
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto it = index.find(ids[i]);
        if (it == index.end())
            throw invalid_argument("/clearedEntryIds/" + std::to_string(i), "is not an uncleared entry of the account by the statement's day",
                                   "The entry " + ids[i] + " does not move this account on or before " + day +
                                       ", or a finalised reconciliation cleared it already.");
        out.insert(it->second);
    }
    return out;
}

// Keeps the reconciliation and what it cleared; returns its id.
std::string keep_reconciliation(const ToolCall& call, const Account& account, const std::string& day, std::int64_t statement, std::int64_t book,
                     std::int64_t uncleared, const std::vector<BankMovement>& open, const std::set<std::size_t>& cleared) {
    require_open_period(call.db, call.caller.syndicate_id, day, "/statementDate");
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO bank_reconciliations (id, syndicate_id, account_id, statement_date, statement_balance_cents, book_balance_cents, "
        "uncleared_cents, created_at, last_entry_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
        "(SELECT coalesce(max(number), 0) FROM journal_entries WHERE syndicate_id = ?2))");
    bind_parameters(*q, id, call.caller.syndicate_id, account.id, day, statement, book, uncleared, to_utc_iso(call.clock.now()));
    q->exec();
    auto c = call.db.prepare("INSERT INTO bank_cleared_entries (account_id, entry_id, reconciliation_id, cents) VALUES (?, ?, ?, ?)");
    for (const auto i : cleared) {
        c->reset();
        bind_parameters(*c, account.id, open[i].entry_id, id, open[i].cents);
        c->exec();
    }
    call.name_event("bank.reconciled", "account", account.id);
    return id;
}

}  // namespace

json reconcile_bank_account(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto account = require_account(call.db, syndicate, a.text("accountId"), "/accountId");
    if (!account.is_bank)
        throw DomainError("NOT_A_BANK_ACCOUNT", "The account " + account.code + " (" + account.name + ") is not a bank account: only a bank "
                                                "account has a statement to reconcile.")
            .at("/accountId");
    const auto day = *date_argument(a, "statementDate");
    if (day > today(call))
        throw invalid_argument("/statementDate", "is after today", "A bank statement is of a day that has come; " + day + " is after today.");
    const auto previous = last_reconciliation(call.db, account.id);
    if (previous && day <= previous->first)
        throw invalid_argument("/statementDate", "is not after the last reconciliation",
                               "The account was reconciled to " + previous->first + ": the next statement is of a later day.");
    const auto open = uncleared_movements(call.db, account.id, day);
    const auto cleared = cleared_of(a, open, day);
    const auto statement = a.integer("statementBalanceCents");
    const auto book = account_balance(call.db, account.id, day);
    std::int64_t uncleared = 0, cleared_cents = 0;
    json outstanding = json::array();
    for (std::size_t i = 0; i < open.size(); ++i) {
        if (cleared.count(i)) {
            cleared_cents += open[i].cents;
            continue;
        }
        uncleared += open[i].cents;
        outstanding.push_back({{"entryId", open[i].entry_id}, {"number", open[i].number}, {"date", open[i].date},
                               {"description", open[i].description}, {"amountCents", open[i].cents}});
    }
    const auto difference = statement - (book - uncleared);
    std::optional<std::string> id;
    if (a.flag("finalize", false)) {
        if (difference != 0)
            throw DomainError("RECONCILIATION_UNBALANCED", "The statement shows " + std::to_string(statement) + " cents; the books less what the bank "
                                                           "has not cleared show " + std::to_string(book - uncleared) + ": " +
                                                           std::to_string(difference) + " cents apart. Find the missing entry or the "
                                                           "cleared one left out before finalising.")
                .at("/statementBalanceCents")
                .with("differenceCents", difference);
        id = keep_reconciliation(call, account, day, statement, book, uncleared, open, cleared);
    }
    return {{"accountId", account.id},
            {"accountCode", account.code},
            {"accountName", account.name},
            {"fund", account.fund},
            {"statementDate", day},
            {"statementBalanceCents", statement},
            {"bookBalanceCents", book},
            {"clearedCents", cleared_cents},
            {"unclearedCents", uncleared},
            {"differenceCents", difference},
            {"balanced", difference == 0},
            {"finalized", id.has_value()},
            {"reconciliationId", id ? json(*id) : json(nullptr)},
            {"previous", previous ? json{{"statementDate", previous->first}, {"statementBalanceCents", previous->second}} : json(nullptr)},
            {"unclearedEntries", std::move(outstanding)}};
}

}  // namespace syndic::accounting
