// record_budget_consultation and adopt_budget (catalogue §4.6, art. 1072): the board fixes the
// contributions after consulting the general meeting on the budget, by a passed board resolution
// (the directors' vote), the contingency contribution at least the 5 % or the fund study's
// recommendation (art. 1071), the self-insurance one at least the formula of r. 4.1 s. 2.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/common.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/funds/tools.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

// The budget was before the meeting: a `budget` document linked to it went with the meeting's
// notice (spec decisions.md), or an agenda item names the budget and its fiscal year.
bool presented_at(Database& db, const std::string& syndicate_id, const std::string& meeting_id, const Budget& b) {
    auto q = db.prepare(
        "SELECT 1 FROM meetings m, json_each(m.notice_package) p JOIN documents d ON d.id = p.value "
        "JOIN document_links l ON l.document_id = d.id AND l.deleted_at IS NULL "
        "WHERE m.id = ?1 AND m.syndicate_id = ?2 AND d.kind = 'budget' AND l.record_type = 'budget' AND l.record_id = ?3 "
        "AND d.created_at >= ?4");  // a forecast filed before the lines last changed is not this budget
    bind_parameters(*q, meeting_id, syndicate_id, b.id, b.lines_changed_at);
    if (q->executeStep()) return true;
    auto agenda = db.prepare("SELECT i.value FROM meetings m, json_each(m.agenda) i WHERE m.id = ?1 AND m.syndicate_id = ?2");
    bind_parameters(*agenda, meeting_id, syndicate_id);
    const auto year = std::to_string(b.fiscal_year);
    while (agenda->executeStep()) {
        const auto item = fold_for_search(agenda->getColumn(0).getString());
        const bool names_budget = item.find("budget") != std::string::npos || item.find("previsions budgetaires") != std::string::npos;
        if (names_budget && item.find(year) != std::string::npos) return true;
    }
    return false;
}

// A budget consulted and adopted moves on no further (the catalogue's INVALID_STATUS_TRANSITION).
void require_status(const Budget& b, const std::string& wanted, const std::string& act) {
    if (b.status == wanted || (wanted == "draft-or-consulted" && b.status != "adopted")) return;
    throw DomainError(codes::invalid_status_transition,
                      "The budget of " + std::to_string(b.fiscal_year) + " is " + b.status + ": " + act + " no longer applies to it.")
        .at("/id")
        .with("status", b.status);
}

}  // namespace

json record_budget_consultation(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto b = require_budget(call.db, syndicate, a.text("id"), "/id");
    const auto meeting_id = a.text("meetingId");
    governance::require_meeting_exists(call, meeting_id, "/meetingId");
    require_status(b, "draft", "a consultation");
    auto m = call.db.prepare("SELECT type, status, scheduled_at FROM meetings WHERE id = ?");
    bind_parameters(*m, meeting_id);
    m->executeStep();
    const auto type = m->getColumn(0).getString();
    const auto status = m->getColumn(1).getString();
    const auto held_on = montreal_date(stored_instant(m->getColumn(2).getString()));
    if (type == "board")
        throw DomainError("NOT_A_GENERAL_MEETING", "The board fixes the contributions after consulting the co-owners' general meeting "
                                                   "(art. 1072): a board meeting is not that consultation.")
            .at("/meetingId");
    if (status != "held" && status != "minutes-sent")
        throw DomainError(codes::meeting_not_held, "The meeting is " + status + ": the consultation is recorded once it is held.")
            .at("/meetingId")
            .with("status", status);
    if (m->getColumn(2).getString() < b.lines_changed_at)
        throw invalid_argument("/meetingId", "was held before the budget's lines last changed",
                               "The meeting was held before the budget was drafted or last changed: it was not consulted on this "
                               "budget (art. 1072). Present the budget as it stands to a general meeting.");
    if (!presented_at(call.db, syndicate, meeting_id, b))
        throw invalid_argument("/meetingId", "did not have the budget before it",
                               "The meeting was consulted on this budget only if it was before it: attach the budget forecast to "
                               "the budget as a document of kind budget and send it with the notice (art. 1087), or put the " +
                                   std::to_string(b.fiscal_year) + " budget on the meeting's agenda.");
    auto q = call.db.prepare(
        "UPDATE budgets SET status = 'consulted', consultation_meeting_id = ?, consulted_on = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, meeting_id, held_on, to_utc_iso(call.clock.now()), b.id);
    q->exec();
    call.name_event("budget.consulted", "budget", b.id);
    const auto after = require_budget(call.db, syndicate, b.id, "/id");
    return budget_json(call.db, syndicate, after, checks_of(call.db, syndicate, after, today(call)));
}

json adopt_budget(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto b = require_budget(call.db, syndicate, a.text("id"), "/id");
    governance::require_resolution_exists(call, a.text("resolutionId"), "/resolutionId");
    require_status(b, "draft-or-consulted", "an adoption");
    if (b.status != "consulted")
        throw DomainError("BUDGET_NOT_CONSULTED", "The board fixes the contributions after consulting the general meeting on the "
                                                  "budget (art. 1072): record the consultation first (record_budget_consultation).")
            .at("/id");
    const auto decision = governance::require_passed_resolution(call, a.text("resolutionId"), governance::DecisionBody::board, "simple",
                                                                "/resolutionId");
    if (decision.decided_on < *b.consulted_on)
        throw DomainError("BUDGET_NOT_CONSULTED", "The board decided on " + decision.decided_on + ", before the general meeting was "
                                                  "consulted on " + *b.consulted_on + ": it fixes the contributions after consulting it (art. 1072).")
            .at("/resolutionId")
            .with("consultedOn", *b.consulted_on);
    auto used = call.db.prepare("SELECT fiscal_year FROM budgets WHERE syndicate_id = ? AND resolution_id = ?");
    bind_parameters(*used, syndicate, decision.resolution_id);
    if (used->executeStep())
        throw invalid_argument("/resolutionId", "adopted another budget",
                               "This resolution adopted the budget of " + std::to_string(used->getColumn(0).getInt()) +
                                   " already: each budget is adopted by its own decision of the board.");
    const auto justification = a.optional_nonblank("contingencyJustification");
    const auto checks = checks_of(call.db, syndicate, b, decision.decided_on);
    const auto contributions = contributions_of(call.db, syndicate, b);
    json warnings = checks.warnings;
    if (!checks.contingency_ok) {
        const bool study = checks.contingency_basis == "fund-study";
        if (!study || !justification)
            throw DomainError("CONTINGENCY_BELOW_MINIMUM",
                              "The contingency contribution, " + dollars(contributions.contingency) + ", is below " +
                                  (study ? "the fund study's recommendation for the year, " : "5 % of the operating contribution, ") +
                                  dollars(checks.contingency_minimum_cents) +
                                  (study ? " (art. 1071): give contingencyJustification to adopt it below the study, or raise the line."
                                         : " (art. 1071; no fund study is recorded): raise the contingency contribution line."))
                .at("/id")
                .with("minimumCents", checks.contingency_minimum_cents)
                .with("contributionCents", contributions.contingency)
                .with("basis", checks.contingency_basis);
        warnings.push_back("The contingency contribution is below the fund study's recommendation (" + dollars(checks.contingency_minimum_cents) +
                           "), adopted with a justification: " + *justification);
    }
    if (!checks.self_insurance_ok)
        throw DomainError("SELF_INSURANCE_BELOW_MINIMUM",
                          "The self-insurance contribution, " + dollars(contributions.self_insurance) + ", is below the minimum of r. 4.1 s. 2, " +
                              dollars(checks.self_insurance_minimum_cents) + " (get_self_insurance_requirement shows the steps).")
            .at("/id")
            .with("requiredCents", checks.self_insurance_minimum_cents)
            .with("formula", checks.self_insurance.rule);
    auto q = call.db.prepare(
        "UPDATE budgets SET status = 'adopted', adopted_on = ?, resolution_id = ?, contingency_justification = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, decision.decided_on, decision.resolution_id, justification, to_utc_iso(call.clock.now()), b.id);
    q->exec();
    call.name_event("budget.adopted", "budget", b.id);
    const auto after = require_budget(call.db, syndicate, b.id, "/id");
    auto out = budget_json(call.db, syndicate, after, checks_of(call.db, syndicate, after, decision.decided_on));
    out["warnings"] = warnings;
    return out;
}

}  // namespace syndic::funds
