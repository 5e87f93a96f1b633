// Quotes and the contract (catalogue §4.8 add_project_quote, award_project_contract; link L13): a
// quote says what would stop its award; the award goes to a quote still valid, within the approved
// budget, after the quotes the by-laws ask for, to a contractor insured on the day and holding an
// RBQ licence for construction work, the directors with an interest abstaining (art. 324), by a
// passed resolution of the board.
#include <SQLiteCpp/Statement.h>

#include <set>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/governance/in_office.hpp"
#include "modules/list_query.hpp"
#include "modules/projects/records.hpp"
#include "modules/projects/tools.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::projects {

using nlohmann::json;

namespace {

struct Contractor {
    std::string name;
    std::optional<std::string> rbq_licence, insurance_expiry;
    bool archived = false;
};

Contractor contractor_of(Database& db, const std::string& id) {
    auto q = db.prepare("SELECT name, rbq_licence, insurance_expiry, deleted_at FROM contractors WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {q->getColumn(0).getString(), optional_text(*q, 1), optional_text(*q, 2), !q->getColumn(3).isNull()};
}

// Insured on `day`: an expiry recorded and after it (a policy covers until the day it ends).
bool insured_on(const Contractor& c, const std::string& day) { return c.insurance_expiry && *c.insurance_expiry > day; }

// What would stop the award to this contractor, as a quote shows it.
json warnings_of(const Contractor& c, const Project& p, const std::string& day) {
    json out = json::array();
    if (p.category != "study" && !c.rbq_licence)
        out.push_back("no RBQ licence recorded: construction work needs one (Building Act, chapter B-1.1)");
    if (!c.insurance_expiry) out.push_back("liability insurance unknown: record its expiry (update_contractor insuranceExpiry)");
    else if (!insured_on(c, day)) out.push_back("liability insurance expired on " + *c.insurance_expiry);
    return out;
}

// The directors in office who declared an interest in the contractor and are not listed as abstaining.
std::vector<std::string> interested_directors(const ToolCall& call, const std::string& contractor_id, const std::set<std::string>& abstaining) {
    std::set<std::string> in_office;
    for (const auto& d : governance::directors_in_office(call.db, call.caller.syndicate_id, today(call))) in_office.insert(d.id);
    auto q = call.db.prepare(
        "SELECT DISTINCT director_id FROM interest_disclosures WHERE syndicate_id = ? AND subject_type = 'contractor' AND subject_id = ? AND active = 1 "
        "ORDER BY director_id");
    bind_parameters(*q, call.caller.syndicate_id, contractor_id);
    std::vector<std::string> out;
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        if (in_office.count(id) && !abstaining.count(id)) out.push_back(id);
    }
    return out;
}

}  // namespace

json add_project_quote(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    const auto contractor_id = a.text("contractorId");
    require_record_exists(call.db, syndicate, "contractors", contractor_id, "/contractorId", RecordState::active);
    if (a.given("documentId")) require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    require_status(p, {"proposed", "approved"}, "quotes are taken before the contract is awarded", "/projectId");
    if (p.contractor_id)
        throw DomainError(codes::invalid_status_transition, "The contract of " + p.number + " was awarded already.").at("/projectId").with("status", p.status);
    const auto received = *date_argument(a, "receivedOn");
    require_not_future(call, received, "/receivedOn");
    const auto valid_until = date_argument(a, "validUntil");
    if (valid_until && *valid_until < received)
        throw DomainError(codes::invalid_date_range, "A quote is valid from the day it was received (" + received + "), not until " + *valid_until + ".")
            .at("/validUntil");
    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO project_quotes (id, syndicate_id, project_id, contractor_id, amount_cents, received_on, valid_until, scope, document_id, "
        "contractor_warnings, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const auto now = to_utc_iso(call.clock.now());
    bind_parameters(*q, id, syndicate, project_id, contractor_id, a.integer("amountCents"), received, valid_until, a.nonblank("scope"),
                    a.optional_text("documentId"), warnings_of(contractor_of(call.db, contractor_id), p, today(call)).dump(), now);
    q->exec();
    call.name_event("project.quote_added", "project-quote", id);
    return quote_json(call.db, id);
}

json award_project_contract(const ToolCall& call) {
    const auto a = call.arguments();
    const auto project_id = a.text("projectId");
    const auto p = require_project(call, project_id, "/projectId");
    const auto quote_id = a.text("quoteId");
    require_child(call, "project_quotes", quote_id, project_id, "/quoteId");
    governance::require_resolution_exists(call, a.text("resolutionId"), "/resolutionId");
    const auto abstaining_list = a.texts("abstainingDirectorIds");
    for (std::size_t i = 0; i < abstaining_list.size(); ++i) require_director(call, abstaining_list[i], "/abstainingDirectorIds/" + std::to_string(i));
    require_status(p, {"approved"}, "a contract is awarded once the project is approved", "/projectId");
    if (p.contractor_id)
        throw DomainError(codes::invalid_status_transition, "The contract of " + p.number + " was awarded already.").at("/projectId").with("status", p.status);
    const auto quote = quote_json(call.db, quote_id);
    if (quote["status"] != "received")
        throw DomainError(codes::invalid_status_transition, "The quote was " + quote["status"].get<std::string>() + ".").at("/quoteId").with("status", quote["status"].get<std::string>());
    const auto day = today(call);
    if (quote["validUntil"].is_string() && quote["validUntil"].get<std::string>() < day)
        throw DomainError("QUOTE_EXPIRED", "The quote was valid until " + quote["validUntil"].get<std::string>() + ": ask the contractor to confirm it, "
                                           "and record the new quote.")
            .at("/quoteId")
            .with("validUntil", quote["validUntil"].get<std::string>());
    const auto amount = quote["amountCents"].get<std::int64_t>();
    if (amount > p.budget_cents)
        throw DomainError("BUDGET_EXCEEDED", "The quote of " + std::to_string(amount) + " cents is above the approved budget of " +
                                                 std::to_string(p.budget_cents) + ": a new approval with a larger budget comes first.")
            .at("/quoteId")
            .with("amountCents", amount)
            .with("budgetCents", p.budget_cents);
    const auto rule = declaration::tendering_rule(call.db, call.caller.syndicate_id);
    if (rule.min_quotes && amount >= rule.threshold_cents.value_or(0)) {
        auto n = call.db.prepare("SELECT count(*) FROM project_quotes WHERE project_id = ?");
        bind_parameters(*n, project_id);
        n->executeStep();
        const auto quotes = n->getColumn(0).getInt64();
        if (quotes < *rule.min_quotes)
            throw DomainError("NOT_ENOUGH_QUOTES", "The declaration asks for " + std::to_string(*rule.min_quotes) + " quotes for a contract of this size; " +
                                                       std::to_string(quotes) + " were received.")
                .at("/quoteId")
                .with("minQuotes", *rule.min_quotes)
                .with("quotes", quotes);
    }
    const auto contractor_id = quote["contractorId"].get<std::string>();
    const auto contractor = contractor_of(call.db, contractor_id);
    if (contractor.archived) throw record_not_found("contractors", contractor_id, "/quoteId", RecordState::active);
    if (!insured_on(contractor, day))
        throw DomainError("CONTRACTOR_INSURANCE_EXPIRED", contractor.name + "'s liability insurance is " +
                                                              (contractor.insurance_expiry ? "expired since " + *contractor.insurance_expiry : std::string("not recorded")) +
                                                              ": a contract goes to a contractor insured on the day (update_contractor insuranceExpiry).")
            .at("/quoteId")
            .with("insuranceExpiry", contractor.insurance_expiry.value_or(""));
    if (p.category != "study" && !contractor.rbq_licence)
        throw DomainError("CONTRACTOR_LICENCE_MISSING", contractor.name + " has no RBQ licence recorded: construction work is done by a licensed "
                                                                          "contractor (Building Act, chapter B-1.1).")
            .at("/quoteId");
    const auto interested = interested_directors(call, contractor_id, {abstaining_list.begin(), abstaining_list.end()});
    if (!interested.empty()) {
        std::string ids;
        for (const auto& d : interested) ids += (ids.empty() ? "" : ",") + d;
        throw DomainError("CONFLICT_OF_INTEREST", std::to_string(interested.size()) + " director(s) declared an interest in " + contractor.name +
                                                      " and must abstain (art. 324): list them in abstainingDirectorIds.")
            .at("/abstainingDirectorIds")
            .with("directorIds", ids);
    }
    const auto decision = governance::require_passed_resolution(call, a.text("resolutionId"), governance::DecisionBody::board, "simple", "/resolutionId");
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "UPDATE projects SET contractor_id = ?, quote_id = ?, contract_amount_cents = ?, award_resolution_id = ?, updated_at = ? WHERE id = ?");
    bind_parameters(*q, contractor_id, quote_id, amount, decision.resolution_id, now, project_id);
    q->exec();
    auto s = call.db.prepare("UPDATE project_quotes SET status = CASE WHEN id = ?1 THEN 'awarded' ELSE 'declined' END WHERE project_id = ?2");
    bind_parameters(*s, quote_id, project_id);
    s->exec();
    call.name_event("project.contract_awarded", "project", project_id);
    return project_json(call, project_id);
}

}  // namespace syndic::projects
