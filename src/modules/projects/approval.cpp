// The decisions behind a project (catalogue §4.8 approve_project, decide_change_order; §0, link L10):
// an improvement of the common portions by the co-owners' meeting to at least art. 1097's majority,
// conservation (maintenance, repairs, replacements, studies, emergencies) by the board (art. 1039);
// a change order within the approved budget recorded by any director, above it decided like the
// project itself. A decision open to annulment (90 days, art. 1103) is warned of.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

// The body and majority a project's category needs: an improvement, the co-owners to at least
// absolute (art. 1097 2°); anything else, the board.
governance::Authorisation authorising(const ToolCall& call, const Project& p, const std::string& resolution_id, const std::string& field) {
    if (p.category == "improvement")
        return governance::require_passed_resolution(call, resolution_id, governance::DecisionBody::general, "absolute", field);
    return governance::require_passed_resolution(call, resolution_id, governance::DecisionBody::board, "simple", field);
}

}  // namespace

json approve_project(const ToolCall& call) {
    const auto a = call.arguments();
    const auto id = a.text("id");
    const auto p = require_project(call, id, "/id");
    governance::require_resolution_exists(call, a.text("resolutionId"), "/resolutionId");
    require_status(p, {"proposed"}, "only a proposed project is approved");
    const auto decision = authorising(call, p, a.text("resolutionId"), "/resolutionId");
    auto q = call.db.prepare(
        "UPDATE projects SET status = 'approved', approval_resolution_id = ?, approval_body = ?, approval_majority = ?, approved_on = ?, "
        "contestable_until = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, decision.resolution_id, decision.body, decision.majority, decision.decided_on, decision.contestable_until,
                    to_utc_iso(call.clock.now()), id);
    q->exec();
    call.name_event("project.approved", "project", id);
    auto out = project_json(call, id);
    out["warnings"] = json::array();
    if (decision.contestable_on(today(call)))
        out["warnings"].push_back("The decision of " + decision.decided_on + " may be challenged in court until " + decision.contestable_until +
                                  " (art. 1103): works started before then rest on a decision that could be annulled.");
    if (p.category == "emergency" && p.actual_start && add_calendar_days(*p.actual_start, 30) < decision.decided_on)
        out["warnings"].push_back("The emergency works began on " + *p.actual_start + "; the board's approval of " + decision.decided_on +
                                  " came more than 30 days after.");
    return out;
}

json decide_change_order(const ToolCall& call) {
    const auto a = call.arguments();
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    const auto id = a.text("changeOrderId");
    require_child(call, "change_orders", id, project_id, "/changeOrderId");
    if (a.given("resolutionId")) governance::require_resolution_exists(call, a.text("resolutionId"), "/resolutionId");
    auto c = call.db.prepare("SELECT status, amount_cents, number FROM change_orders WHERE id = ?");
    bind_parameters(*c, id);
    c->executeStep();
    const auto status = c->getColumn(0).getString();
    const auto amount = c->getColumn(1).getInt64();
    const auto number = c->getColumn(2).getString();
    if (status != "pending")
        throw DomainError(codes::invalid_status_transition, "The change order " + number + " was " + status + " already.").at("/changeOrderId").with("status", status);
    require_status(p, {"approved", "in-progress", "completed"}, "its contract no longer changes", "/projectId");
    std::optional<std::string> resolution;
    const bool approve = a.text("decision") == "approve";
    const auto after = committed_cents(call.db, p) + amount;
    if (approve && amount > 0 && after > p.budget_cents) {
        if (!a.given("resolutionId"))
            throw DomainError("RESOLUTION_REQUIRED", "With " + number + ", the contract and its changes come to " + std::to_string(after) +
                                                         " cents, above the approved budget of " + std::to_string(p.budget_cents) +
                                                         ": a passed resolution must approve it (resolutionId).")
                .at("/resolutionId");
        resolution = authorising(call, p, a.text("resolutionId"), "/resolutionId").resolution_id;
    } else if (a.given("resolutionId")) {
        resolution = governance::require_passed_resolution(call, a.text("resolutionId"), governance::DecisionBody::either, "simple", "/resolutionId")
                         .resolution_id;
    }
    auto q = call.db.prepare("UPDATE change_orders SET status = ?, resolution_id = ?, decided_on = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, approve ? "approved" : "rejected", resolution, today(call), to_utc_iso(call.clock.now()), id);
    q->exec();
    call.name_event("change_order.decided", "change-order", id);
    return change_order_json(call.db, id);
}

}  // namespace syndic::projects
