// create_special_assessment (catalogue §4.5, links L1, L8, L10): a special contribution decided by
// the board (a passed board resolution: the directors' vote), after consulting a general meeting
// where the declaration asks it, shared by relative value (art. 1064), among the users of a
// restricted common portion, or by the shares the art. 1097 resolution fixed (art. 1097 2°), by
// the one apportionment the year's notices use, so its notices add up to its total to the cent;
// paid in instalments of given percents, the remainder on the first. Its notices are drafted here
// and issued with issue_assessment_notices.
#include <SQLiteCpp/Statement.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/fraction.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/assessment_notices/drafting.hpp"
#include "modules/assessment_notices/tools.hpp"
#include "modules/common.hpp"
#include "modules/funds/apportionment.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

// A percent given with at most six decimals, above 0 and at most 100, in millionths.
std::int64_t percent_units(const Arguments& row, const std::string& field) {
    const auto given = row.number("percent");
    const auto f = Fraction::from_percent(given);
    if (std::fabs(f.to_percent() - given) > 1e-9)
        throw invalid_argument(field, "has more than six decimals", "A percent is given with at most six decimals.");
    if (f.units() <= 0 || f > Fraction::percent(100))
        throw invalid_argument(field, "is not above 0 and at most 100", "A percent is above 0 and at most 100.");
    return f.units();
}

// The instalments: due dates strictly in order, not before today (no co-owner is late for what no
// notice told them), percents adding up to exactly 100.
struct Instalments {
    std::vector<std::string> due_dates;
    std::vector<std::int64_t> weights;
    json stored = json::array();
};

Instalments instalments_of(const Arguments& a, const std::string& today) {
    Instalments out;
    std::int64_t sum = 0;
    const auto rows = a.rows("installments");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto field = "/installments/" + std::to_string(i);
        const auto due = *date_argument(rows[i], "dueOn");
        if (due < today)
            throw invalid_argument(field + "/dueOn", "is before today",
                                   "An instalment falls due on or after the day it is decided (" + today + "): no co-owner is late for "
                                   "what no notice told them.");
        if (!out.due_dates.empty() && due <= out.due_dates.back())
            throw invalid_argument(field + "/dueOn", "is not after the instalment before", "The instalments fall due one after the other.");
        out.due_dates.push_back(due);
        out.weights.push_back(percent_units(rows[i], field + "/percent"));
        sum += out.weights.back();
        out.stored.push_back({{"dueOn", due}, {"percent", Fraction::from_units(out.weights.back()).to_percent()}});
    }
    if (sum != Fraction::percent(100).units())
        throw invalid_argument("/installments", "percents do not add up to 100",
                               "The instalments' percents add up to " + Fraction::from_units(sum).to_string() + ", not 100.");
    return out;
}

// The shares an art. 1097 resolution fixed: each unit once, adding up to exactly 100 (apportion
// refuses a unit no longer active).
std::map<std::string, std::int64_t> shares_of(const Arguments& a) {
    std::map<std::string, std::int64_t> out;
    std::int64_t sum = 0;
    const auto rows = a.rows("shares");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto field = "/shares/" + std::to_string(i);
        const auto unit = rows[i].text("unitId");
        if (out.count(unit)) throw invalid_argument(field + "/unitId", "is named twice", "Each unit has one share.");
        out[unit] = percent_units(rows[i], field + "/percent");
        sum += out[unit];
    }
    if (sum != Fraction::percent(100).units())
        throw invalid_argument("/shares", "do not add up to 100",
                               "The shares add up to " + Fraction::from_units(sum).to_string() + " %, not exactly 100 (art. 1097 2°).");
    return out;
}

// The project a special contribution finances (the projects module's row, read: the projects are
// built after the notices): an improvement's cost is shared as the co-owners' art. 1097 approval
// fixed it (PROJECT_NOT_APPROVED without one), and that approval is the default sharing resolution.
std::optional<std::string> project_approval(const ToolCall& call, const Arguments& a) {
    if (!a.given("projectId")) return std::nullopt;
    auto q = call.db.prepare("SELECT number, category, approval_resolution_id, approval_body FROM projects WHERE id = ?");
    bind_parameters(*q, a.text("projectId"));
    q->executeStep();
    const auto approval = optional_text(*q, 2);
    if (q->getColumn(1).getString() == "improvement" && (!approval || q->getColumn(3).getString() != "general"))
        throw DomainError("PROJECT_NOT_APPROVED", "The project " + q->getColumn(0).getString() + " improves the common portions: the co-owners "
                                                  "approve it and how its cost is shared (art. 1097 2°, approve_project) before it is billed.")
            .at("/projectId");
    return approval;
}

// The pool to share, checked against the apportionment asked.
funds::Pool pool_of(const Arguments& a, const std::optional<std::string>& default_shares_resolution) {
    const auto apportionment = a.text("apportionment");
    funds::Pool pool{a.text("fund"), a.integer("totalCents"), std::nullopt, {}};
    if (apportionment == "restricted-users") {
        if (!a.given("commonPortionId"))
            throw invalid_argument("/commonPortionId", "is required for restricted-users",
                                   "Name the restricted common portion whose users share the contribution (art. 1064).");
        pool.common_portion_id = a.text("commonPortionId");
    } else if (a.given("commonPortionId")) {
        throw invalid_argument("/commonPortionId", "is for restricted-users", "A common portion names the users who share; here "
                               "the apportionment is " + apportionment + ".");
    }
    if (apportionment == "resolution") {
        if (!a.given("shares") || (!a.given("sharesResolutionId") && !default_shares_resolution))
            throw invalid_argument(a.given("shares") ? "/sharesResolutionId" : "/shares", "is required for resolution",
                                   "A sharing by resolution gives the shares (shares) and the general meeting's resolution that fixed "
                                   "them with the works (sharesResolutionId, art. 1097 2°).");
        pool.shares = shares_of(a);
    } else if (a.given("shares") || a.given("sharesResolutionId")) {
        throw invalid_argument(a.given("shares") ? "/shares" : "/sharesResolutionId", "is for resolution",
                               "Shares fixed by a resolution go with the apportionment resolution; here it is " + apportionment + ".");
    }
    return pool;
}

// The general meeting consulted: held, on or before the board's decision, the special
// contribution on its agenda. Required when the declaration says so (CONSULTATION_REQUIRED).
std::optional<std::string> consultation_of(const ToolCall& call, const Arguments& a, const std::string& decided_on) {
    const auto& syndicate = call.caller.syndicate_id;
    auto d = call.db.prepare("SELECT coalesce(special_assessment_requires_consultation, 0) FROM declarations WHERE syndicate_id = ?");
    bind_parameters(*d, syndicate);
    const bool required = d->executeStep() && d->getColumn(0).getInt() != 0;
    const auto meeting = a.optional_text("consultationMeetingId");
    if (!meeting) {
        if (!required) return std::nullopt;
        throw DomainError("CONSULTATION_REQUIRED", "The declaration asks that a special contribution be presented to a general "
                                                   "meeting first: give the held meeting where it was (consultationMeetingId).")
            .at("/consultationMeetingId");
    }
    auto m = call.db.prepare("SELECT type, status, scheduled_at, agenda FROM meetings WHERE id = ?");
    bind_parameters(*m, *meeting);
    m->executeStep();
    const auto refuse = [&](const std::string& why) {
        return DomainError("CONSULTATION_REQUIRED", "The meeting is not a consultation on this special contribution: " + why)
            .at("/consultationMeetingId");
    };
    if (m->getColumn(0).getString() == "board") throw refuse("it is a board meeting, not a general meeting of the co-owners.");
    const auto status = m->getColumn(1).getString();
    if (status != "held" && status != "minutes-sent") throw refuse("it is " + status + ", not held.");
    const auto held_on = montreal_date(stored_instant(m->getColumn(2).getString()));
    if (held_on > decided_on) throw refuse("it was held on " + held_on + ", after the board decided (" + decided_on + ").");
    const auto title = fold_for_search(a.text("title"));
    for (const auto& item : json::parse(m->getColumn(3).getString())) {
        const auto text = fold_for_search(item.get<std::string>());
        for (const char* words : {"cotisation speciale", "contribution speciale", "special assessment", "special contribution"})
            if (text.find(words) != std::string::npos) return meeting;
        // The title alone when it says enough (a word like "toiture" would match any item).
        if (title.size() >= 15 && text.find(title) != std::string::npos) return meeting;
    }
    throw refuse("no item of its agenda presents it (name the special contribution or its title on the agenda).");
}

// Every record the call names exists in the syndicate, before any rule (a unit or common portion
// active).
void require_references(const ToolCall& call, const Arguments& a) {
    const auto& syndicate = call.caller.syndicate_id;
    governance::require_resolution_exists(call, a.text("resolutionId"), "/resolutionId");
    if (a.given("sharesResolutionId")) governance::require_resolution_exists(call, a.text("sharesResolutionId"), "/sharesResolutionId");
    if (a.given("commonPortionId"))
        require_record_exists(call.db, syndicate, "common_portions", a.text("commonPortionId"), "/commonPortionId", RecordState::active);
    if (a.given("consultationMeetingId")) governance::require_meeting_exists(call, a.text("consultationMeetingId"), "/consultationMeetingId");
    if (a.given("projectId")) require_record_exists(call.db, syndicate, "projects", a.text("projectId"), "/projectId", RecordState::active);
    if (a.given("insuranceClaimId")) require_record_exists(call.db, syndicate, "insurance_claims", a.text("insuranceClaimId"), "/insuranceClaimId");
    const auto rows = a.rows("shares");
    for (std::size_t i = 0; i < rows.size(); ++i)
        require_record_exists(call.db, syndicate, "units", rows[i].text("unitId"), "/shares/" + std::to_string(i) + "/unitId",
                              RecordState::active);
}

json special_json(Database& db, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, title, reason, fund, total_cents, apportionment, common_portion_id, shares, shares_resolution_id, resolution_id, "
        "decided_on, consultation_meeting_id, installments, fiscal_year, created_at, project_id, insurance_claim_id FROM special_assessments WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    return {{"id", q->getColumn(0).getString()},      {"title", q->getColumn(1).getString()},
            {"reason", q->getColumn(2).getString()},  {"fund", q->getColumn(3).getString()},
            {"totalCents", q->getColumn(4).getInt64()}, {"apportionment", q->getColumn(5).getString()},
            {"commonPortionId", nullable_text(q->getColumn(6))},
            {"shares", q->getColumn(7).isNull() ? json(nullptr) : json::parse(q->getColumn(7).getString())},
            {"sharesResolutionId", nullable_text(q->getColumn(8))}, {"resolutionId", q->getColumn(9).getString()},
            {"decidedOn", q->getColumn(10).getString()},          {"consultationMeetingId", nullable_text(q->getColumn(11))},
            {"projectId", nullable_text(q->getColumn(15))},       {"insuranceClaimId", nullable_text(q->getColumn(16))},
            {"installments", json::parse(q->getColumn(12).getString())}, {"fiscalYear", q->getColumn(13).getInt64()},
            {"createdAt", shown_time(q->getColumn(14))}};
}

}  // namespace

json create_special_assessment(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    require_references(call, a);
    const auto title = a.nonblank("title");
    const auto reason = a.nonblank("reason");
    const auto approval = project_approval(call, a);
    auto pool = pool_of(a, approval);
    const auto shares_resolution = a.given("sharesResolutionId") ? a.optional_text("sharesResolutionId") : pool.shares.empty() ? std::nullopt : approval;
    const auto plan_dates = instalments_of(a, today(call));
    const auto decision = governance::require_passed_resolution(call, a.text("resolutionId"), governance::DecisionBody::board, "simple",
                                                                "/resolutionId");
    if (!pool.shares.empty())
        governance::require_passed_resolution(call, *shares_resolution, governance::DecisionBody::general, "absolute",
                                              a.given("sharesResolutionId") ? "/sharesResolutionId" : "/projectId");
    const auto consultation = consultation_of(call, a, decision.decided_on);
    const auto year = accounting::fiscal_year_of(call.db, syndicate, plan_dates.due_dates.front()).year;
    const auto shares = funds::apportion(call.db, syndicate, {pool},
                                         pool.common_portion_id ? "/commonPortionId" : pool.shares.empty() ? "/apportionment" : "/shares");
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    json stored_shares = nullptr;
    if (!pool.shares.empty()) {
        stored_shares = json::array();
        for (const auto& [unit, units] : pool.shares) stored_shares.push_back({{"unitId", unit}, {"percent", Fraction::from_units(units).to_percent()}});
    }
    auto insert = call.db.prepare(
        "INSERT INTO special_assessments (id, syndicate_id, title, reason, fund, total_cents, apportionment, common_portion_id, shares, "
        "shares_resolution_id, resolution_id, decided_on, consultation_meeting_id, installments, fiscal_year, created_at, project_id, "
        "insurance_claim_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*insert, id, syndicate, title, reason, pool.fund, pool.cents, a.text("apportionment"), pool.common_portion_id,
                    stored_shares.is_null() ? std::optional<std::string>() : std::optional<std::string>(stored_shares.dump()),
                    shares_resolution, decision.resolution_id, decision.decided_on, consultation,
                    plan_dates.stored.dump(), static_cast<std::int64_t>(year), now, a.optional_text("projectId"), a.optional_text("insuranceClaimId"));
    insert->exec();
    std::vector<const funds::UnitShare*> billed;
    for (const auto& u : shares)
        if (!u.lines.empty()) billed.push_back(&u);
    json warnings = json::array();
    DraftPlan plan{syndicate, "special", year, std::nullopt, id, plan_dates.due_dates, plan_dates.weights,
                   [&title](const funds::UnitLine& l) {
                       return "Cotisation spéciale — " + title + (l.common_portion_id ? " (partie commune à usage restreint)" : "");
                   },
                   get_setting(call.db, syndicate, "defaultLanguage").get<std::string>(), now};
    auto notices = draft_notices(call.db, plan, billed, warnings);
    call.name_event("special_assessment.created", "special-assessment", id);
    auto out = special_json(call.db, id);
    out["notices"] = std::move(notices);
    out["warnings"] = std::move(warnings);
    return out;
}

}  // namespace syndic::assessment_notices
