// The end of the works (catalogue §4.8 complete_project, close_project): acceptance (réception) with
// its deficiencies, from which the warranties run (poor workmanship 1 year, art. 2120; loss of the
// work 5 years, art. 2118) and the holdback may be released 30 days later (art. 2727); closing, once
// every deficiency is corrected or waived and every invoice settled, writes the works into the
// logbook and renews the components (link L12), and uses up the project's fund authorisations.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/invoices.hpp"
#include "modules/common.hpp"
#include "modules/documents/filing.hpp"
#include "modules/list_query.hpp"
#include "modules/logbook/maintenance.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

std::vector<std::string> ids_of(Database& db, const std::string& sql, const std::string& project_id) {
    auto q = db.prepare(sql);
    bind_parameters(*q, project_id);
    std::vector<std::string> out;
    while (q->executeStep()) out.push_back(q->getColumn(0).getString());
    return out;
}

std::string joined(const std::vector<std::string>& ids) {
    std::string out;
    for (const auto& id : ids) out += (out.empty() ? "" : ",") + id;
    return out;
}

// Closing's checks: every deficiency corrected or waived, every invoice paid or voided (the holdback
// aside), the holdback released only once releasable.
void check_closing(const ToolCall& call, const Project& p, const Arguments& a) {
    const auto waived = a.texts("waiveDeficiencyIds");
    if (!waived.empty() && !a.given("waiverNote"))
        throw invalid_argument("/waiverNote", "is required to waive", "Say why the deficiencies are waived (waiverNote).");
    std::vector<std::string> open;
    for (const auto& id : ids_of(call.db, "SELECT id FROM project_deficiencies WHERE project_id = ? AND resolved_on IS NULL AND waived_note IS NULL ORDER BY id",
                                 p.id))
        if (std::find(waived.begin(), waived.end(), id) == waived.end()) open.push_back(id);
    if (!open.empty())
        throw DomainError("PROJECT_HAS_OPEN_DEFICIENCIES", std::to_string(open.size()) + " deficiency(ies) found at acceptance are still open: record "
                                                           "them corrected (update_project resolveDeficiencies) or waive them (waiveDeficiencyIds).")
            .at("/id")
            .with("deficiencyIds", joined(open));
    const auto unpaid = ids_of(call.db,
                               "SELECT x.id FROM project_invoices i JOIN expenses x ON x.id = i.expense_id WHERE i.project_id = ? AND x.status = 'unpaid' "
                               "ORDER BY x.id",
                               p.id);
    if (!unpaid.empty())
        throw DomainError("PROJECT_HAS_UNPAID_INVOICES", std::to_string(unpaid.size()) + " invoice(s) of " + p.number +
                                                         " are unpaid: pay them (record_expense with id and paidOn) before closing.")
            .at("/id")
            .with("expenseIds", joined(unpaid));
    if (a.flag("releaseHoldback", false) && p.holdback_releasable_on && today(call) < *p.holdback_releasable_on)
        throw DomainError("HOLDBACK_NOT_RELEASABLE", "The holdback is kept until " + *p.holdback_releasable_on +
                                                     ", 30 days after the end of work, the time to register a construction hypothec (art. 2727).")
            .at("/releaseHoldback")
            .with("holdbackReleasableOn", *p.holdback_releasable_on);
}

// One maintenance record per component, the invoiced total shared equally (the first ones take the
// cents left over), each component renewed unless componentUpdates says otherwise.
void write_into_logbook(const ToolCall& call, const Project& p, const Arguments& a) {
    const auto components = p.component_ids.get<std::vector<std::string>>();
    if (components.empty()) return;
    const auto invoiced = budget_json(call.db, p.id)["invoicedCents"].get<std::int64_t>();
    const auto n = static_cast<std::int64_t>(components.size());
    std::map<std::string, Arguments> overrides;
    for (const auto& u : a.rows("componentUpdates")) overrides.emplace(u.text("componentId"), u);
    auto doc = call.db.prepare("SELECT acceptance_document_id FROM projects WHERE id = ?");
    bind_parameters(*doc, p.id);
    doc->executeStep();
    const auto acceptance = optional_text(*doc, 0);
    for (std::int64_t i = 0; i < n; ++i) {
        logbook::ProjectWork w;
        w.component_id = components[static_cast<std::size_t>(i)];
        w.kind = p.category == "replacement" || p.emergency_works == "replacement" ? "replacement" : "major-work";
        w.performed_on = *p.completed_on;
        w.description = p.number + " — " + p.title;
        w.project_id = p.id;
        w.contractor_id = p.contractor_id;
        w.cost_cents = invoiced / n + (i < invoiced % n ? 1 : 0);
        w.installed_year = std::stoll(p.completed_on->substr(0, 4));
        if (acceptance) w.document_ids.push_back(*acceptance);
        if (const auto it = overrides.find(w.component_id); it != overrides.end()) {
            w.installed_year = it->second.integer_or("installedYear", w.installed_year);
            w.expected_life_years = it->second.optional_integer("expectedLifeYears");
            w.condition = it->second.text_or("condition", "good");
        }
        logbook::record_project_work(call, w);
    }
}

}  // namespace

json complete_project(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("id");
    const auto p = require_project(call, id, "/id");
    if (a.given("documentId")) require_record_exists(call.db, call.caller.syndicate_id, "documents", a.text("documentId"), "/documentId");
    require_status(p, {"in-progress"}, "the work is accepted once under way");
    const auto completed = *date_argument(a, "completedOn");
    require_not_future(call, completed, "/completedOn");
    if (p.actual_start && completed < *p.actual_start)
        throw DomainError(codes::invalid_date_range, "The work began on " + *p.actual_start + ": it is accepted on that day or later.").at("/completedOn");
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "UPDATE projects SET status = 'completed', completed_on = ?1, warranty_ends_on = ?2, structural_warranty_ends_on = ?3, holdback_releasable_on = ?4, "
        "acceptance_document_id = ?5, progress_percent = 100, updated_at = ?6 WHERE id = ?7");
    bind_parameters(*q, completed, add_calendar_months(completed, 12), add_calendar_months(completed, 60), add_calendar_days(completed, 30),
                    a.optional_text("documentId"), now, id);
    q->exec();
    for (const auto& d : a.rows("deficiencies")) {
        auto r = call.db.prepare("INSERT INTO project_deficiencies (id, syndicate_id, project_id, description, due_on, created_at) VALUES (?, ?, ?, ?, ?, ?)");
        bind_parameters(*r, new_record_id(), call.caller.syndicate_id, id, d.nonblank("description"), date_argument(d, "dueOn"), now);
        r->exec();
    }
    if (a.given("documentId")) documents::attach(call.db, call.caller.syndicate_id, a.text("documentId"), "project", id, now);
    call.name_event("project.completed", "project", id);
    return project_json(call, id);
}

json close_project(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("id");
    const auto p = require_project(call, id, "/id");
    for (const auto& w : a.texts("waiveDeficiencyIds")) require_child(call, "project_deficiencies", w, id, "/waiveDeficiencyIds");
    for (const auto& u : a.rows("componentUpdates")) {
        require_record_exists(call.db, call.caller.syndicate_id, "logbook_components", u.text("componentId"), u.pointer("componentId"), RecordState::active);
        const auto listed = p.component_ids.get<std::vector<std::string>>();
        if (std::find(listed.begin(), listed.end(), u.text("componentId")) == listed.end())
            throw invalid_argument(u.pointer("componentId"), "is not one of the project's components",
                                   "componentUpdates change the components the project worked on (its componentIds).");
    }
    require_status(p, {"completed"}, "a project is closed once its work is accepted (complete_project)");
    check_closing(call, p, a);
    const auto now = to_utc_iso(call.clock.now());
    auto w = call.db.prepare("UPDATE project_deficiencies SET waived_note = ? WHERE id = ?");
    for (const auto& d : a.texts("waiveDeficiencyIds")) {
        bind_parameters(*w, a.nonblank("waiverNote"), d);
        w->exec();
        w->reset();
    }
    if (a.flag("releaseHoldback", false))
        for (const auto& expense : ids_of(call.db,
                                          "SELECT x.id FROM project_invoices i JOIN expenses x ON x.id = i.holdback_expense_id WHERE i.project_id = ? "
                                          "AND x.status = 'unpaid' ORDER BY i.invoice_date, x.id",
                                          id))
            accounting::pay_supplier_invoice(call, expense, {today(call), "cheque", std::nullopt},
                                             [](std::string_view) { return std::string("/releaseHoldback"); });
    write_into_logbook(call, p, a);
    accounting::use_up_project_authorizations(call.db, call.caller.syndicate_id, id, now);
    auto c = call.db.prepare("UPDATE projects SET status = 'closed', closed_on = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*c, today(call), now, id);
    c->exec();
    call.name_event("project.closed", "project", id);
    return project_json(call, id);
}

}  // namespace syndic::projects
