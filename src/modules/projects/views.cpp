// A project's parts as the tools show them (catalogue §4.8 Quote, Task, ChangeOrder,
// ProgressUpdate, WarrantyClaim; the invoices with their holdback), and get_project, which gathers
// them with the project's documents.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>

#include "modules/common.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

// Every row of `table` of the project, each shown by `shown`.
json all_of(Database& db, const char* table, const char* order, const std::string& project_id, json (*shown)(Database&, const std::string&)) {
    json out = json::array();
    auto q = db.prepare(std::string("SELECT id FROM ") + table + " WHERE project_id = ? ORDER BY " + order);
    bind_parameters(*q, project_id);
    std::vector<std::string> ids;
    while (q->executeStep()) ids.push_back(q->getColumn(0).getString());
    for (const auto& id : ids) out.push_back(shown(db, id));
    return out;
}

}  // namespace

json quote_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT q.id, q.project_id, q.contractor_id, c.name, q.amount_cents, q.received_on, q.valid_until, q.scope, q.document_id, q.status, "
        "q.contractor_warnings FROM project_quotes q JOIN contractors c ON c.id = q.contractor_id WHERE q.id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()}, {"projectId", q->getColumn(1).getString()}, {"contractorId", q->getColumn(2).getString()},
            {"contractorName", q->getColumn(3).getString()}, {"amountCents", q->getColumn(4).getInt64()}, {"receivedOn", q->getColumn(5).getString()},
            {"validUntil", nullable_text(q->getColumn(6))}, {"scope", q->getColumn(7).getString()}, {"documentId", nullable_text(q->getColumn(8))},
            {"status", q->getColumn(9).getString()}, {"contractorWarnings", json::parse(q->getColumn(10).getString())}};
}

json task_json(Database& db, const std::string& id) {
    auto q = db.prepare("SELECT id, project_id, title, due_on, assignee_director_id, contractor_id, status, done_on FROM project_tasks WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()}, {"projectId", q->getColumn(1).getString()}, {"title", q->getColumn(2).getString()},
            {"dueOn", nullable_text(q->getColumn(3))}, {"assigneeDirectorId", nullable_text(q->getColumn(4))},
            {"contractorId", nullable_text(q->getColumn(5))}, {"status", q->getColumn(6).getString()}, {"doneOn", nullable_text(q->getColumn(7))}};
}

json change_order_json(Database& db, const std::string& id) {
    auto q = db.prepare("SELECT id, project_id, number, description, amount_cents, reason, status, resolution_id, decided_on FROM change_orders WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()}, {"projectId", q->getColumn(1).getString()}, {"number", q->getColumn(2).getString()},
            {"description", q->getColumn(3).getString()}, {"amountCents", q->getColumn(4).getInt64()}, {"reason", q->getColumn(5).getString()},
            {"status", q->getColumn(6).getString()}, {"resolutionId", nullable_text(q->getColumn(7))}, {"decidedOn", nullable_text(q->getColumn(8))}};
}

json progress_json(Database& db, const std::string& id) {
    auto q = db.prepare("SELECT id, project_id, update_on, progress_percent, note, document_ids FROM project_updates WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()}, {"projectId", q->getColumn(1).getString()}, {"date", q->getColumn(2).getString()},
            {"progressPercent", q->getColumn(3).getInt64()}, {"note", nullable_text(q->getColumn(4))},
            {"documentIds", json::parse(q->getColumn(5).getString())}};
}

json invoice_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT i.id, i.project_id, i.contractor_id, i.invoice_number, i.invoice_date, i.fund, i.amount_cents, i.holdback_cents, i.expense_id, "
        "i.holdback_expense_id, n.status, h.status FROM project_invoices i JOIN expenses n ON n.id = i.expense_id "
        "LEFT JOIN expenses h ON h.id = i.holdback_expense_id WHERE i.id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()}, {"projectId", q->getColumn(1).getString()}, {"contractorId", nullable_text(q->getColumn(2))},
            {"invoiceNumber", q->getColumn(3).getString()}, {"invoiceDate", q->getColumn(4).getString()}, {"fund", q->getColumn(5).getString()},
            {"amountCents", q->getColumn(6).getInt64()}, {"holdbackCents", q->getColumn(7).getInt64()}, {"expenseId", q->getColumn(8).getString()},
            {"holdbackExpenseId", nullable_text(q->getColumn(9))}, {"paid", q->getColumn(10).getString() == "paid"},
            {"holdbackReleased", !q->getColumn(11).isNull() && q->getColumn(11).getString() == "paid"}};
}

json warranty_claim_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, project_id, contractor_id, discovered_on, description, basis, window_ends_on, notified_on, status, dispute_id, note, document_ids "
        "FROM warranty_claims WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()}, {"projectId", q->getColumn(1).getString()}, {"contractorId", q->getColumn(2).getString()},
            {"discoveredOn", q->getColumn(3).getString()}, {"description", q->getColumn(4).getString()}, {"basis", q->getColumn(5).getString()},
            {"windowEndsOn", q->getColumn(6).getString()}, {"notifiedOn", nullable_text(q->getColumn(7))}, {"status", q->getColumn(8).getString()},
            {"disputeId", nullable_text(q->getColumn(9))}, {"note", nullable_text(q->getColumn(10))},
            {"documentIds", json::parse(q->getColumn(11).getString())}};
}

std::vector<logbook::OpenProject> open_projects(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare(
        "SELECT p.id, p.number, p.title, p.planned_end, p.component_ids, "
        "(SELECT coalesce(sum(json_extract(s.value, '$.amountCents')), 0) FROM json_each(p.funding_sources) s "
        " WHERE json_extract(s.value, '$.fund') = 'contingency'), "
        "(SELECT coalesce(sum(i.amount_cents), 0) FROM project_invoices i WHERE i.project_id = p.id AND i.fund = 'contingency') "
        "FROM projects p WHERE p.syndicate_id = ? AND p.deleted_at IS NULL AND p.status NOT IN ('closed', 'cancelled') ORDER BY p.created_at, p.id");
    bind_parameters(*q, syndicate_id);
    std::vector<logbook::OpenProject> out;
    while (q->executeStep())
        out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(), optional_text(*q, 3),
                       std::max<std::int64_t>(0, q->getColumn(5).getInt64() - q->getColumn(6).getInt64()),
                       json::parse(q->getColumn(4).getString()).get<std::vector<std::string>>()});
    return out;
}

json get_project(const ToolCall& call) {
    const auto id = call.arguments().text("id");
    require_project(call, id, "/id", true);
    auto out = project_json(call, id);
    out["quotes"] = all_of(call.db, "project_quotes", "received_on, created_at, id", id, quote_json);
    out["tasks"] = all_of(call.db, "project_tasks", "coalesce(due_on, '9999-12-31'), created_at, id", id, task_json);
    out["changeOrders"] = all_of(call.db, "change_orders", "created_at, id", id, change_order_json);
    out["updates"] = all_of(call.db, "project_updates", "update_on, created_at, id", id, progress_json);
    out["invoices"] = all_of(call.db, "project_invoices", "invoice_date, created_at, id", id, invoice_json);
    out["warrantyClaims"] = all_of(call.db, "warranty_claims", "discovered_on, created_at, id", id, warranty_claim_json);
    out["documentIds"] = json::array();
    auto d = call.db.prepare(
        "SELECT DISTINCT l.document_id FROM document_links l WHERE l.syndicate_id = ? AND l.record_type = 'project' AND l.record_id = ? "
        "AND l.deleted_at IS NULL ORDER BY l.document_id");
    bind_parameters(*d, call.caller.syndicate_id, id);
    while (d->executeStep()) out["documentIds"].push_back(d->getColumn(0).getString());
    return out;
}

}  // namespace syndic::projects
