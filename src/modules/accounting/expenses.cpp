// record_expense (catalogue §4.4): a supplier's invoice booked and paid as invoices.hpp books it (at
// once, or later by naming it), linked to the insurance claim or the logbook's maintenance it pays.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "modules/accounting/codes.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/invoices.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

// Every record the call names exists, before any rule.
void require_references(const ToolCall& call, const Arguments& a) {
    const auto& syndicate = call.caller.syndicate_id;
    if (a.given("contractorId")) require_record_exists(call.db, syndicate, "contractors", a.text("contractorId"), "/contractorId");
    if (a.given("accountId")) require_account(call.db, syndicate, a.text("accountId"), "/accountId");
    if (a.given("bankAccountId")) require_account(call.db, syndicate, a.text("bankAccountId"), "/bankAccountId");
    if (a.given("fundUseAuthorizationId")) require_authorization(call.db, syndicate, a.text("fundUseAuthorizationId"), "/fundUseAuthorizationId");
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    if (a.given("insuranceClaimId")) require_record_exists(call.db, syndicate, "insurance_claims", a.text("insuranceClaimId"), "/insuranceClaimId");
    if (a.given("maintenanceRecordId"))
        require_record_exists(call.db, syndicate, "maintenance_records", a.text("maintenanceRecordId"), "/maintenanceRecordId");
}

InvoicePayment payment_of(const Arguments& a) {
    return {*date_argument(a, "paidOn"), a.text_or("paymentMethod", "cheque"), a.optional_text("bankAccountId")};
}

// Pays the expense `id` recorded earlier.
json pay_recorded(const ToolCall& call, const Arguments& a) {
    const auto id = a.text("id");
    require_record_exists(call.db, call.caller.syndicate_id, "expenses", id, "/id");
    if (a.given("bankAccountId")) require_account(call.db, call.caller.syndicate_id, a.text("bankAccountId"), "/bankAccountId");
    for (const char* field : {"contractorId", "payee", "invoiceNumber", "invoiceDate", "dueOn", "fund", "accountId", "amountCents",
                              "fundUseAuthorizationId", "documentId", "description", "insuranceClaimId", "maintenanceRecordId"})
        if (a.given(field))
            throw invalid_argument(std::string("/") + field, "is not changed when paying",
                                   "Paying a recorded invoice takes id, paidOn, paymentMethod and bankAccountId; its other fields stay as recorded.");
    if (!a.given("paidOn")) throw invalid_argument("/paidOn", "is required to pay", "Give the day the invoice was paid (paidOn).");
    pay_supplier_invoice(call, id, payment_of(a));
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
    SupplierInvoice invoice;
    invoice.contractor_id = a.optional_text("contractorId");
    if (!invoice.contractor_id && a.given("payee")) invoice.payee = a.nonblank("payee");
    invoice.invoice_number = a.nonblank("invoiceNumber");
    invoice.invoice_date = *date_argument(a, "invoiceDate");
    invoice.due_on = date_argument(a, "dueOn");
    invoice.fund = a.text("fund");
    invoice.account_id = a.text("accountId");
    invoice.amount_cents = a.integer("amountCents");
    invoice.fund_use_authorization_id = a.optional_text("fundUseAuthorizationId");
    invoice.document_id = a.optional_text("documentId");
    invoice.description = a.optional_nonblank("description");
    invoice.insurance_claim_id = a.optional_text("insuranceClaimId");
    invoice.maintenance_record_id = a.optional_text("maintenanceRecordId");
    if (invoice.maintenance_record_id && invoice.fund == "contingency") {
        // The logbook's record, read: maintenance is never the contingency fund's (art. 1071 [S30]).
        auto m = call.db.prepare("SELECT kind FROM maintenance_records WHERE id = ?");
        bind_parameters(*m, *invoice.maintenance_record_id);
        m->executeStep();
        const auto kind = m->getColumn(0).getString();
        if (kind == "routine" || kind == "repair" || kind == "inspection")
            throw DomainError(accounting::codes::fund_use_not_allowed, "The maintenance record is " + kind + " work: the contingency fund pays only major repairs and "
                                                           "replacements (art. 1071), not maintenance. Book it to the operating fund.")
                .at("/fund")
                .with("fund", invoice.fund)
                .with("cents", invoice.amount_cents);
    }
    const auto id = post_supplier_invoice(call, invoice);
    if (a.given("paidOn")) pay_supplier_invoice(call, id, payment_of(a));
    auto out = expense_json(call.db, id);
    out["warnings"] = json::array();
    if (const auto w = own_bank_warning(call.db, syndicate, invoice.fund)) out["warnings"].push_back(*w);
    return out;
}

}  // namespace syndic::accounting
