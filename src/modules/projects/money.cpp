// A project's invoices (catalogue §4.8 record_project_expense, get_project_budget; link L14): booked
// through the ledger as record_expense books them, from one of the project's funding sources, the
// contractor's within the contract and its approved changes, its holdback kept as a payable until
// 30 days after the end of work (the time to register a construction hypothec, art. 2727).
#include <SQLiteCpp/Statement.h>

#include <cmath>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/invoices.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

// The fund is one of the project's sources; money raised otherwise (a special assessment, an
// indemnity, a loan) is deposited in a fund of the syndicate's choosing.
void require_fund_in_project(const Project& p, const std::string& fund) {
    bool other_money = false;
    for (const auto& s : p.funding_sources) {
        const auto source = s["fund"].get<std::string>();
        if (source == fund) return;
        if (source == "special-assessment" || source == "insurance" || source == "loan") other_money = true;
    }
    if (!other_money)
        throw DomainError("FUND_NOT_IN_PROJECT", "The project " + p.number + " is not funded by the " + fund + " fund (its funding sources say which).")
            .at("/fund")
            .with("fund", fund);
}

// What the contractor awarded has invoiced on the project so far.
std::int64_t contractor_invoiced(Database& db, const Project& p) {
    auto q = db.prepare("SELECT coalesce(sum(amount_cents), 0) FROM project_invoices WHERE project_id = ? AND contractor_id = ?");
    bind_parameters(*q, p.id, *p.contractor_id);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

// The fund's account for a project's works: major repairs (contingency), maintenance (operating),
// deductibles and damage (self-insurance).
const char* works_role(const std::string& fund) {
    return fund == "operating" ? "maintenance" : fund == "contingency" ? "major-repairs" : "deductibles";
}

}  // namespace

json record_project_expense(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    if (a.given("contractorId")) require_record_exists(call.db, syndicate, "contractors", a.text("contractorId"), "/contractorId");
    if (a.given("accountId")) accounting::require_account(call.db, syndicate, a.text("accountId"), "/accountId");
    if (a.given("fundUseAuthorizationId")) accounting::require_authorization(call.db, syndicate, a.text("fundUseAuthorizationId"), "/fundUseAuthorizationId");
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    require_status(p, {"approved", "in-progress", "completed"}, "invoices are booked once the project is approved and until it is closed", "/projectId");
    const auto fund = a.text("fund");
    require_fund_in_project(p, fund);
    const auto contractor_id = a.given("contractorId") ? a.optional_text("contractorId") : p.contractor_id;
    if (!contractor_id) throw invalid_argument("/contractorId", "is required without a contract", "Name the supplier (contractorId): no contract is awarded yet.");
    const auto amount = a.integer("amountCents");
    const bool awarded = p.contractor_id && *contractor_id == *p.contractor_id;
    if (awarded) {
        const auto committed = committed_cents(call.db, p);
        const auto invoiced = contractor_invoiced(call.db, p);
        if (invoiced + amount > committed)
            throw DomainError("OVER_CONTRACT", "With this invoice the contractor would have billed " + std::to_string(invoiced + amount) +
                                                   " cents, above the contract and its approved changes (" + std::to_string(committed) +
                                                   "): a change order comes first.")
                .at("/amountCents")
                .with("contractCents", committed)
                .with("invoicedCents", invoiced);
    }
    const double percent = setting_number(call.db, syndicate, "holdbackPercent");
    const auto holdback = a.given("holdbackCents") ? a.integer("holdbackCents")
                                                   : awarded ? static_cast<std::int64_t>(std::llround(static_cast<double>(amount) * percent / 100.0)) : 0;
    if (holdback >= amount)
        throw invalid_argument("/holdbackCents", "is not less than the invoice", "The holdback is a part of the invoice, less than its whole amount.");
    accounting::SupplierInvoice invoice;
    invoice.contractor_id = contractor_id;
    invoice.invoice_number = a.nonblank("invoiceNumber");
    invoice.invoice_date = *date_argument(a, "invoiceDate");
    invoice.fund = fund;
    invoice.account_id = a.given("accountId") ? a.text("accountId") : accounting::system_account(call.db, syndicate, fund, works_role(fund)).id;
    invoice.amount_cents = amount - holdback;
    invoice.fund_use_authorization_id = a.optional_text("fundUseAuthorizationId");
    invoice.document_id = a.optional_text("documentId");
    invoice.description = p.number + " — " + p.title;
    invoice.project_id = project_id;
    const auto expense = accounting::post_supplier_invoice(call, invoice);
    std::optional<std::string> held;
    if (holdback > 0) {
        auto retained = invoice;
        retained.invoice_number = invoice.invoice_number + " (retenue)";
        retained.amount_cents = holdback;
        retained.document_id.reset();
        retained.description = p.number + " — retenue contractuelle jusqu'à la fin des travaux + 30 jours";
        held = accounting::post_supplier_invoice(call, retained, [](std::string_view f) { return f == "amountCents" ? std::string("/holdbackCents") : accounting::same_names(f); });
    }
    if (a.given("paidOn")) accounting::pay_supplier_invoice(call, expense, {*date_argument(a, "paidOn"), "cheque", std::nullopt});
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO project_invoices (id, syndicate_id, project_id, contractor_id, invoice_number, invoice_date, fund, amount_cents, holdback_cents, "
        "expense_id, holdback_expense_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, project_id, contractor_id, invoice.invoice_number, invoice.invoice_date, fund, amount, holdback, expense, held,
                    to_utc_iso(call.clock.now()));
    q->exec();
    call.name_event("project.expense_recorded", "project-invoice", id);
    return {{"invoice", invoice_json(call.db, id)}, {"budget", budget_json(call.db, project_id)}};
}

json get_project_budget(const ToolCall& call) {
    const auto id = call.arguments().text("id");
    require_project(call, id, "/id", true);
    return budget_json(call.db, id);
}

}  // namespace syndic::projects
