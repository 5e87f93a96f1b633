#include "modules/accounting/ledger.hpp"

#include <SQLiteCpp/Statement.h>

#include <map>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

constexpr const char* account_columns = "id, fund, code, name, type, role, system, is_bank";

Account read_account(SQLite::Statement& q) {
    Account a;
    a.id = q.getColumn(0).getString();
    a.fund = q.getColumn(1).getString();
    a.code = q.getColumn(2).getString();
    a.name = q.getColumn(3).getString();
    a.type = q.getColumn(4).getString();
    a.role = optional_text(q, 5);
    a.system = q.getColumn(6).getInt64() != 0;
    a.is_bank = q.getColumn(7).getInt64() != 0;
    return a;
}

}  // namespace

Account require_account(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    auto q = db.prepare(std::string("SELECT ") + account_columns + " FROM accounts WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("accounts", id, field);
    return read_account(*q);
}

Account system_account(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& role) {
    auto q = db.prepare(std::string("SELECT ") + account_columns + " FROM accounts WHERE syndicate_id = ? AND fund = ? AND role = ?");
    bind_parameters(*q, syndicate_id, fund, role);
    if (!q->executeStep()) throw std::logic_error("the " + fund + " fund's chart has no " + role + " account");
    return read_account(*q);
}

FiscalYear fiscal_year_of(Database& db, const std::string& syndicate_id, const std::string& day) {
    const auto start = declaration::fiscal_year_start(db, syndicate_id);  // "MM-DD"
    int year = std::stoi(day.substr(0, 4));
    if (day.substr(5) < start) --year;
    // A year ends the day before the next starts.
    return {year, std::to_string(year) + "-" + start, add_calendar_days(std::to_string(year + 1) + "-" + start, -1)};
}

FiscalYear require_open_period(Database& db, const std::string& syndicate_id, const std::string& day, const std::string& field) {
    const auto fy = fiscal_year_of(db, syndicate_id, day);
    // A closed year locks every day up to its end, the years before it included (years close in
    // order; balances carry, so an entry before a closed year changes its figures).
    auto q = db.prepare(
        "SELECT fiscal_year, starts_on, ends_on FROM fiscal_year_closures WHERE syndicate_id = ? AND ends_on >= ? "
        "ORDER BY ends_on DESC LIMIT 1");
    bind_parameters(*q, syndicate_id, day);
    if (q->executeStep())
        throw DomainError(codes::period_locked, "The fiscal year " + std::to_string(q->getColumn(0).getInt64()) + " (" +
                                                    q->getColumn(1).getString() + " to " + q->getColumn(2).getString() +
                                                    ") is closed, and " + day + " falls on or before its end: nothing is posted there any more.")
            .at(field)
            .with("fiscalYear", q->getColumn(0).getInt64());
    return fy;
}

void require_balanced(const std::vector<Line>& lines) {
    std::map<std::string, std::int64_t> difference;  // per fund: debits - credits
    for (const auto& l : lines) difference[l.account.fund] += l.debit_cents - l.credit_cents;
    for (const char* fund : funds) {
        const auto it = difference.find(fund);
        if (it == difference.end() || it->second == 0) continue;
        throw DomainError(codes::unbalanced_entry,
                          "The " + std::string(fund) + " fund's lines do not balance: debits exceed credits by " +
                              std::to_string(it->second) +
                              " cents (negative: credits exceed debits). Each fund balances on its own; money crossing "
                              "funds goes through each fund's interfund account.")
            .at("/lines")
            .with("fund", std::string(fund))
            .with("differenceCents", it->second);
    }
}

std::string post_entry(Database& db, const std::string& syndicate_id, const EntryDraft& draft, const std::string& now) {
    const auto fy = require_open_period(db, syndicate_id, draft.date, "/date");
    require_balanced(draft.lines);
    auto next = db.prepare("SELECT coalesce(max(number), 0) + 1 FROM journal_entries WHERE syndicate_id = ?");
    bind_parameters(*next, syndicate_id);
    next->executeStep();
    const auto number = next->getColumn(0).getInt64();
    const auto id = new_record_id();
    auto entry = db.prepare(
        "INSERT INTO journal_entries (id, syndicate_id, number, entry_date, description, source, reverses_entry_id, fiscal_year, "
        "fund_use_authorization_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*entry, id, syndicate_id, number, draft.date, draft.description, draft.source, draft.reverses_entry_id,
                    static_cast<std::int64_t>(fy.year), draft.fund_use_authorization_id, now);
    entry->exec();
    auto line = db.prepare(
        "INSERT INTO journal_lines (entry_id, line_no, syndicate_id, account_id, fund, debit_cents, credit_cents, unit_id, "
        "co_owner_id, contractor_id, project_id, charge_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::int64_t n = 0;
    for (const auto& l : draft.lines) {
        line->reset();
        bind_parameters(*line, id, ++n, syndicate_id, l.account.id, l.account.fund, l.debit_cents, l.credit_cents, l.unit_id,
                        l.co_owner_id, l.contractor_id, l.project_id, l.charge_id);
        line->exec();
    }
    return id;
}

std::string post_counter_entry(Database& db, const std::string& syndicate_id, const std::string& entry_id, const std::string& date,
                               const std::string& description, const std::string& source, const std::string& field,
                               const std::string& now) {
    require_open_period(db, syndicate_id, date, field);
    EntryDraft draft{date, description, source, {}, entry_id, std::nullopt};
    auto q = db.prepare(
        "SELECT account_id, debit_cents, credit_cents, unit_id, co_owner_id, contractor_id, project_id, charge_id FROM journal_lines "
        "WHERE entry_id = ? ORDER BY line_no");
    bind_parameters(*q, entry_id);
    while (q->executeStep()) {
        auto l = make_line(require_account(db, syndicate_id, q->getColumn(0).getString(), field), q->getColumn(2).getInt64(),
                           q->getColumn(1).getInt64());
        l.unit_id = optional_text(*q, 3);
        l.co_owner_id = optional_text(*q, 4);
        l.contractor_id = optional_text(*q, 5);
        l.project_id = optional_text(*q, 6);
        l.charge_id = optional_text(*q, 7);
        draft.lines.push_back(std::move(l));
    }
    return post_entry(db, syndicate_id, draft, now);
}

std::int64_t account_balance(Database& db, const std::string& account_id, const std::string& as_of) {
    auto q = db.prepare(
        "SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "WHERE l.account_id = ? AND e.entry_date <= ?");
    bind_parameters(*q, account_id, as_of);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

std::int64_t account_activity(Database& db, const std::string& account_id, const std::string& from, const std::string& to) {
    auto q = db.prepare(
        "SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "WHERE l.account_id = ? AND e.entry_date BETWEEN ? AND ? AND e.source <> 'closing'");
    bind_parameters(*q, account_id, from, to);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

FundBalances fund_balances(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& as_of) {
    auto q = db.prepare(
        "SELECT coalesce(sum(CASE WHEN a.type IN ('asset', 'liability') THEN l.debit_cents - l.credit_cents END), 0), "
        "coalesce(sum(CASE WHEN a.is_bank = 1 THEN l.debit_cents - l.credit_cents END), 0), "
        "coalesce(sum(CASE WHEN a.role = 'interfund' THEN l.debit_cents - l.credit_cents END), 0), "
        "coalesce(sum(CASE WHEN a.role = 'payables' THEN l.credit_cents - l.debit_cents END), 0) "
        "FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id JOIN accounts a ON a.id = l.account_id "
        "WHERE l.syndicate_id = ? AND l.fund = ? AND e.entry_date <= ?");
    bind_parameters(*q, syndicate_id, fund, as_of);
    q->executeStep();
    return {q->getColumn(0).getInt64(), q->getColumn(1).getInt64(), q->getColumn(2).getInt64(), q->getColumn(3).getInt64()};
}

json entry_json(Database& db, const std::string& syndicate_id, const std::string& entry_id) {
    auto q = db.prepare(
        "SELECT id, number, entry_date, description, source, reverses_entry_id, fiscal_year, fund_use_authorization_id, created_at "
        "FROM journal_entries WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, entry_id, syndicate_id);
    if (!q->executeStep()) throw std::logic_error("no journal entry " + entry_id);
    json e = {{"id", q->getColumn(0).getString()},
              {"number", q->getColumn(1).getInt64()},
              {"date", q->getColumn(2).getString()},
              {"description", q->getColumn(3).getString()},
              {"source", q->getColumn(4).getString()},
              {"reversesEntryId", nullable_text(q->getColumn(5))},
              {"fiscalYear", q->getColumn(6).getInt64()},
              {"fundUseAuthorizationId", nullable_text(q->getColumn(7))},
              {"lines", json::array()},
              {"createdAt", shown_time(q->getColumn(8))}};
    auto lines = db.prepare(
        "SELECT l.account_id, a.code, a.name, l.fund, l.debit_cents, l.credit_cents, l.unit_id, l.co_owner_id, l.contractor_id, "
        "l.project_id, l.charge_id FROM journal_lines l JOIN accounts a ON a.id = l.account_id WHERE l.entry_id = ? ORDER BY l.line_no");
    bind_parameters(*lines, entry_id);
    while (lines->executeStep())
        e["lines"].push_back({{"accountId", lines->getColumn(0).getString()},
                              {"accountCode", lines->getColumn(1).getString()},
                              {"accountName", lines->getColumn(2).getString()},
                              {"fund", lines->getColumn(3).getString()},
                              {"debitCents", lines->getColumn(4).getInt64()},
                              {"creditCents", lines->getColumn(5).getInt64()},
                              {"unitId", nullable_text(lines->getColumn(6))},
                              {"coOwnerId", nullable_text(lines->getColumn(7))},
                              {"contractorId", nullable_text(lines->getColumn(8))},
                              {"projectId", nullable_text(lines->getColumn(9))},
                              {"chargeId", nullable_text(lines->getColumn(10))}});
    return e;
}

}  // namespace syndic::accounting
