// A supplier's invoice as the ledger books it, for record_expense and the modules that book their
// own (the logbook's maintenance, the projects' invoices): posted on its date to an expense account
// of its fund against that fund's payables, then paid from a bank account of the same fund. Money
// leaves the contingency fund only for major repairs and replacements of common portions, the
// self-insurance fund only for deductibles and uninsured damage, each under the board's
// authorisation and up to it (arts. 1071, 1071.1); a payment never takes a fund's cash below zero;
// an invoice is recorded once per supplier. Knows storage and the call; not JSON-RPC.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tools/registry.hpp"

namespace syndic::accounting {

struct SupplierInvoice {
    std::optional<std::string> contractor_id;  // its name is the payee
    std::string payee;                         // without a contractor: the supplier's name
    std::string invoice_number, invoice_date, fund, account_id;
    std::int64_t amount_cents = 0;
    std::optional<std::string> due_on, fund_use_authorization_id, document_id, description;
    // What the invoice pays for, when another module books it.
    std::optional<std::string> project_id, maintenance_record_id, insurance_claim_id;
};

struct InvoicePayment {
    std::string paid_on;
    std::string method = "cheque";
    std::optional<std::string> bank_account_id;  // else the fund's own bank account
};

// Where a refusal points: the call's pointer for an invoice's field, named as record_expense names
// it (invoiceNumber, invoiceDate, fund, accountId, amountCents, fundUseAuthorizationId, paidOn,
// bankAccountId, contractorId, payee).
using InvoiceFields = std::function<std::string(std::string_view field)>;
std::string same_names(std::string_view field);

// The invoice's payee and the key its duplicates are found by (CONTRACTOR_NOT_FOUND; without a
// contractor the payee must be given).
void name_payee(const ToolCall& call, SupplierInvoice& invoice, const InvoiceFields& at = same_names);

// Posts the invoice (record_expense's rules: FUND_USE_NOT_ALLOWED, FUND_USE_EXCEEDED,
// DUPLICATE_INVOICE, PERIOD_LOCKED, VALIDATION_FAILED for an account that is not an expense account
// of the fund or a date after today) and names expense.recorded; returns the expense's id.
std::string post_supplier_invoice(const ToolCall& call, SupplierInvoice invoice, const InvoiceFields& at = same_names);

// Pays the unpaid expense `id` (FUND_INSUFFICIENT, PERIOD_LOCKED, VALIDATION_FAILED for a day after
// today or before the invoice) and names expense.paid.
void pay_supplier_invoice(const ToolCall& call, const std::string& id, const InvoicePayment& payment, const InvoiceFields& at = same_names);

// The expense as record_expense shows it.
nlohmann::json expense_json(Database& db, const std::string& id);

}  // namespace syndic::accounting
