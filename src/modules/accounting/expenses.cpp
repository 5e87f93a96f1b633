// record_expense (catalogue §4.4): a supplier's invoice posted to an expense account of its fund
// against that fund's payables on the invoice date, and paid from a bank account of the same fund
// (at once, or later by naming it). Money leaves the contingency fund only for major repairs and
// replacements of common portions, the self-insurance fund only for deductibles and uninsured
// damage, each under the board's authorisation and up to it (arts. 1071, 1071.1); a payment never
// takes a fund's cash below zero; an invoice is recorded once per supplier.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/reader_format.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

// The lowest the fund's cash stands from `day` on (its bank accounts, the entries dated that day
// and after counted in order).
std::int64_t lowest_cash_from(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& day,
                              const std::optional<std::string>& account_id = std::nullopt) {
    auto cash = account_id ? account_balance(db, *account_id, day) : fund_balances(db, syndicate_id, fund, day).cash_cents;
    auto lowest = cash;
    auto q = db.prepare(
        "SELECT sum(l.debit_cents - l.credit_cents) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "JOIN accounts a ON a.id = l.account_id WHERE l.syndicate_id = ?1 AND a.fund = ?2 AND a.is_bank = 1 AND e.entry_date > ?3 "
        "AND (?4 IS NULL OR a.id = ?4) GROUP BY e.entry_date ORDER BY e.entry_date");
    bind_parameters(*q, syndicate_id, fund, day, account_id);
    while (q->executeStep()) lowest = std::min(lowest, cash += q->getColumn(0).getInt64());
    return lowest;
}

// The bank account a payment leaves from: the one given (a bank account of the expense's fund),
// else the fund's own.
Account paying_account(Database& db, const std::string& syndicate_id, const Arguments& a, const std::string& fund) {
    if (!a.given("bankAccountId")) return system_account(db, syndicate_id, fund, "bank");
    auto account = require_account(db, syndicate_id, a.text("bankAccountId"), "/bankAccountId");
    if (!account.is_bank || account.fund != fund)
        throw invalid_argument("/bankAccountId", "is not a bank account of the expense's fund",
                               "The account " + account.code + " (" + account.name + ", " + account.fund + " fund) is not a bank account of the " +
                                   fund + " fund: each fund pays its expenses from its own money (arts. 1071, 1071.1).");
    return account;
}

struct Invoice {
    std::string id, fund, payee, invoice_number, status, invoice_date;
    std::int64_t amount_cents = 0;
};

// Posts the payment of `invoice` on `paid_on` from the bank account the call gives (never below
// zero: FUND_INSUFFICIENT) and marks it paid.
void pay(const ToolCall& call, const Arguments& a, const Invoice& invoice, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto paid_on = *date_argument(a, "paidOn");
    if (paid_on > today(call))
        throw invalid_argument("/paidOn", "is after today", "An invoice is paid on a day that has come: " + paid_on + " is after today.");
    const auto bank = paying_account(call.db, syndicate, a, invoice.fund);
    require_open_period(call.db, syndicate, paid_on, "/paidOn");
    if (paid_on < invoice.invoice_date)
        throw invalid_argument("/paidOn", "is before the invoice", "The invoice is dated " + invoice.invoice_date + ": it is paid on that day or later.");
    // Neither the fund's cash nor the account paying goes below zero (a term deposit is not overdrawn).
    const auto lowest = std::min(lowest_cash_from(call.db, syndicate, invoice.fund, paid_on),
                                 lowest_cash_from(call.db, syndicate, invoice.fund, paid_on, bank.id));
    if (lowest < invoice.amount_cents)
        throw DomainError("FUND_INSUFFICIENT", "The " + invoice.fund + " fund's cash, or the account " + bank.code + ", would fall below zero: " +
                                                   format_money(lowest, "en") + " at the lowest from " + paid_on + " on, for a payment of " +
                                                   format_money(invoice.amount_cents, "en") + ". Pay it later, or record the money coming in first.")
            .at("/paidOn")
            .with("availableCents", lowest);
    EntryDraft entry{paid_on, "Paiement — " + invoice.payee + ", facture " + invoice.invoice_number, "expense", {}, std::nullopt, std::nullopt};
    entry.lines.push_back(make_line(system_account(call.db, syndicate, invoice.fund, "payables"), invoice.amount_cents, 0));
    entry.lines.push_back(make_line(bank, 0, invoice.amount_cents));
    const auto entry_id = post_entry(call.db, syndicate, entry, now);
    auto q = call.db.prepare(
        "UPDATE expenses SET status = 'paid', paid_on = ?, payment_method = ?, bank_account_id = ?, payment_entry_id = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, paid_on, a.text_or("paymentMethod", "cheque"), bank.id, entry_id, now, invoice.id);
    q->exec();
    call.name_event("expense.paid", "expense", invoice.id);
}

json expense_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT x.id, x.contractor_id, x.payee, x.invoice_number, x.invoice_date, x.due_on, x.fund, x.account_id, a.code, a.name, "
        "x.amount_cents, x.fund_use_authorization_id, x.document_id, x.status, x.paid_on, x.payment_method, x.bank_account_id, "
        "x.entry_id, x.payment_entry_id, x.description, x.created_at, x.updated_at FROM expenses x JOIN accounts a ON a.id = x.account_id "
        "WHERE x.id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()},         {"contractorId", nullable_text(q->getColumn(1))},
            {"payee", q->getColumn(2).getString()},      {"invoiceNumber", q->getColumn(3).getString()},
            {"invoiceDate", q->getColumn(4).getString()}, {"dueOn", nullable_text(q->getColumn(5))},
            {"fund", q->getColumn(6).getString()},       {"accountId", q->getColumn(7).getString()},
            {"accountCode", q->getColumn(8).getString()}, {"accountName", q->getColumn(9).getString()},
            {"amountCents", q->getColumn(10).getInt64()}, {"projectId", nullptr}, {"maintenanceRecordId", nullptr},
            {"insuranceClaimId", nullptr},               {"fundUseAuthorizationId", nullable_text(q->getColumn(11))},
            {"documentId", nullable_text(q->getColumn(12))}, {"status", q->getColumn(13).getString()},
            {"paidOn", nullable_text(q->getColumn(14))}, {"paymentMethod", nullable_text(q->getColumn(15))},
            {"bankAccountId", nullable_text(q->getColumn(16))}, {"entryId", q->getColumn(17).getString()},
            {"paymentEntryId", nullable_text(q->getColumn(18))}, {"description", nullable_text(q->getColumn(19))},
            {"createdAt", shown_time(q->getColumn(20))}, {"updatedAt", shown_time(q->getColumn(21))}};
}

// The invoice's payee: the contractor's name (CONTRACTOR_NOT_FOUND), else `payee`; and the key
// duplicates are found by.
std::pair<std::string, std::string> payee_of(const ToolCall& call, const Arguments& a) {
    if (a.given("contractorId")) {
        const auto id = a.text("contractorId");
        require_record_exists(call.db, call.caller.syndicate_id, "contractors", id, "/contractorId");
        auto q = call.db.prepare("SELECT name FROM contractors WHERE id = ?");
        bind_parameters(*q, id);
        q->executeStep();
        return {q->getColumn(0).getString(), id};
    }
    if (!a.given("payee"))
        throw invalid_argument("/payee", "is required without contractorId", "Name the supplier: contractorId, or payee for one not in the register.");
    const auto payee = a.nonblank("payee");
    return {payee, "payee:" + fold_for_search(payee)};
}

// The invoice's fields checked against each other: the account an expense account of the fund,
// an authorisation only for a protected fund (and required there), no duplicate invoice.
Account require_invoice_fields(const ToolCall& call, const Arguments& a, const std::string& fund, const std::string& payee_key) {
    auto account = require_account(call.db, call.caller.syndicate_id, a.text("accountId"), "/accountId");
    if (account.fund != fund || account.type != "expense")
        throw invalid_argument("/accountId", "is not an expense account of the fund",
                               "The account " + account.code + " (" + account.name + ") is of type " + account.type + " in the " + account.fund +
                                   " fund; an expense of the " + fund + " fund goes to one of its expense accounts.");
    if (fund == "operating" && a.given("fundUseAuthorizationId"))
        throw invalid_argument("/fundUseAuthorizationId", "is for the contingency and self-insurance funds",
                               "The operating fund pays its expenses without an authorisation; leave fundUseAuthorizationId out.");
    if (fund != "operating" && !a.given("fundUseAuthorizationId"))
        throw DomainError(codes::fund_use_not_allowed, std::string("An expense of the ") + fund + " fund needs the board's authorisation: " +
                                                           use_of(fund) + ". Give fundUseAuthorizationId (authorize_fund_use).")
            .at("/fundUseAuthorizationId")
            .with("fund", fund)
            .with("cents", a.integer("amountCents"));
    auto dup = call.db.prepare(
        "SELECT id FROM expenses WHERE syndicate_id = ? AND payee_key = ? AND invoice_number = ? AND status <> 'void'");
    bind_parameters(*dup, call.caller.syndicate_id, payee_key, a.nonblank("invoiceNumber"));
    if (dup->executeStep())
        throw DomainError("DUPLICATE_INVOICE", "This supplier's invoice " + a.nonblank("invoiceNumber") + " is recorded already (expense " +
                                                   dup->getColumn(0).getString() + "): to pay it, give its id with paidOn.")
            .at("/invoiceNumber")
            .with("expenseId", dup->getColumn(0).getString());
    return account;
}

// Every record the call names exists, before any rule.
void require_references(const ToolCall& call, const Arguments& a) {
    const auto& syndicate = call.caller.syndicate_id;
    if (a.given("contractorId")) require_record_exists(call.db, syndicate, "contractors", a.text("contractorId"), "/contractorId");
    if (a.given("accountId")) require_account(call.db, syndicate, a.text("accountId"), "/accountId");
    if (a.given("bankAccountId")) require_account(call.db, syndicate, a.text("bankAccountId"), "/bankAccountId");
    if (a.given("fundUseAuthorizationId")) require_authorization(call.db, syndicate, a.text("fundUseAuthorizationId"), "/fundUseAuthorizationId");
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
}

// Pays the expense `id` recorded earlier.
json pay_recorded(const ToolCall& call, const Arguments& a) {
    const auto id = a.text("id");
    require_record_exists(call.db, call.caller.syndicate_id, "expenses", id, "/id");
    if (a.given("bankAccountId")) require_account(call.db, call.caller.syndicate_id, a.text("bankAccountId"), "/bankAccountId");
    for (const char* field : {"contractorId", "payee", "invoiceNumber", "invoiceDate", "dueOn", "fund", "accountId", "amountCents",
                              "fundUseAuthorizationId", "documentId", "description"})
        if (a.given(field))
            throw invalid_argument(std::string("/") + field, "is not changed when paying",
                                   "Paying a recorded invoice takes id, paidOn, paymentMethod and bankAccountId; its other fields stay as recorded.");
    if (!a.given("paidOn")) throw invalid_argument("/paidOn", "is required to pay", "Give the day the invoice was paid (paidOn).");
    auto q = call.db.prepare("SELECT fund, payee, invoice_number, status, invoice_date, amount_cents FROM expenses WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    Invoice invoice{id, q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(), q->getColumn(3).getString(),
                    q->getColumn(4).getString(), q->getColumn(5).getInt64()};
    if (invoice.status != "unpaid")
        throw DomainError(syndic::codes::invalid_status_transition, "The invoice " + invoice.invoice_number + " is " + invoice.status + ".")
            .at("/id")
            .with("status", invoice.status);
    pay(call, a, invoice, to_utc_iso(call.clock.now()));
    return expense_json(call.db, id);
}

}  // namespace

json record_expense(const ToolCall& call) {
    const auto a = call.arguments();
    if (a.given("id")) return pay_recorded(call, a);
    const auto& syndicate = call.caller.syndicate_id;
    require_references(call, a);
    for (const char* field : {"invoiceNumber", "invoiceDate", "fund", "accountId", "amountCents"})
        if (!a.given(field)) throw invalid_argument(std::string("/") + field, "is required", "A new invoice gives invoiceNumber, invoiceDate, fund, accountId and amountCents.");
    const auto fund = a.text("fund");
    const auto [payee, payee_key] = payee_of(call, a);
    const auto account = require_invoice_fields(call, a, fund, payee_key);
    const auto invoice_date = *date_argument(a, "invoiceDate");
    if (invoice_date > today(call))
        throw invalid_argument("/invoiceDate", "is after today", "An invoice is recorded once received: " + invoice_date + " is after today.");
    const auto amount = a.integer("amountCents");
    const auto number = a.nonblank("invoiceNumber");
    EntryDraft entry{invoice_date, "Facture " + number + " — " + payee, "expense", {}, std::nullopt, a.optional_text("fundUseAuthorizationId")};
    auto debit = make_line(account, amount, 0);
    auto credit = make_line(system_account(call.db, syndicate, fund, "payables"), 0, amount);
    debit.contractor_id = credit.contractor_id = a.optional_text("contractorId");
    entry.lines.push_back(std::move(debit));
    entry.lines.push_back(std::move(credit));
    std::optional<FundUseAuthorization> authorization;
    if (a.given("fundUseAuthorizationId"))
        authorization = require_authorization(call.db, syndicate, a.text("fundUseAuthorizationId"), "/fundUseAuthorizationId");
    const auto used = require_fund_use_allowed(call.db, syndicate, entry, authorization, "/fundUseAuthorizationId");
    if (authorization && invoice_date < montreal_date(stored_instant(authorization->created_at)))
        throw invalid_argument("/invoiceDate", "is before the authorisation",
                               "The board authorised this use on " + montreal_date(stored_instant(authorization->created_at)) + "; an invoice dated " +
                                   invoice_date + " came before it: money leaves the fund only under an authorisation given first (art. 1071).");
    const auto now = to_utc_iso(call.clock.now());
    const auto entry_id = post_entry(call.db, syndicate, entry, now);
    if (authorization) record_fund_use(call.db, *authorization, entry_id, used, now);
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO expenses (id, syndicate_id, contractor_id, payee, payee_key, invoice_number, invoice_date, due_on, fund, account_id, "
        "amount_cents, fund_use_authorization_id, document_id, entry_id, description, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, a.optional_text("contractorId"), payee, payee_key, number, invoice_date, date_argument(a, "dueOn"), fund,
                    account.id, amount, a.optional_text("fundUseAuthorizationId"), a.optional_text("documentId"), entry_id,
                    a.optional_nonblank("description"), now, now);
    q->exec();
    if (a.given("documentId")) documents::attach(call.db, syndicate, a.text("documentId"), "expense", id, now);
    call.name_event("expense.recorded", "expense", id);
    if (a.given("paidOn")) pay(call, a, {id, fund, payee, number, "unpaid", invoice_date, amount}, now);
    auto out = expense_json(call.db, id);
    out["warnings"] = json::array();
    if (const auto w = own_bank_warning(call.db, syndicate, fund)) out["warnings"].push_back(*w);
    return out;
}

}  // namespace syndic::accounting
