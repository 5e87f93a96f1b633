// close_fiscal_year (catalogue §4.4): a fiscal year closed once it has ended, in order, each bank
// account reconciled to its last day and no notice of it left a draft: each fund's income and
// expenses carried to that fund's balance by a closing entry dated the year's last day (contingency
// income never feeds operating), the year locked, and its statements kept as a protected document
// (the register, art. 1070) with the next year's budget forecast, both put in the package of the
// annual meetings still to be called (art. 1087).
#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/accounting/closing_questions.hpp"
#include "modules/accounting/financial_report.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/statements_pdf.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
    return out;
}

// The refusals, before anything is written: closed already, not ended, the year before open,
// a bank account not reconciled to its end, a draft notice.
void require_closable(const ToolCall& call, const ClosingAnswers& closing, int year, const FiscalYear& fy) {
    auto& db = call.db;
    const auto& syndicate = call.caller.syndicate_id;
    auto closed = db.prepare("SELECT closed_at FROM fiscal_year_closures WHERE syndicate_id = ? AND fiscal_year = ?");
    bind_parameters(*closed, syndicate, static_cast<std::int64_t>(year));
    if (closed->executeStep())
        throw DomainError("ALREADY_CLOSED", "The fiscal year " + std::to_string(year) + " is closed already.").at("/fiscalYear");
    if (fy.ends_on >= today(call))
        throw invalid_argument("/fiscalYear", "has not ended", "The fiscal year " + std::to_string(year) + " ends on " + fy.ends_on +
                                                                   ": it is closed after its last day.");
    const auto before = fiscal_year_of(db, syndicate, add_calendar_days(fy.starts_on, -1));
    auto open = db.prepare(
        "SELECT 1 FROM journal_entries e WHERE e.syndicate_id = ?1 AND e.entry_date <= ?2 AND NOT EXISTS ("
        "SELECT 1 FROM fiscal_year_closures c WHERE c.syndicate_id = ?1 AND c.ends_on >= ?2) LIMIT 1");
    bind_parameters(*open, syndicate, before.ends_on);
    if (open->executeStep())
        throw DomainError("PREVIOUS_YEAR_OPEN", "The fiscal year " + std::to_string(before.year) + " has entries and is not closed: years close in order.")
            .at("/fiscalYear")
            .with("fiscalYear", static_cast<std::int64_t>(before.year));
    std::vector<std::string> unreconciled;
    auto banks = db.prepare(
        "SELECT a.code || ' ' || a.name || ' (' || a.fund || ')' FROM accounts a WHERE a.syndicate_id = ?1 AND a.is_bank = 1 AND EXISTS ("
        "SELECT 1 FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE l.account_id = a.id AND e.entry_date <= ?2) "
        "AND (NOT EXISTS (SELECT 1 FROM bank_reconciliations r WHERE r.account_id = a.id AND r.statement_date >= ?2) "
        // ... or an entry dated by the year's end was posted after the last such reconciliation and
        // is cleared by none: the reconciliation no longer matches the books.
        "OR EXISTS (SELECT 1 FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE l.account_id = a.id "
        "AND e.entry_date <= ?2 AND e.number > (SELECT max(r.last_entry_number) FROM bank_reconciliations r WHERE r.account_id = a.id "
        "AND r.statement_date >= ?2) AND NOT EXISTS (SELECT 1 FROM bank_cleared_entries c WHERE c.account_id = a.id AND c.entry_id = e.id))) "
        "ORDER BY a.fund, a.code");
    bind_parameters(*banks, syndicate, fy.ends_on);
    while (banks->executeStep()) unreconciled.push_back(banks->getColumn(0).getString());
    if (!unreconciled.empty())
        throw DomainError("UNRECONCILED_ACCOUNTS", "Reconcile each bank account to " + fy.ends_on + " or later, after its last entry of the year, first (reconcile_bank_account): " +
                                                       joined(unreconciled) + ".")
            .at("/fiscalYear")
            .with("accounts", joined(unreconciled))
            .with("count", static_cast<std::int64_t>(unreconciled.size()));
    const auto drafts = closing.draft_notices ? closing.draft_notices(db, syndicate, year) : std::vector<std::string>{};
    if (!drafts.empty())
        throw DomainError("DRAFT_NOTICES_REMAIN", "Notices of " + std::to_string(year) + " are still drafts: " + joined(drafts) +
                                                      ". Issue or cancel them first.")
            .at("/fiscalYear")
            .with("notices", joined(drafts));
}

// The fund's closing entry: each income and expense account's balance on the year's last day
// carried to the fund's balance; nullopt when there is nothing to carry.
std::optional<json> close_fund(Database& db, const std::string& syndicate_id, const std::string& fund, const FiscalYear& fy, const std::string& now) {
    auto q = db.prepare(
        "SELECT a.id, sum(l.debit_cents - l.credit_cents) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "JOIN accounts a ON a.id = l.account_id WHERE l.syndicate_id = ? AND a.fund = ? AND a.type IN ('income', 'expense') "
        "AND e.entry_date <= ? GROUP BY a.id HAVING sum(l.debit_cents - l.credit_cents) <> 0 ORDER BY a.code");
    bind_parameters(*q, syndicate_id, fund, fy.ends_on);
    EntryDraft entry{fy.ends_on, "Clôture de l'exercice " + std::to_string(fy.year), "closing", {}, std::nullopt, std::nullopt};
    std::int64_t result = 0;  // income less expenses
    while (q->executeStep()) {
        const auto net = q->getColumn(1).getInt64();
        result -= net;
        entry.lines.push_back(make_line(require_account(db, syndicate_id, q->getColumn(0).getString(), "/fiscalYear"),
                                        net < 0 ? -net : 0, net > 0 ? net : 0));
    }
    if (entry.lines.empty()) return std::nullopt;
    const auto balance = system_account(db, syndicate_id, fund, "fund-balance");
    if (result != 0) entry.lines.push_back(make_line(balance, result < 0 ? -result : 0, result > 0 ? result : 0));
    const auto id = post_entry(db, syndicate_id, entry, now);
    return json{{"fund", fund}, {"entryId", id}, {"resultCents", result}};
}

}  // namespace

json close_fiscal_year(const ToolCall& call, const BudgetAnswers& budget, const ClosingAnswers& closing) {
    const auto a = call.arguments();
    auto& db = call.db;
    const auto& syndicate = call.caller.syndicate_id;
    const auto year = static_cast<int>(a.integer("fiscalYear"));
    const auto fy = require_report_year(db, syndicate, year, today(call), "/fiscalYear");
    require_closable(call, closing, year, fy);
    const auto now = to_utc_iso(call.clock.now());
    json entries = json::array(), entry_ids = json::array();
    for (const char* fund : funds)
        if (auto e = close_fund(db, syndicate, fund, fy, now)) {
            entry_ids.push_back((*e)["entryId"]);
            entries.push_back(std::move(*e));
        }
    auto lock = db.prepare(
        "INSERT INTO fiscal_year_closures (syndicate_id, fiscal_year, starts_on, ends_on, closed_at, closing_entry_ids) VALUES (?, ?, ?, ?, ?, ?)");
    bind_parameters(*lock, syndicate, static_cast<std::int64_t>(year), fy.starts_on, fy.ends_on, now, entry_ids.dump());
    lock->exec();
    const auto report = financial_report(db, syndicate, {fy.starts_on, fy.ends_on, year, true, false, true}, budget);
    const auto language = get_setting(db, syndicate, "defaultLanguage").get<std::string>();
    const auto name = syndicate_name(db, syndicate);
    const bool en = language == "en";
    const auto pdf = render_pdf(statements_document(report, name, language));
    const auto statements = documents::file_generated_pdf(
        db, syndicate, {"financial-statements", (en ? "Financial statements " : "États financiers ") + std::to_string(year),
                        "etats-financiers-" + std::to_string(year), "co-owners", language, call.caller.api_key_id, now, std::string("financial-statements")},
        pdf.bytes, pdf.pages);
    std::optional<std::string> forecast;
    if (report["budgetForecast"].is_object()) {
        const auto& f = report["budgetForecast"];
        const auto next = std::to_string(f["fiscalYear"].get<std::int64_t>());
        const auto fpdf = render_pdf(forecast_document(f, name, language));
        forecast = documents::file_generated_pdf(db, syndicate, {"budget", (en ? "Budget forecast " : "Prévisions budgétaires ") + next,
                                                                 "previsions-budgetaires-" + next, "co-owners", language, call.caller.api_key_id, now, std::nullopt},
                                                 fpdf.bytes, fpdf.pages);
        documents::attach(db, syndicate, *forecast, "budget", f["budgetId"].get<std::string>(), now);
    }
    // The annual meetings still to come: after the year's end, and not already past.
    const auto meetings = closing.meetings_to_call ? closing.meetings_to_call(db, syndicate, std::max(fy.ends_on, add_calendar_days(today(call), -1)))
                                                   : std::vector<std::string>{};
    for (const auto& m : meetings) {
        documents::attach(db, syndicate, statements, "meeting", m, now);
        if (forecast) documents::attach(db, syndicate, *forecast, "meeting", m, now);
    }
    auto keep = db.prepare("UPDATE fiscal_year_closures SET statements_document_id = ?, forecast_document_id = ? WHERE syndicate_id = ? AND fiscal_year = ?");
    bind_parameters(*keep, statements, forecast, syndicate, static_cast<std::int64_t>(year));
    keep->exec();
    call.name_event("fiscal_year.closed", "fiscal-year", std::to_string(year));
    return {{"fiscalYear", year},           {"startsOn", fy.starts_on},        {"endsOn", fy.ends_on},
            {"closedAt", now},              {"closingEntries", std::move(entries)}, {"statementsDocumentId", statements},
            {"forecastDocumentId", forecast ? json(*forecast) : json(nullptr)}, {"packageOfMeetings", meetings},
            {"statements", report}};
}

}  // namespace syndic::accounting
