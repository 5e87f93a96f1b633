#include "modules/accounting/invoices.hpp"

#include <nlohmann/json.hpp>

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/reader_format.hpp"
#include "core/text.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

std::string same_names(std::string_view field) { return "/" + std::string(field); }

namespace {

// The lowest the fund's cash stands from `day` on (its bank accounts, the entries dated that day
// and after counted in order).
std::int64_t lowest_cash_from(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& day,
                              const std::optional<std::string>& account_id = std::nullopt) {
    auto cash = account_id ? account_balance(db, *account_id, day) : fund_balances(db, syndicate_id, fund, day).cash_cents;
    auto lowest = cash;
    auto q = db.prepare(
        "SELECT sum(l.debit_cents - l.credit_cents) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "WHERE l.account_id IN (SELECT a.id FROM accounts a WHERE a.syndicate_id = ?1 AND a.fund = ?2 AND a.is_bank = 1 AND (?4 IS NULL OR a.id = ?4)) "
        "AND e.entry_date > ?3 GROUP BY e.entry_date ORDER BY e.entry_date");
    bind_parameters(*q, syndicate_id, fund, day, account_id);
    while (q->executeStep()) lowest = std::min(lowest, cash += q->getColumn(0).getInt64());
    return lowest;
}

// The bank account a payment leaves from: the one given (a bank account of the expense's fund),
// else the fund's own.
Account paying_account(Database& db, const std::string& syndicate_id, const InvoicePayment& payment, const std::string& fund,
                       const InvoiceFields& at) {
    if (!payment.bank_account_id) return system_account(db, syndicate_id, fund, "bank");
    auto account = require_account(db, syndicate_id, *payment.bank_account_id, at("bankAccountId"));
    if (!account.is_bank || account.fund != fund)
        throw invalid_argument(at("bankAccountId"), "is not a bank account of the expense's fund",
                               "The account " + account.code + " (" + account.name + ", " + account.fund + " fund) is not a bank account of the " +
                                   fund + " fund: each fund pays its expenses from its own money (arts. 1071, 1071.1).");
    return account;
}

std::string payee_key(const SupplierInvoice& invoice) {
    return invoice.contractor_id ? *invoice.contractor_id : "payee:" + fold_for_search(invoice.payee);
}

// The invoice's fields checked against each other: the account an expense account of the fund,
// an authorisation only for a protected fund (and required there), no duplicate invoice.
Account require_invoice_fields(const ToolCall& call, const SupplierInvoice& invoice, const InvoiceFields& at) {
    const auto& fund = invoice.fund;
    auto account = require_account(call.db, call.caller.syndicate_id, invoice.account_id, at("accountId"));
    if (account.fund != fund || account.type != "expense")
        throw invalid_argument(at("accountId"), "is not an expense account of the fund",
                               "The account " + account.code + " (" + account.name + ") is of type " + account.type + " in the " + account.fund +
                                   " fund; an expense of the " + fund + " fund goes to one of its expense accounts.");
    if (fund == "operating" && invoice.fund_use_authorization_id)
        throw invalid_argument(at("fundUseAuthorizationId"), "is for the contingency and self-insurance funds",
                               "The operating fund pays its expenses without an authorisation; leave fundUseAuthorizationId out.");
    if (fund != "operating" && !invoice.fund_use_authorization_id)
        throw DomainError(codes::fund_use_not_allowed, "An expense of the " + fund + " fund needs the board's authorisation: " + use_of(fund) +
                                                           ". Give fundUseAuthorizationId (authorize_fund_use).")
            .at(at("fundUseAuthorizationId"))
            .with("fund", fund)
            .with("cents", invoice.amount_cents);
    auto dup = call.db.prepare("SELECT id FROM expenses WHERE syndicate_id = ? AND payee_key = ? AND invoice_number = ? AND status <> 'void'");
    bind_parameters(*dup, call.caller.syndicate_id, payee_key(invoice), invoice.invoice_number);
    if (dup->executeStep())
        throw DomainError("DUPLICATE_INVOICE", "This supplier's invoice " + invoice.invoice_number + " is recorded already (expense " +
                                                   dup->getColumn(0).getString() + "): to pay it, give its id with paidOn.")
            .at(at("invoiceNumber"))
            .with("expenseId", dup->getColumn(0).getString());
    return account;
}

}  // namespace

void name_payee(const ToolCall& call, SupplierInvoice& invoice, const InvoiceFields& at) {
    if (invoice.contractor_id) {
        require_record_exists(call.db, call.caller.syndicate_id, "contractors", *invoice.contractor_id, at("contractorId"));
        auto q = call.db.prepare("SELECT name FROM contractors WHERE id = ?");
        bind_parameters(*q, *invoice.contractor_id);
        q->executeStep();
        invoice.payee = q->getColumn(0).getString();
        return;
    }
    if (invoice.payee.empty())
        throw invalid_argument(at("payee"), "is required without contractorId", "Name the supplier: contractorId, or payee for one not in the register.");
}

std::string post_supplier_invoice(const ToolCall& call, SupplierInvoice invoice, const InvoiceFields& at) {
    const auto& syndicate = call.caller.syndicate_id;
    name_payee(call, invoice, at);
    const auto account = require_invoice_fields(call, invoice, at);
    if (invoice.invoice_date > today(call))
        throw invalid_argument(at("invoiceDate"), "is after today", "An invoice is recorded once received: " + invoice.invoice_date + " is after today.");
    require_open_period(call.db, syndicate, invoice.invoice_date, at("invoiceDate"));
    const auto amount = invoice.amount_cents;
    EntryDraft entry{invoice.invoice_date, "Facture " + invoice.invoice_number + " — " + invoice.payee, "expense", {}, std::nullopt,
                     invoice.fund_use_authorization_id};
    auto debit = make_line(account, amount, 0);
    auto credit = make_line(system_account(call.db, syndicate, invoice.fund, "payables"), 0, amount);
    debit.contractor_id = credit.contractor_id = invoice.contractor_id;
    debit.project_id = credit.project_id = invoice.project_id;
    entry.lines.push_back(std::move(debit));
    entry.lines.push_back(std::move(credit));
    std::optional<FundUseAuthorization> authorization;
    if (invoice.fund_use_authorization_id)
        authorization = require_authorization(call.db, syndicate, *invoice.fund_use_authorization_id, at("fundUseAuthorizationId"));
    if (authorization && authorization->project_id && authorization->project_id != invoice.project_id)
        throw DomainError(codes::fund_use_not_allowed, "This authorisation was given for a project (" + *authorization->project_id +
                                                           "): it pays that project's invoices only (record_project_expense).")
            .at(at("fundUseAuthorizationId"))
            .with("fund", invoice.fund)
            .with("cents", invoice.amount_cents);
    const auto used = require_fund_use_allowed(call.db, syndicate, entry, authorization, at("fundUseAuthorizationId"));
    if (authorization && invoice.invoice_date < montreal_date(stored_instant(authorization->created_at)))
        throw invalid_argument(at("invoiceDate"), "is before the authorisation",
                               "The board authorised this use on " + montreal_date(stored_instant(authorization->created_at)) + "; an invoice dated " +
                                   invoice.invoice_date + " came before it: money leaves the fund only under an authorisation given first (art. 1071).");
    const auto now = to_utc_iso(call.clock.now());
    const auto entry_id = post_entry(call.db, syndicate, entry, now);
    if (authorization) record_fund_use(call.db, *authorization, entry_id, used, now);
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO expenses (id, syndicate_id, contractor_id, payee, payee_key, invoice_number, invoice_date, due_on, fund, account_id, "
        "amount_cents, fund_use_authorization_id, document_id, entry_id, description, project_id, maintenance_record_id, insurance_claim_id, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, invoice.contractor_id, invoice.payee, payee_key(invoice), invoice.invoice_number, invoice.invoice_date,
                    invoice.due_on, invoice.fund, account.id, amount, invoice.fund_use_authorization_id, invoice.document_id, entry_id,
                    invoice.description, invoice.project_id, invoice.maintenance_record_id, invoice.insurance_claim_id, now, now);
    q->exec();
    if (invoice.document_id) documents::attach(call.db, syndicate, *invoice.document_id, "expense", id, now);
    call.name_event("expense.recorded", "expense", id);
    return id;
}

void pay_supplier_invoice(const ToolCall& call, const std::string& id, const InvoicePayment& payment, const InvoiceFields& at) {
    const auto& syndicate = call.caller.syndicate_id;
    auto e = call.db.prepare("SELECT fund, payee, invoice_number, status, invoice_date, amount_cents FROM expenses WHERE id = ?");
    bind_parameters(*e, id);
    e->executeStep();
    const auto fund = e->getColumn(0).getString(), payee = e->getColumn(1).getString(), number = e->getColumn(2).getString();
    const auto status = e->getColumn(3).getString(), invoice_date = e->getColumn(4).getString();
    const auto amount = e->getColumn(5).getInt64();
    if (status != "unpaid")
        throw DomainError(syndic::codes::invalid_status_transition, "The invoice " + number + " is " + status + ".").at("/id").with("status", status);
    const auto& paid_on = payment.paid_on;
    if (paid_on > today(call))
        throw invalid_argument(at("paidOn"), "is after today", "An invoice is paid on a day that has come: " + paid_on + " is after today.");
    const auto bank = paying_account(call.db, syndicate, payment, fund, at);
    require_open_period(call.db, syndicate, paid_on, at("paidOn"));
    if (paid_on < invoice_date)
        throw invalid_argument(at("paidOn"), "is before the invoice", "The invoice is dated " + invoice_date + ": it is paid on that day or later.");
    // Neither the fund's cash nor the account paying goes below zero (a term deposit is not overdrawn).
    const auto lowest = std::min(lowest_cash_from(call.db, syndicate, fund, paid_on), lowest_cash_from(call.db, syndicate, fund, paid_on, bank.id));
    if (lowest < amount)
        throw DomainError("FUND_INSUFFICIENT", "The " + fund + " fund's cash, or the account " + bank.code + ", would fall below zero: " +
                                                   format_money(lowest, "en") + " at the lowest from " + paid_on + " on, for a payment of " +
                                                   format_money(amount, "en") + ". Pay it later, or record the money coming in first.")
            .at(at("paidOn"))
            .with("availableCents", lowest);
    EntryDraft entry{paid_on, "Paiement — " + payee + ", facture " + number, "expense", {}, std::nullopt, std::nullopt};
    entry.lines.push_back(make_line(system_account(call.db, syndicate, fund, "payables"), amount, 0));
    entry.lines.push_back(make_line(bank, 0, amount));
    const auto now = to_utc_iso(call.clock.now());
    const auto entry_id = post_entry(call.db, syndicate, entry, now);
    auto q = call.db.prepare(
        "UPDATE expenses SET status = 'paid', paid_on = ?, payment_method = ?, bank_account_id = ?, payment_entry_id = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, paid_on, payment.method, bank.id, entry_id, now, id);
    q->exec();
    call.name_event("expense.paid", "expense", id);
}

json expense_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT x.id, x.contractor_id, x.payee, x.invoice_number, x.invoice_date, x.due_on, x.fund, x.account_id, a.code, a.name, "
        "x.amount_cents, x.fund_use_authorization_id, x.document_id, x.status, x.paid_on, x.payment_method, x.bank_account_id, "
        "x.entry_id, x.payment_entry_id, x.description, x.created_at, x.updated_at, x.project_id, x.maintenance_record_id, "
        "x.insurance_claim_id FROM expenses x JOIN accounts a ON a.id = x.account_id WHERE x.id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()},         {"contractorId", nullable_text(q->getColumn(1))},
            {"payee", q->getColumn(2).getString()},      {"invoiceNumber", q->getColumn(3).getString()},
            {"invoiceDate", q->getColumn(4).getString()}, {"dueOn", nullable_text(q->getColumn(5))},
            {"fund", q->getColumn(6).getString()},       {"accountId", q->getColumn(7).getString()},
            {"accountCode", q->getColumn(8).getString()}, {"accountName", q->getColumn(9).getString()},
            {"amountCents", q->getColumn(10).getInt64()}, {"projectId", nullable_text(q->getColumn(22))},
            {"maintenanceRecordId", nullable_text(q->getColumn(23))}, {"insuranceClaimId", nullable_text(q->getColumn(24))},
            {"fundUseAuthorizationId", nullable_text(q->getColumn(11))}, {"documentId", nullable_text(q->getColumn(12))},
            {"status", q->getColumn(13).getString()},    {"paidOn", nullable_text(q->getColumn(14))},
            {"paymentMethod", nullable_text(q->getColumn(15))}, {"bankAccountId", nullable_text(q->getColumn(16))},
            {"entryId", q->getColumn(17).getString()},   {"paymentEntryId", nullable_text(q->getColumn(18))},
            {"description", nullable_text(q->getColumn(19))}, {"createdAt", shown_time(q->getColumn(20))},
            {"updatedAt", shown_time(q->getColumn(21))}};
}

}  // namespace syndic::accounting
