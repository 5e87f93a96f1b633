// A project's life as a record (catalogue §4.8 list_projects, create_project, update_project,
// delete_project, get_project): proposed with a budget its funding sources add up to, the protected
// funds only for what the law lets them pay (arts. 1071, 1071.1), its budget frozen once approved,
// cancelled only with its invoices settled, archived only when proposed or cancelled.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "modules/yearly_number.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

// Every record the call names exists, before any rule.
void require_links(const ToolCall& call, const Arguments& a) {
    const auto& syndicate = call.caller.syndicate_id;
    require_records_exist(call.db, syndicate, "common_portions", a.texts("commonPortionIds"), "/commonPortionIds", RecordState::active);
    require_records_exist(call.db, syndicate, "logbook_components", a.texts("componentIds"), "/componentIds", RecordState::active);
    if (a.given("requestId")) require_record_exists(call.db, syndicate, "requests", a.text("requestId"), "/requestId");
    if (a.given("insuranceClaimId")) require_record_exists(call.db, syndicate, "insurance_claims", a.text("insuranceClaimId"), "/insuranceClaimId");
}

// The funding sources add up to the budget; the contingency fund pays only major repairs and
// replacements (an emergency only when its works are one), the self-insurance fund only for a claim.
void check_funding(const json& sources, std::int64_t budget, const std::string& category, const std::optional<std::string>& emergency_works,
                   bool has_claim) {
    std::int64_t total = 0;
    for (const auto& s : sources) total += s["amountCents"].get<std::int64_t>();
    if (total != budget)
        throw DomainError("FUNDING_MISMATCH", "The funding sources add up to " + std::to_string(total) + " cents, the budget is " +
                                                  std::to_string(budget) + ": they must be equal.")
            .at("/fundingSources")
            .with("fundingCents", total)
            .with("budgetCents", budget);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const auto fund = sources[i]["fund"].get<std::string>();
        const bool major = category == "major-repair" || category == "replacement" ||
                           (category == "emergency" && (emergency_works == "major-repair" || emergency_works == "replacement"));
        if (fund == "contingency" && !major)
            throw DomainError("FUND_USE_NOT_ALLOWED", "The contingency fund pays only major repairs and replacements of common portions (art. 1071), "
                                                      "not a project of category " + category +
                                                          (category == "emergency" ? " whose works are not one of those (emergencyWorks)" : "") + ".")
                .at("/fundingSources/" + std::to_string(i) + "/fund")
                .with("fund", fund);
        if (fund == "self-insurance" && !has_claim)
            throw DomainError("FUND_USE_NOT_ALLOWED", "The self-insurance fund pays a claim's deductible or damage the insurance does not cover "
                                                      "(art. 1071.1): name the claim (insuranceClaimId).")
                .at("/fundingSources/" + std::to_string(i) + "/fund")
                .with("fund", fund);
    }
}

std::string search_text(const std::string& number, const std::string& title) { return fold_for_search(number) + "\n" + fold_for_search(title); }

}  // namespace

json list_projects(const ToolCall& call) {
    const auto a = call.arguments();
    return list_page(call, "p.id",
                     "FROM projects p WHERE p.syndicate_id = :syndicate AND p.deleted_at IS NULL AND (:status IS NULL OR p.status = :status) "
                     "AND (:category IS NULL OR p.category = :category) AND (:contractorId IS NULL OR p.contractor_id = :contractorId) "
                     "AND (:componentId IS NULL OR EXISTS (SELECT 1 FROM json_each(p.component_ids) c WHERE c.value = :componentId)) "
                     "AND (:search IS NULL OR instr(p.search_text, :search) > 0)",
                     "p.status IN ('closed', 'cancelled'), p.created_at DESC, p.id",
                     {{"status"}, {"category"}, {"contractorId"}, {"componentId"}, {"search", ListValue::folded_search}},
                     [&](SQLite::Statement& q) { return project_json(call, q.getColumn(0).getString()); });
}

json create_project(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    require_links(call, a);
    const auto category = a.text("category");
    const auto emergency = a.optional_text("emergencyWorks");
    if (category == "emergency" && !emergency)
        throw invalid_argument("/emergencyWorks", "is required for an emergency", "An emergency says what its works are (emergencyWorks): the "
                                                                                  "contingency fund pays only a major repair or a replacement.");
    if (category != "emergency" && emergency)
        throw invalid_argument("/emergencyWorks", "is for an emergency", "Only an emergency project says what its works are.");
    const auto sources = a.value("fundingSources");
    const auto budget = a.integer("budgetCents");
    check_funding(sources, budget, category, emergency, a.given("insuranceClaimId"));
    const auto planned_start = date_argument(a, "plannedStart"), planned_end = date_argument(a, "plannedEnd");
    if (planned_start && planned_end && *planned_end < *planned_start)
        throw DomainError(codes::invalid_date_range, "The work cannot end (" + *planned_end + ") before it starts (" + *planned_start + ").").at("/plannedEnd");
    const auto title = a.nonblank("title");
    const auto number = next_yearly_number(call.db, "projects", syndicate, "P-", today(call).substr(0, 4), 3);
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO projects (id, syndicate_id, number, title, description, category, emergency_works, common_portion_ids, component_ids, request_id, "
        "insurance_claim_id, budget_cents, funding_sources, planned_start, planned_end, search_text, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, number, title, a.optional_nonblank("description"), category, emergency, json(a.texts("commonPortionIds")).dump(),
                    json(a.texts("componentIds")).dump(), a.optional_text("requestId"), a.optional_text("insuranceClaimId"), budget, sources.dump(),
                    planned_start, planned_end, search_text(number, title), now, now);
    q->exec();
    return project_json(call, id);
}

json update_project(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("id");
    const auto p = require_project(call, id, "/id");
    require_links(call, a);
    const auto resolutions = a.rows("resolveDeficiencies");
    for (const auto& r : resolutions) require_child(call, "project_deficiencies", r.text("deficiencyId"), id, r.pointer("deficiencyId"));
    require_status(p, {"proposed", "approved", "in-progress", "completed"}, "a closed or cancelled project no longer changes");
    if ((a.given("budgetCents") || a.given("fundingSources")) && p.status != "proposed")
        throw DomainError("PROJECT_LOCKED", "The project " + p.number + " is " + p.status + ": its budget and funding were approved and no longer "
                                            "change. A change to the contract is a change order (add_change_order); a new budget, a new approval.")
            .at(a.given("budgetCents") ? "/budgetCents" : "/fundingSources");
    const auto category = p.category;
    const auto emergency = a.given("emergencyWorks") ? a.optional_text("emergencyWorks") : p.emergency_works;
    if (a.given("emergencyWorks") && category != "emergency")
        throw invalid_argument("/emergencyWorks", "is for an emergency", "Only an emergency project says what its works are.");
    const auto sources = a.given("fundingSources") ? a.value("fundingSources") : p.funding_sources;
    const auto budget = a.given("budgetCents") ? a.integer("budgetCents") : p.budget_cents;
    auto claim = call.db.prepare("SELECT insurance_claim_id FROM projects WHERE id = ?");
    bind_parameters(*claim, id);
    claim->executeStep();
    const bool has_claim = a.has("insuranceClaimId") ? a.given("insuranceClaimId") : !claim->getColumn(0).isNull();
    check_funding(sources, budget, category, emergency, has_claim);
    if (a.text_or("status", "") == "cancelled") {
        require_status(p, {"proposed", "approved", "in-progress"}, "a completed project is closed, not cancelled", "/status");
        if (!a.given("cancelReason")) throw invalid_argument("/cancelReason", "is required to cancel", "Say why the project is cancelled (cancelReason).");
        if (budget_json(call.db, id)["unpaidCents"].get<std::int64_t>() > 0)
            throw DomainError("PROJECT_HAS_UNPAID_INVOICES", "Invoices of " + p.number + " are still unpaid: pay or void them before cancelling.")
                .at("/status");
    }
    const auto title = a.given("title") ? a.nonblank("title") : p.title;
    auto q = call.db.prepare(
        "UPDATE projects SET title = ?1, description = CASE WHEN ?2 THEN ?3 ELSE description END, emergency_works = ?4, "
        "common_portion_ids = coalesce(?5, common_portion_ids), component_ids = coalesce(?6, component_ids), "
        "request_id = CASE WHEN ?7 THEN ?8 ELSE request_id END, insurance_claim_id = CASE WHEN ?9 THEN ?10 ELSE insurance_claim_id END, "
        "budget_cents = ?11, funding_sources = ?12, planned_start = CASE WHEN ?13 THEN ?14 ELSE planned_start END, "
        "planned_end = CASE WHEN ?15 THEN ?16 ELSE planned_end END, actual_start = CASE WHEN ?17 THEN ?18 ELSE actual_start END, "
        "status = coalesce(?19, status), cancel_reason = coalesce(?20, cancel_reason), search_text = ?21, updated_at = ?22 WHERE id = ?23");
    const auto list = [&](const char* key) { return a.has(key) ? std::optional<std::string>(json(a.texts(key)).dump()) : std::nullopt; };
    bind_parameters(*q, title, a.has("description") ? 1 : 0, a.optional_nonblank("description"), emergency, list("commonPortionIds"), list("componentIds"),
                    a.has("requestId") ? 1 : 0, a.optional_text("requestId"), a.has("insuranceClaimId") ? 1 : 0, a.optional_text("insuranceClaimId"),
                    budget, sources.dump(), a.has("plannedStart") ? 1 : 0, date_argument(a, "plannedStart"), a.has("plannedEnd") ? 1 : 0,
                    date_argument(a, "plannedEnd"), a.has("actualStart") ? 1 : 0, date_argument(a, "actualStart"), a.optional_text("status"),
                    a.optional_nonblank("cancelReason"), search_text(p.number, title), to_utc_iso(call.clock.now()), id);
    q->exec();
    // A cancelled project's authorisations to use a fund pay nothing more.
    if (a.text_or("status", "") == "cancelled")
        accounting::use_up_project_authorizations(call.db, call.caller.syndicate_id, id, to_utc_iso(call.clock.now()));
    for (const auto& r : resolutions) {
        auto d = call.db.prepare("UPDATE project_deficiencies SET resolved_on = ? WHERE id = ?");
        bind_parameters(*d, date_argument(r, "resolvedOn").value_or(today(call)), r.text("deficiencyId"));
        d->exec();
    }
    return project_json(call, id);
}

json delete_project(const ToolCall& call) {
    const auto id = call.arguments().text("id");
    const auto p = require_project(call, id, "/id");
    if (p.status != "proposed" && p.status != "cancelled")
        throw DomainError("PROJECT_NOT_DELETABLE", "The project " + p.number + " is " + p.status + ": only a proposed or cancelled project is "
                                                   "archived; its history stays with it otherwise.")
            .at("/id")
            .with("status", p.status);
    auto q = call.db.prepare("UPDATE projects SET deleted_at = ?, updated_at = ?1 WHERE id = ?2");
    bind_parameters(*q, to_utc_iso(call.clock.now()), id);
    q->exec();
    return project_json(call, id);
}

}  // namespace syndic::projects
