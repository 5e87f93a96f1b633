// The work done (catalogue §4.7 record_maintenance, list_maintenance_history): a record per piece of
// work on a component, which moves its schedule on, resets a replaced component (installed this
// year, in good condition) and books its cost in accounting. The contingency fund pays major
// repairs and replacements only, never maintenance (art. 1071 [S30]).
#include "modules/logbook/maintenance.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/invoices.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/list_query.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::logbook {

using nlohmann::json;

const char* const maintenance_columns =
    "m.id, m.component_id, c.name, m.schedule_id, m.performed_on, m.kind, m.description, m.contractor_id, m.cost_cents, m.expense_id, "
    "m.project_id, m.request_id, m.condition_after, m.document_ids, m.created_at";

json maintenance_row(SQLite::Statement& q) {
    return {{"id", q.getColumn(0).getString()},
            {"componentId", q.getColumn(1).getString()},
            {"componentName", q.getColumn(2).getString()},
            {"scheduleId", nullable_text(q.getColumn(3))},
            {"performedOn", q.getColumn(4).getString()},
            {"kind", q.getColumn(5).getString()},
            {"description", q.getColumn(6).getString()},
            {"contractorId", nullable_text(q.getColumn(7))},
            {"costCents", nullable_integer(q.getColumn(8))},
            {"expenseId", nullable_text(q.getColumn(9))},
            {"projectId", nullable_text(q.getColumn(10))},
            {"requestId", nullable_text(q.getColumn(11))},
            {"conditionAfter", nullable_text(q.getColumn(12))},
            {"documentIds", json::parse(q.getColumn(13).getString())},
            {"createdAt", shown_time(q.getColumn(14))}};
}

json maintenance_json(Database& db, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + maintenance_columns +
                        " FROM maintenance_records m JOIN logbook_components c ON c.id = m.component_id WHERE m.id = ?");
    bind_parameters(*q, id);
    if (!q->executeStep()) throw std::logic_error("no maintenance record " + id);
    return maintenance_row(*q);
}

namespace {

// The fund's expense account for the work: maintenance from the operating fund, major repairs from
// the contingency fund, deductibles and damage from the self-insurance fund.
const char* expense_role(const std::string& fund) {
    return fund == "operating" ? "maintenance" : fund == "contingency" ? "major-repairs" : "deductibles";
}

// Every record the work names exists, before any rule.
void require_references(const ToolCall& call, const Arguments& a, const std::string& component_id) {
    const auto& syndicate = call.caller.syndicate_id;
    require_component(call, component_id, a.pointer("componentId"));
    if (a.given("scheduleId")) {
        auto q = call.db.prepare("SELECT 1 FROM maintenance_schedules WHERE id = ? AND syndicate_id = ? AND component_id = ?");
        bind_parameters(*q, a.text("scheduleId"), syndicate, component_id);
        if (!q->executeStep()) throw record_not_found("maintenance_schedules", a.text("scheduleId"), a.pointer("scheduleId"));
    }
    if (a.given("contractorId"))
        require_record_exists(call.db, syndicate, "contractors", a.text("contractorId"), a.pointer("contractorId"), RecordState::active);
    if (a.given("fundUseAuthorizationId"))
        accounting::require_authorization(call.db, syndicate, a.text("fundUseAuthorizationId"), a.pointer("fundUseAuthorizationId"));
    require_records_exist(call.db, syndicate, "documents", a.texts("documentIds"), a.pointer("documentIds"));
}

// A cost booked from a fund: the invoice's fields are given, and maintenance is not the contingency
// fund's (art. 1071).
void check_costing(const Arguments& a, const std::string& kind) {
    if (!a.given("fund")) {
        for (const char* field : {"invoiceNumber", "fundUseAuthorizationId", "paidOn"})
            if (a.given(field))
                throw invalid_argument(a.pointer(field), "needs fund", "The cost is booked in accounting only with the fund that pays it (fund).");
        return;
    }
    for (const char* field : {"costCents", "contractorId", "invoiceNumber"})
        if (!a.given(field))
            throw invalid_argument(a.pointer(field), "is required with fund",
                                   "Booking the cost in accounting takes the contractor's invoice: costCents, contractorId and invoiceNumber.");
    const auto fund = a.text("fund");
    if (fund == "contingency" && (kind == "routine" || kind == "repair" || kind == "inspection"))
        throw DomainError(accounting::codes::fund_use_not_allowed,
                          "The contingency fund pays only major repairs and replacements of common portions, not " + kind +
                              " maintenance (art. 1071): book it to the operating fund.")
            .at(a.pointer("fund"))
            .with("fund", fund)
            .with("cents", a.integer("costCents"));
}

// The component after the work: a replacement makes it new (installed this year, good, its
// replacement year back to installed + life); otherwise the condition found after the work.
void update_component(const ToolCall& call, const std::string& component_id, const std::string& kind, const std::string& performed_on,
                      const std::optional<std::string>& condition_after, const std::string& now) {
    if (kind == "replacement") {
        auto q = call.db.prepare(
            "UPDATE logbook_components SET installed_year = ?, condition = coalesce(?, 'good'), replacement_year = NULL, updated_at = ? WHERE id = ?");
        bind_parameters(*q, std::stoi(performed_on.substr(0, 4)), condition_after, now, component_id);
        q->exec();
    } else if (condition_after) {
        auto q = call.db.prepare("UPDATE logbook_components SET condition = ?, updated_at = ? WHERE id = ? AND condition <> ?1");
        bind_parameters(*q, *condition_after, now, component_id);
        q->exec();
    }
}

}  // namespace

std::string record_work(const ToolCall& call, const Arguments& a, const MaintenanceLinks& links) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto component_id = a.text("componentId");
    require_references(call, a, component_id);
    const auto kind = a.text("kind");
    const auto performed_on = *date_argument(a, "performedOn");
    if (performed_on > today(call))
        throw DomainError(codes::invalid_date_range, "Work is recorded once done: " + performed_on + " is after today.").at(a.pointer("performedOn"));
    check_costing(a, kind);
    const auto now = to_utc_iso(call.clock.now());
    const auto id = new_record_id();
    const auto condition_after = a.optional_text("conditionAfter");
    auto q = call.db.prepare(
        "INSERT INTO maintenance_records (id, syndicate_id, component_id, schedule_id, performed_on, kind, description, contractor_id, cost_cents, "
        "project_id, request_id, condition_after, document_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, component_id, a.optional_text("scheduleId"), performed_on, kind, a.nonblank("description"),
                    a.optional_text("contractorId"), a.optional_integer("costCents"), links.project_id, links.request_id, condition_after,
                    json(a.texts("documentIds")).dump(), now);
    q->exec();
    for (const auto& document : a.texts("documentIds")) documents::attach(call.db, syndicate, document, "maintenance-record", id, now);
    if (a.given("scheduleId")) {
        // The schedule moves on from the latest work done (a late entry for older work leaves it).
        auto s = call.db.prepare("SELECT last_done_on, frequency_months FROM maintenance_schedules WHERE id = ?");
        bind_parameters(*s, a.text("scheduleId"));
        s->executeStep();
        if (s->getColumn(0).isNull() || s->getColumn(0).getString() < performed_on) {
            auto u = call.db.prepare("UPDATE maintenance_schedules SET last_done_on = ?, next_due_on = ?, updated_at = ? WHERE id = ?");
            bind_parameters(*u, performed_on, add_calendar_months(performed_on, s->getColumn(1).getInt()), now, a.text("scheduleId"));
            u->exec();
        }
    }
    update_component(call, component_id, kind, performed_on, condition_after, now);
    if (a.given("fund")) {
        const auto fund = a.text("fund");
        accounting::SupplierInvoice invoice;
        invoice.contractor_id = a.text("contractorId");
        invoice.invoice_number = a.nonblank("invoiceNumber");
        invoice.invoice_date = performed_on;
        invoice.fund = fund;
        invoice.account_id = accounting::system_account(call.db, syndicate, fund, expense_role(fund)).id;
        invoice.amount_cents = a.integer("costCents");
        invoice.fund_use_authorization_id = a.optional_text("fundUseAuthorizationId");
        invoice.description = a.nonblank("description");
        invoice.maintenance_record_id = id;
        invoice.project_id = links.project_id;
        const auto at = [&a](std::string_view field) { return a.pointer(field == "amountCents" ? "costCents" : field == "invoiceDate" ? "performedOn" : field); };
        const auto expense_id = accounting::post_supplier_invoice(call, invoice, at);
        if (a.given("paidOn")) accounting::pay_supplier_invoice(call, expense_id, {*date_argument(a, "paidOn"), "cheque", std::nullopt}, at);
        auto e = call.db.prepare("UPDATE maintenance_records SET expense_id = ? WHERE id = ?");
        bind_parameters(*e, expense_id, id);
        e->exec();
    }
    call.name_event("maintenance.recorded", "maintenance-record", id);
    return id;
}

std::string record_project_work(const ToolCall& call, const ProjectWork& work) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO maintenance_records (id, syndicate_id, component_id, performed_on, kind, description, contractor_id, cost_cents, project_id, "
        "condition_after, document_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, work.component_id, work.performed_on, work.kind, work.description, work.contractor_id, work.cost_cents,
                    work.project_id, work.condition, json(work.document_ids).dump(), now);
    q->exec();
    auto u = call.db.prepare(
        "UPDATE logbook_components SET installed_year = ?, expected_life_years = coalesce(?, expected_life_years), condition = ?, "
        "replacement_year = NULL, updated_at = ? WHERE id = ?");
    bind_parameters(*u, work.installed_year, work.expected_life_years, work.condition, now, work.component_id);
    u->exec();
    call.name_event("maintenance.recorded", "maintenance-record", id);
    return id;
}

json record_maintenance(const ToolCall& call) {
    const auto a = call.arguments();
    MaintenanceLinks links;
    if (a.given("requestId")) {
        require_record_exists(call.db, call.caller.syndicate_id, "requests", a.text("requestId"), "/requestId");
        links.request_id = a.text("requestId");
    }
    return maintenance_json(call.db, record_work(call, a, links));
}

json list_maintenance_history(const ToolCall& call) {
    return list_page(call, std::string(maintenance_columns),
                     "FROM maintenance_records m JOIN logbook_components c ON c.id = m.component_id WHERE m.syndicate_id = :syndicate "
                     "AND (:componentId IS NULL OR m.component_id = :componentId) AND (:kind IS NULL OR m.kind = :kind) "
                     "AND (:contractorId IS NULL OR m.contractor_id = :contractorId) AND (:from IS NULL OR m.performed_on >= :from) "
                     "AND (:to IS NULL OR m.performed_on <= :to)",
                     "m.performed_on DESC, m.created_at DESC, m.id",
                     {{"componentId"}, {"kind"}, {"contractorId"}, {"from", ListValue::date}, {"to", ListValue::date}},
                     [](SQLite::Statement& q) { return maintenance_row(q); });
}

}  // namespace syndic::logbook
