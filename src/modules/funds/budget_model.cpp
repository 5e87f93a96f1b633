#include "modules/funds/budget_model.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

constexpr const char* budget_columns =
    "id, status, created_at, updated_at, fiscal_year, consultation_meeting_id, consulted_on, adopted_on, resolution_id, "
    "contingency_justification, notes, coalesce(lines_changed_at, created_at)";

Budget read_budget(Database& db, SQLite::Statement& q) {
    Budget b;
    b.id = q.getColumn(0).getString();
    b.status = q.getColumn(1).getString();
    b.created_at = q.getColumn(2).getString();
    b.updated_at = q.getColumn(3).getString();
    b.fiscal_year = q.getColumn(4).getInt();
    b.consultation_meeting_id = optional_text(q, 5);
    b.consulted_on = optional_text(q, 6);
    b.adopted_on = optional_text(q, 7);
    b.resolution_id = optional_text(q, 8);
    b.contingency_justification = optional_text(q, 9);
    b.notes = optional_text(q, 10);
    b.lines_changed_at = q.getColumn(11).getString();
    auto lines = db.prepare(
        "SELECT id, fund, kind, label, account_id, common_portion_id, amount_cents FROM budget_lines WHERE budget_id = ? ORDER BY line_no");
    bind_parameters(*lines, b.id);
    while (lines->executeStep())
        b.lines.push_back({lines->getColumn(0).getString(), lines->getColumn(1).getString(), lines->getColumn(2).getString(),
                           lines->getColumn(3).getString(), optional_text(*lines, 4), optional_text(*lines, 5),
                           lines->getColumn(6).getInt64()});
    return b;
}

// Whether a restricted common portion's costs of this fund go to its users (ordinary costs for
// the operating fund, major ones for the contingency fund).
bool to_users(Database& db, const std::string& syndicate_id, const std::string& portion, const std::string& fund) {
    auto q = db.prepare("SELECT kind, ordinary_costs_to, major_costs_to FROM common_portions WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, portion, syndicate_id);
    if (!q->executeStep() || q->getColumn(0).getString() != "restricted") return false;
    return (fund == "contingency" ? q->getColumn(2) : q->getColumn(1)).getString() == "users";
}

}  // namespace

Budget require_budget(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    auto q = db.prepare(std::string("SELECT ") + budget_columns + " FROM budgets WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw DomainError("BUDGET_NOT_FOUND", "No budget with id " + id + " in this syndicate.").at(field);
    return read_budget(db, *q);
}

std::optional<Budget> budget_of_year(Database& db, const std::string& syndicate_id, int fiscal_year) {
    auto q = db.prepare(std::string("SELECT ") + budget_columns + " FROM budgets WHERE syndicate_id = ? AND fiscal_year = ?");
    bind_parameters(*q, syndicate_id, static_cast<std::int64_t>(fiscal_year));
    if (!q->executeStep()) return std::nullopt;
    return read_budget(db, *q);
}

std::vector<Pool> pools_of(Database& db, const std::string& syndicate_id, const Budget& budget, std::vector<std::string>* warnings) {
    // Pools by (fund, restricted portion or ""), the general ones first, then in the order met.
    std::map<std::pair<std::string, std::string>, std::int64_t> cents;
    std::vector<std::pair<std::string, std::string>> order;
    for (const char* fund : {"operating", "contingency", "self-insurance"}) order.emplace_back(fund, "");
    for (const auto& l : budget.lines) {
        const bool counts = l.fund == "operating" ? l.kind != "contribution" : l.kind == "contribution";
        if (!counts) continue;
        std::string portion;
        if (l.common_portion_id && to_users(db, syndicate_id, *l.common_portion_id, l.fund)) portion = *l.common_portion_id;
        const std::pair<std::string, std::string> key{l.fund, portion};
        if (std::find(order.begin(), order.end(), key) == order.end()) order.push_back(key);
        cents[key] += l.kind == "income" ? -l.amount_cents : l.amount_cents;
    }
    std::vector<Pool> pools;
    for (const auto& key : order) {
        const auto total = cents[key];
        if (total < 0 && warnings)
            warnings->push_back("The " + key.first + " fund's other income" + (key.second.empty() ? "" : " of a restricted common portion") +
                                " exceeds its expenses by " + dollars(-total) + ": the co-owners are asked nothing for it, and the surplus is not shared.");
        if (total > 0) pools.push_back({key.first, total, key.second.empty() ? std::nullopt : std::optional<std::string>(key.second), {}});
    }
    return pools;
}

Contributions contributions_of(Database& db, const std::string& syndicate_id, const Budget& budget, std::vector<std::string>* warnings) {
    Contributions c;
    for (const auto& p : pools_of(db, syndicate_id, budget, warnings))
        (p.fund == "operating" ? c.operating : p.fund == "contingency" ? c.contingency : c.self_insurance) += p.cents;
    return c;
}

std::optional<StudyRecommendation> study_recommendation(Database& db, const std::string& syndicate_id, int fiscal_year,
                                                        const std::string& day, std::vector<std::string>& warnings) {
    auto q = db.prepare(
        "SELECT s.id, s.received_on, r.fiscal_year, r.contribution_cents FROM fund_studies s JOIN fund_study_recommendations r "
        "ON r.study_id = s.id WHERE s.id = (SELECT id FROM fund_studies WHERE syndicate_id = ?1 AND received_on <= ?2 "
        "ORDER BY received_on DESC, created_at DESC LIMIT 1) "
        "ORDER BY (r.fiscal_year = ?3) DESC, (r.fiscal_year < ?3) DESC, abs(r.fiscal_year - ?3) LIMIT 1");
    bind_parameters(*q, syndicate_id, day, static_cast<std::int64_t>(fiscal_year));
    if (!q->executeStep()) return std::nullopt;
    StudyRecommendation r{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(3).getInt64(), q->getColumn(2).getInt()};
    if (r.fiscal_year != fiscal_year)
        warnings.push_back("The fund study received on " + r.received_on + " recommends nothing for " + std::to_string(fiscal_year) +
                           ": its recommendation for " + std::to_string(r.fiscal_year) + " is used.");
    return r;
}

Checks checks_of(Database& db, const std::string& syndicate_id, const Budget& budget, const std::string& as_of) {
    Checks c;
    const auto contributions = contributions_of(db, syndicate_id, budget, &c.warnings);
    c.study = study_recommendation(db, syndicate_id, budget.fiscal_year, as_of, c.warnings);
    if (c.study) {
        c.contingency_basis = "fund-study";
        c.contingency_minimum_cents = c.study->contribution_cents;
    } else {
        c.contingency_basis = "five-percent";
        // 5 % of the operating contribution, rounded up to the cent.
        c.contingency_minimum_cents = (contributions.operating * 5 + 99) / 100;
    }
    c.contingency_ok = contributions.contingency >= c.contingency_minimum_cents;
    c.self_insurance = self_insurance_requirement(db, syndicate_id, as_of, budget.fiscal_year);
    c.self_insurance_minimum_cents = c.self_insurance.required_cents;
    c.self_insurance_ok = contributions.self_insurance >= c.self_insurance_minimum_cents;
    for (const auto& w : c.self_insurance.warnings) c.warnings.push_back(w);
    return c;
}

json budget_json(Database& db, const std::string& syndicate_id, const Budget& b, const Checks& checks) {
    const auto c = contributions_of(db, syndicate_id, b);
    json lines = json::array();
    for (const auto& l : b.lines)
        lines.push_back({{"id", l.id},
                         {"fund", l.fund},
                         {"kind", l.kind},
                         {"accountId", l.account_id ? json(*l.account_id) : json(nullptr)},
                         {"label", l.label},
                         {"amountCents", l.amount_cents},
                         {"commonPortionId", l.common_portion_id ? json(*l.common_portion_id) : json(nullptr)}});
    return {{"id", b.id},
            {"fiscalYear", b.fiscal_year},
            {"status", b.status},
            {"lines", std::move(lines)},
            {"contributionsCents",
             {{"operating", c.operating}, {"contingency", c.contingency}, {"selfInsurance", c.self_insurance}, {"total", c.total()}}},
            {"checks",
             {{"contingencyMinimumCents", checks.contingency_minimum_cents},
              {"contingencyBasis", checks.contingency_basis},
              {"fundStudyId", checks.study ? json(checks.study->study_id) : json(nullptr)},
              {"selfInsuranceMinimumCents", checks.self_insurance_minimum_cents},
              {"contingencyOk", checks.contingency_ok},
              {"selfInsuranceOk", checks.self_insurance_ok}}},
            {"consultation", b.consultation_meeting_id ? json{{"meetingId", *b.consultation_meeting_id}, {"consultedOn", *b.consulted_on}}
                                                       : json(nullptr)},
            {"adoptedOn", b.adopted_on ? json(*b.adopted_on) : json(nullptr)},
            {"resolutionId", b.resolution_id ? json(*b.resolution_id) : json(nullptr)},
            {"contingencyJustification", b.contingency_justification ? json(*b.contingency_justification) : json(nullptr)},
            {"notes", b.notes ? json(*b.notes) : json(nullptr)},
            {"warnings", checks.warnings},
            {"createdAt", to_montreal_iso(stored_instant(b.created_at))},
            {"updatedAt", to_montreal_iso(stored_instant(b.updated_at))}};
}

}  // namespace syndic::funds
