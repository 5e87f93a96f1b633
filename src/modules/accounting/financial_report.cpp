#include "modules/accounting/financial_report.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/accounting/standing.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

// The fund's accounts of `type` with their balances on `to` (debit positive, or credit positive
// when `credit`), those at 0 left out; adds their total to `total`.
json balances_of(Database& db, const std::string& syndicate_id, const std::string& fund, const char* type, const std::string& to, bool credit,
                 std::int64_t& total) {
    auto q = db.prepare(
        "SELECT a.id, a.code, a.name, coalesce(sum(CASE WHEN e.entry_date <= ?4 THEN l.debit_cents - l.credit_cents END), 0) FROM accounts a "
        "LEFT JOIN journal_lines l ON l.account_id = a.id LEFT JOIN journal_entries e ON e.id = l.entry_id "
        "WHERE a.syndicate_id = ?1 AND a.fund = ?2 AND a.type = ?3 GROUP BY a.id ORDER BY a.code");
    bind_parameters(*q, syndicate_id, fund, std::string(type), to);
    json out = json::array();
    while (q->executeStep()) {
        const auto cents = (credit ? -1 : 1) * q->getColumn(3).getInt64();
        if (cents == 0) continue;
        total += cents;
        out.push_back({{"accountId", q->getColumn(0).getString()}, {"code", q->getColumn(1).getString()},
                       {"name", q->getColumn(2).getString()}, {"amountCents", cents}});
    }
    return out;
}

// The fund's accounts of `type` with what moved them from `from` to `to`, closing entries aside.
json activity_of(Database& db, const std::string& syndicate_id, const std::string& fund, const char* type, const ReportPeriod& p, bool credit,
                 std::int64_t& total) {
    auto q = db.prepare(
        "SELECT a.id, a.code, a.name, sum(l.debit_cents - l.credit_cents) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "JOIN accounts a ON a.id = l.account_id WHERE l.syndicate_id = ?1 AND a.fund = ?2 AND a.type = ?3 AND e.entry_date BETWEEN ?4 AND ?5 "
        "AND e.source <> 'closing' GROUP BY a.id HAVING sum(l.debit_cents - l.credit_cents) <> 0 ORDER BY a.code");
    bind_parameters(*q, syndicate_id, fund, std::string(type), p.from, p.to);
    json out = json::array();
    while (q->executeStep()) {
        const auto cents = (credit ? -1 : 1) * q->getColumn(3).getInt64();
        total += cents;
        out.push_back({{"accountId", q->getColumn(0).getString()}, {"code", q->getColumn(1).getString()},
                       {"name", q->getColumn(2).getString()}, {"amountCents", cents}});
    }
    return out;
}

json fund_statements(Database& db, const std::string& syndicate_id, const std::string& fund, const ReportPeriod& p) {
    std::int64_t assets = 0, liabilities = 0, equity = 0, unclosed_income = 0, unclosed_expenses = 0, income = 0, expenses = 0;
    json sheet = {{"assets", balances_of(db, syndicate_id, fund, "asset", p.to, false, assets)},
                  {"liabilities", balances_of(db, syndicate_id, fund, "liability", p.to, true, liabilities)},
                  {"equity", balances_of(db, syndicate_id, fund, "equity", p.to, true, equity)}};
    balances_of(db, syndicate_id, fund, "income", p.to, true, unclosed_income);
    balances_of(db, syndicate_id, fund, "expense", p.to, false, unclosed_expenses);
    const auto fund_balance = equity + unclosed_income - unclosed_expenses;
    sheet["totalAssetsCents"] = assets;
    sheet["totalLiabilitiesCents"] = liabilities;
    sheet["equityCents"] = equity;
    sheet["resultNotClosedCents"] = unclosed_income - unclosed_expenses;
    sheet["fundBalanceCents"] = fund_balance;
    sheet["balances"] = assets - liabilities == fund_balance;
    json statement = {{"income", activity_of(db, syndicate_id, fund, "income", p, true, income)},
                      {"expenses", activity_of(db, syndicate_id, fund, "expense", p, false, expenses)}};
    statement["totalIncomeCents"] = income;
    statement["totalExpensesCents"] = expenses;
    statement["surplusCents"] = income - expenses;
    return {{"balanceSheet", std::move(sheet)}, {"incomeStatement", std::move(statement)}};
}

// What the co-owners owed on `to`, by age, and by lot with the debtors' names when asked.
json receivables_of(Database& db, const std::string& syndicate_id, const ReportPeriod& p) {
    std::vector<std::string> roots;
    {
        auto q = db.prepare("SELECT DISTINCT unit_id FROM charges WHERE syndicate_id = ? AND posted_on <= ? ORDER BY unit_id");
        bind_parameters(*q, syndicate_id, p.to);
        std::vector<std::string> units;
        while (q->executeStep()) units.push_back(q->getColumn(0).getString());
        for (const auto& u : units) {
            auto root = lot_root(db, syndicate_id, u);
            if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(std::move(root));
        }
    }
    Aging aging;
    std::int64_t not_yet_due = 0, total = 0;
    json by_unit = json::array();
    for (const auto& root : roots) {
        const auto units = lot_units(db, syndicate_id, root);
        const auto charges = lot_charges(db, syndicate_id, units, p.to);
        const auto lot_aging = aging_of(charges, p.to);
        std::int64_t owed = 0, current = 0;
        for (const auto& c : charges) {
            owed += c.unpaid_cents;
            if (c.due_on >= p.to) current += c.unpaid_cents;
        }
        if (owed == 0) continue;
        aging.add(lot_aging);
        not_yet_due += current;
        total += owed;
        if (!p.by_unit) continue;
        json names = json::array();
        auto q = db.prepare(
            "SELECT first_name || ' ' || last_name FROM co_owners WHERE syndicate_id = ?1 AND deleted_at IS NULL "
            "AND unit_id IN (SELECT value FROM json_each(?2)) ORDER BY sort_key, id");
        bind_parameters(*q, syndicate_id, id_set(units));
        while (q->executeStep()) names.push_back(q->getColumn(0).getString());
        by_unit.push_back({{"unitId", root}, {"unitNumber", unit_number(db, root)}, {"coOwners", std::move(names)}, {"owedCents", owed},
                           {"pastDueCents", owed - current}, {"byBucket", lot_aging.to_json()}});
    }
    auto buckets = aging.to_json();
    buckets["notYetDue"] = not_yet_due;
    json out = {{"totalCents", total}, {"byBucket", std::move(buckets)}};
    if (p.by_unit) out["byUnit"] = std::move(by_unit);
    return out;
}

// What the syndicate owed its suppliers on `to`: the invoices recorded by then and not paid by then.
json payables_of(Database& db, const std::string& syndicate_id, const ReportPeriod& p) {
    auto q = db.prepare(
        "SELECT payee, invoice_number, invoice_date, due_on, fund, amount_cents FROM expenses WHERE syndicate_id = ?1 AND status <> 'void' "
        "AND invoice_date <= ?2 AND (paid_on IS NULL OR paid_on > ?2) ORDER BY invoice_date, payee");
    bind_parameters(*q, syndicate_id, p.to);
    json invoices = json::array();
    std::int64_t total = 0;
    while (q->executeStep()) {
        total += q->getColumn(5).getInt64();
        invoices.push_back({{"payee", q->getColumn(0).getString()}, {"invoiceNumber", q->getColumn(1).getString()},
                            {"invoiceDate", q->getColumn(2).getString()}, {"dueOn", nullable_text(q->getColumn(3))},
                            {"fund", q->getColumn(4).getString()}, {"amountCents", q->getColumn(5).getInt64()}});
    }
    return {{"totalCents", total}, {"invoices", std::move(invoices)}};
}

}  // namespace

FiscalYear require_report_year(Database& db, const std::string& syndicate, std::int64_t year, const std::string& today, const std::string& field) {
    const auto fy = fiscal_year_of(db, syndicate, std::to_string(year) + "-" + declaration::fiscal_year_start(db, syndicate));
    auto first = db.prepare("SELECT min(entry_date) FROM journal_entries WHERE syndicate_id = ?");
    bind_parameters(*first, syndicate);
    first->executeStep();
    const bool before_books = !first->getColumn(0).isNull() && fy.ends_on < first->getColumn(0).getString();
    if (fy.starts_on > today || before_books)
        throw DomainError("FISCAL_YEAR_NOT_FOUND", "The fiscal year " + std::to_string(year) + " (" + fy.starts_on + " to " + fy.ends_on + ") " +
                                                       (fy.starts_on > today ? "has not begun." : "ends before the books begin."))
            .at(field);
    return fy;
}

json financial_report(Database& db, const std::string& syndicate_id, const ReportPeriod& p, const BudgetAnswers& budget) {
    json funds_out = json::object();
    json warnings = json::array();
    for (const char* fund : funds) {
        funds_out[fund] = fund_statements(db, syndicate_id, fund, p);
        if (!funds_out[fund]["balanceSheet"]["balances"].get<bool>())
            warnings.push_back(std::string("The ") + fund + " fund's balance sheet does not balance: an entry crossed funds without its interfund lines.");
    }
    const auto credit = -account_balance(db, system_account(db, syndicate_id, "operating", "prepayments").id, p.to);
    json debts = {{"receivables", receivables_of(db, syndicate_id, p)}, {"payables", payables_of(db, syndicate_id, p)},
                  {"coOwnerCreditCents", credit}};
    json comparison = nullptr, forecast = nullptr;
    if (p.compare_to_budget && budget.comparison)
        if (auto c = budget.comparison(db, syndicate_id, p.fiscal_year, p.to)) comparison = std::move(*c);
    if (budget.forecast)
        if (auto f = budget.forecast(db, syndicate_id, p.fiscal_year + 1)) forecast = std::move(*f);
    auto closed = db.prepare("SELECT 1 FROM fiscal_year_closures WHERE syndicate_id = ? AND fiscal_year = ?");
    bind_parameters(*closed, syndicate_id, static_cast<std::int64_t>(p.fiscal_year));
    const bool is_closed = closed->executeStep();
    if (!is_closed) warnings.push_back("The fiscal year " + std::to_string(p.fiscal_year) + " is not closed: these figures may still change.");
    return {{"from", p.from},
            {"to", p.to},
            {"fiscalYear", p.fiscal_year},
            {"wholeYear", p.whole_year},
            {"closed", is_closed},
            {"detail", p.by_unit ? "by-unit" : "summary"},
            {"funds", std::move(funds_out)},
            {"debtsAndClaims", std::move(debts)},
            {"budgetComparison", std::move(comparison)},
            {"budgetForecast", std::move(forecast)},
            {"warnings", std::move(warnings)}};
}

}  // namespace syndic::accounting
