// A project as stored and shown (catalogue §4.8 Project), and its money: the invoices booked as
// expenses (what is paid now, and the holdback kept as a payable), paid or not in the ledger.
#include "modules/projects/records.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

Project require_project(const ToolCall& call, const std::string& id, const std::string& field, bool archived_too) {
    auto q = call.db.prepare(
        "SELECT id, number, title, category, status, emergency_works, contractor_id, actual_start, completed_on, holdback_releasable_on, "
        "contract_amount_cents, budget_cents, funding_sources, component_ids, deleted_at FROM projects WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, call.caller.syndicate_id);
    if (!q->executeStep() || (!archived_too && !q->getColumn(14).isNull())) throw record_not_found("projects", id, field);
    Project p;
    p.id = q->getColumn(0).getString();
    p.number = q->getColumn(1).getString();
    p.title = q->getColumn(2).getString();
    p.category = q->getColumn(3).getString();
    p.status = q->getColumn(4).getString();
    p.emergency_works = optional_text(*q, 5);
    p.contractor_id = optional_text(*q, 6);
    p.actual_start = optional_text(*q, 7);
    p.completed_on = optional_text(*q, 8);
    p.holdback_releasable_on = optional_text(*q, 9);
    if (!q->getColumn(10).isNull()) p.contract_amount_cents = q->getColumn(10).getInt64();
    p.budget_cents = q->getColumn(11).getInt64();
    p.funding_sources = json::parse(q->getColumn(12).getString());
    p.component_ids = json::parse(q->getColumn(13).getString());
    return p;
}

void require_status(const Project& p, std::initializer_list<const char*> allowed, const std::string& what, const std::string& field) {
    for (const char* s : allowed)
        if (p.status == s) return;
    throw DomainError(codes::invalid_status_transition, "The project " + p.number + " is " + p.status + ": " + what + ".").at(field).with("status", p.status);
}

void require_child(const ToolCall& call, const char* table, const std::string& id, const std::string& project_id, const std::string& field) {
    auto q = call.db.prepare(std::string("SELECT 1 FROM ") + table + " WHERE id = ? AND syndicate_id = ? AND project_id = ?");
    bind_parameters(*q, id, call.caller.syndicate_id, project_id);
    if (!q->executeStep()) throw record_not_found(table, id, field);
}

void require_not_future(const ToolCall& call, const std::string& day, const std::string& field) {
    if (day > today(call))
        throw DomainError(codes::invalid_date_range, "The day " + day + " has not come yet.").at(field).with("today", today(call));
}

void require_director(const ToolCall& call, const std::string& id, const std::string& field) {
    auto q = call.db.prepare("SELECT 1 FROM directors WHERE id = ? AND syndicate_id = ? AND status = 'active'");
    bind_parameters(*q, id, call.caller.syndicate_id);
    if (!q->executeStep()) throw record_not_found("directors", id, field);
}

std::int64_t committed_cents(Database& db, const Project& p) {
    if (!p.contract_amount_cents) return 0;
    auto q = db.prepare("SELECT coalesce(sum(amount_cents), 0) FROM change_orders WHERE project_id = ? AND status = 'approved'");
    bind_parameters(*q, p.id);
    q->executeStep();
    return *p.contract_amount_cents + q->getColumn(0).getInt64();
}

json budget_json(Database& db, const std::string& id) {
    auto p = db.prepare("SELECT budget_cents, contract_amount_cents, funding_sources FROM projects WHERE id = ?");
    bind_parameters(*p, id);
    p->executeStep();
    const auto budget = p->getColumn(0).getInt64();
    const json contract = nullable_integer(p->getColumn(1));
    const auto sources = json::parse(p->getColumn(2).getString());
    auto c = db.prepare(
        "SELECT coalesce(sum(CASE WHEN status = 'approved' THEN amount_cents END), 0), coalesce(sum(CASE WHEN status = 'pending' THEN amount_cents END), 0) "
        "FROM change_orders WHERE project_id = ?");
    bind_parameters(*c, id);
    c->executeStep();
    const auto approved = c->getColumn(0).getInt64(), pending = c->getColumn(1).getInt64();
    // Each invoice: its whole amount, its part paid now and its holdback, each paid or not.
    auto i = db.prepare(
        "SELECT i.fund, i.amount_cents, i.holdback_cents, n.status, h.status FROM project_invoices i JOIN expenses n ON n.id = i.expense_id "
        "LEFT JOIN expenses h ON h.id = i.holdback_expense_id WHERE i.project_id = ?");
    bind_parameters(*i, id);
    std::int64_t invoiced = 0, paid = 0, held = 0, released = 0, unpaid = 0;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> by_fund;  // invoiced, paid
    while (i->executeStep()) {
        const auto fund = i->getColumn(0).getString();
        const auto amount = i->getColumn(1).getInt64(), holdback = i->getColumn(2).getInt64();
        const bool net_paid = i->getColumn(3).getString() == "paid";
        const bool holdback_paid = !i->getColumn(4).isNull() && i->getColumn(4).getString() == "paid";
        const auto paid_here = (net_paid ? amount - holdback : 0) + (holdback_paid ? holdback : 0);
        invoiced += amount;
        paid += paid_here;
        (holdback_paid ? released : held) += holdback;
        if (!net_paid && i->getColumn(3).getString() != "void") unpaid += amount - holdback;
        by_fund[fund].first += amount;
        by_fund[fund].second += paid_here;
    }
    // An invoice paid from a ledger fund that is not a source is charged to the money raised otherwise
    // (a special assessment, an indemnity, a loan: deposited in a fund of the syndicate's choosing).
    std::optional<std::string> raised;
    for (const auto& s : sources)
        if (!raised && s["fund"] != "operating" && s["fund"] != "contingency" && s["fund"] != "self-insurance") raised = s["fund"].get<std::string>();
    if (raised)
        for (auto it = by_fund.begin(); it != by_fund.end();) {
            const bool is_source = std::any_of(sources.begin(), sources.end(), [&](const json& s) { return s["fund"] == it->first; });
            if (is_source || it->first == *raised) {
                ++it;
                continue;
            }
            by_fund[*raised].first += it->second.first;
            by_fund[*raised].second += it->second.second;
            it = by_fund.erase(it);
        }
    json sources_out = json::array();
    for (const auto& s : sources) {
        const auto fund = s["fund"].get<std::string>();
        const auto it = by_fund.find(fund);
        sources_out.push_back({{"fund", fund}, {"amountCents", s["amountCents"]}, {"invoicedCents", it == by_fund.end() ? 0 : it->second.first},
                               {"paidCents", it == by_fund.end() ? 0 : it->second.second}});
    }
    return {{"projectId", id},
            {"budgetCents", budget},
            {"contractAmountCents", contract},
            {"approvedChangesCents", approved},
            {"pendingChangesCents", pending},
            {"committedCents", contract.is_null() ? 0 : contract.get<std::int64_t>() + approved},
            {"invoicedCents", invoiced},
            {"paidCents", paid},
            {"holdbackHeldCents", held},
            {"holdbackReleasedCents", released},
            {"unpaidCents", unpaid},
            {"remainingBudgetCents", budget - invoiced},
            {"bySource", std::move(sources_out)}};
}

json project_json(const ToolCall& call, const std::string& id) {
    auto q = call.db.prepare(
        "SELECT id, number, title, description, category, emergency_works, status, common_portion_ids, component_ids, request_id, insurance_claim_id, "
        "budget_cents, funding_sources, approval_resolution_id, approval_body, approval_majority, approved_on, contestable_until, contractor_id, "
        "quote_id, contract_amount_cents, planned_start, planned_end, actual_start, completed_on, warranty_ends_on, structural_warranty_ends_on, "
        "holdback_releasable_on, progress_percent, cancel_reason, closed_on, created_at, updated_at, deleted_at FROM projects WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    const auto money = budget_json(call.db, id);
    json approval = nullptr;
    if (!q->getColumn(13).isNull())
        approval = {{"resolutionId", q->getColumn(13).getString()}, {"body", q->getColumn(14).getString()}, {"majority", q->getColumn(15).getString()},
                    {"approvedOn", q->getColumn(16).getString()}, {"contestableUntil", q->getColumn(17).getString()}};
    json out = {{"id", q->getColumn(0).getString()},
                {"number", q->getColumn(1).getString()},
                {"title", q->getColumn(2).getString()},
                {"description", nullable_text(q->getColumn(3))},
                {"category", q->getColumn(4).getString()},
                {"emergencyWorks", nullable_text(q->getColumn(5))},
                {"status", q->getColumn(6).getString()},
                {"commonPortionIds", json::parse(q->getColumn(7).getString())},
                {"componentIds", json::parse(q->getColumn(8).getString())},
                {"requestId", nullable_text(q->getColumn(9))},
                {"insuranceClaimId", nullable_text(q->getColumn(10))},
                {"budgetCents", q->getColumn(11).getInt64()},
                {"fundingSources", json::parse(q->getColumn(12).getString())},
                {"approval", approval},
                {"contractorId", nullable_text(q->getColumn(18))},
                {"quoteId", nullable_text(q->getColumn(19))},
                {"contractAmountCents", nullable_integer(q->getColumn(20))},
                {"approvedChangesCents", money["approvedChangesCents"]},
                {"plannedStart", nullable_text(q->getColumn(21))},
                {"plannedEnd", nullable_text(q->getColumn(22))},
                {"actualStart", nullable_text(q->getColumn(23))},
                {"completedOn", nullable_text(q->getColumn(24))},
                {"deficiencies", json::array()},
                {"warrantyEndsOn", nullable_text(q->getColumn(25))},
                {"structuralWarrantyEndsOn", nullable_text(q->getColumn(26))},
                {"holdbackCents", money["holdbackHeldCents"]},
                {"holdbackReleasableOn", nullable_text(q->getColumn(27))},
                {"progressPercent", q->getColumn(28).getInt64()},
                {"invoicedCents", money["invoicedCents"]},
                {"paidCents", money["paidCents"]},
                {"cancelReason", nullable_text(q->getColumn(29))},
                {"closedOn", nullable_text(q->getColumn(30))},
                {"createdAt", shown_time(q->getColumn(31))},
                {"updatedAt", shown_time(q->getColumn(32))}};
    if (!q->getColumn(33).isNull()) out["deletedAt"] = shown_time(q->getColumn(33));
    auto d = call.db.prepare("SELECT id, description, due_on, resolved_on, waived_note FROM project_deficiencies WHERE project_id = ? ORDER BY created_at, id");
    bind_parameters(*d, id);
    while (d->executeStep())
        out["deficiencies"].push_back({{"id", d->getColumn(0).getString()}, {"description", d->getColumn(1).getString()},
                                       {"dueOn", nullable_text(d->getColumn(2))}, {"resolvedOn", nullable_text(d->getColumn(3))},
                                       {"waived", !d->getColumn(4).isNull()}});
    return out;
}

}  // namespace syndic::projects
