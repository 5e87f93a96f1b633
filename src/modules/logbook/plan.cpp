// The 25-year plan of major works (catalogue §4.7 get_major_works_plan; Reg. 991-2025): each
// component replaced in its replacement year (again every expected life after, within the window),
// at today's cost inflated to that year; one already past its life is planned in the first year.
// The contingency fund is projected from today's balance with the fund study's contributions (else
// the adopted budget's), and a year ending below zero is a shortfall (link L17).
#include <SQLiteCpp/Statement.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "core/clock.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/logbook/records.hpp"
#include "modules/logbook/tools.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::logbook {

using nlohmann::json;

namespace {

// Today's cost inflated to `year` at `percent` a year, to the cent (no inflation up to this year).
std::int64_t inflated(std::int64_t cents, int years_ahead, double percent) {
    if (years_ahead <= 0) return cents;
    return static_cast<std::int64_t>(std::llround(static_cast<long double>(cents) * std::pow(1.0L + percent / 100.0L, years_ahead)));
}

// What the contingency fund receives each year: the latest fund study's recommendation (for that year,
// else its nearest year before), else the latest adopted budget's contingency contribution.
struct Contributions {
    std::string basis = "none";
    std::int64_t adopted_cents = 0;
    std::map<int, std::int64_t> by_year;
};

Contributions contributions(Database& db, const std::string& syndicate_id, const std::string& day, int from, int to,
                            std::set<std::string>& warnings) {
    Contributions out;
    std::vector<std::string> study_warnings;
    for (int year = from; year <= to; ++year)
        if (const auto r = funds::study_recommendation(db, syndicate_id, year, day, study_warnings)) out.by_year[year] = r->contribution_cents;
    if (!out.by_year.empty()) {
        out.basis = "fund-study";
        return out;
    }
    const int current = accounting::fiscal_year_of(db, syndicate_id, day).year;
    for (int year : {current, current - 1})
        if (const auto budget = funds::budget_of_year(db, syndicate_id, year); budget && budget->status == "adopted") {
            out.basis = "adopted-budget";
            out.adopted_cents = funds::contributions_of(db, syndicate_id, *budget).contingency;
            warnings.insert("No contingency fund study is recorded: the plan adds the contingency contribution of the budget adopted for " +
                            std::to_string(year) + " each year.");
            return out;
        }
    warnings.insert("No contingency fund study and no adopted budget: the plan adds no contribution to the fund.");
    return out;
}

struct Component {
    std::string id, name, category, condition;
    std::optional<std::int64_t> replacement_year, cost_cents, life_years;
};

std::vector<Component> active_components(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare(
        "SELECT r.id, r.name, r.category, r.condition, " SYNDIC_REPLACEMENT_YEAR ", r.replacement_cost_cents, r.expected_life_years "
        "FROM logbook_components r WHERE r.syndicate_id = ? AND r.deleted_at IS NULL ORDER BY r.name, r.id");
    bind_parameters(*q, syndicate_id);
    std::vector<Component> out;
    auto number = [&](int i) { return q->getColumn(i).isNull() ? std::nullopt : std::optional<std::int64_t>(q->getColumn(i).getInt64()); };
    while (q->executeStep())
        out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(), q->getColumn(3).getString(),
                       number(4), number(5), number(6)});
    return out;
}

}  // namespace

json major_works_plan(const ToolCall& call, int from, int years, double inflation, const OpenProjects& open) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto day = today(call);
    const int now_year = std::stoi(day.substr(0, 4));
    const int to = from + years - 1;
    std::set<std::string> warnings;
    std::map<int, json> works, projects;
    json unplanned = json::array();
    // An open project counts at what the contingency fund has still to pay for it, the year it ends
    // (this year when that has passed or is not known); its components are renewed by it.
    std::map<std::string, std::int64_t> renewed_in;  // component -> the year its project ends
    if (open)
        for (const auto& p : open(call.db, syndicate)) {
            const int end = std::max(now_year, p.planned_end ? std::stoi(p.planned_end->substr(0, 4)) : now_year);
            for (const auto& c : p.component_ids) renewed_in[c] = end;
            if (p.contingency_to_pay_cents > 0 && end >= from && end <= to)
                projects[end].push_back({{"projectId", p.id}, {"number", p.number}, {"title", p.title}, {"plannedCents", p.contingency_to_pay_cents}});
        }
    for (const auto& c : active_components(call.db, syndicate)) {
        json missing = json::array();
        if (!c.replacement_year) missing.push_back("replacementYear");
        if (!c.cost_cents) missing.push_back("replacementCostCents");
        if (!missing.empty()) {
            unplanned.push_back({{"componentId", c.id}, {"name", c.name}, {"missing", missing}});
            continue;
        }
        // Past its life: replaced in the first year; then again every expected life. Renewed by an
        // open project: next replaced a life after it.
        const auto project = renewed_in.find(c.id);
        const bool overdue = project == renewed_in.end() && *c.replacement_year < now_year;
        auto year = project != renewed_in.end() ? project->second + c.life_years.value_or(to + 1)
                    : overdue                   ? std::max<std::int64_t>(from, now_year)
                                                : *c.replacement_year;
        for (; year <= to; year += c.life_years.value_or(to + 1)) {
            if (year >= from) {
                const bool late = overdue && year == std::max<std::int64_t>(from, now_year);
                works[static_cast<int>(year)].push_back({{"componentId", c.id}, {"name", c.name}, {"category", c.category},
                                                         {"condition", c.condition}, {"replacementYear", *c.replacement_year},
                                                         {"overdue", late}, {"todayCostCents", *c.cost_cents},
                                                         {"plannedCents", inflated(*c.cost_cents, static_cast<int>(year) - now_year, inflation)}});
            }
            if (!c.life_years) break;
        }
    }
    const auto opening = accounting::fund_balances(call.db, syndicate, "contingency", day).net_assets_cents;
    const auto given = contributions(call.db, syndicate, day, from, to, warnings);
    // This year's contribution counts for the months still to come: what came in already is in the balance.
    const int month = std::stoi(day.substr(5, 2));
    json out_years = json::array(), shortfalls = json::array();
    std::int64_t balance = opening, total = 0;
    for (int year = from; year <= to; ++year) {
        std::int64_t contribution = given.basis == "fund-study" ? (given.by_year.count(year) ? given.by_year.at(year) : 0) : given.adopted_cents;
        if (year == now_year) contribution = contribution * (12 - (month - 1)) / 12;
        if (year < now_year) contribution = 0;
        std::int64_t planned = 0;
        json list = works.count(year) ? works[year] : json::array();
        json year_projects = projects.count(year) ? projects[year] : json::array();
        for (const auto& w : list) planned += w["plannedCents"].get<std::int64_t>();
        for (const auto& p : year_projects) planned += p["plannedCents"].get<std::int64_t>();
        balance += contribution - planned;
        total += planned;
        if (balance < 0) shortfalls.push_back(year);
        out_years.push_back({{"year", year}, {"works", std::move(list)}, {"projects", std::move(year_projects)}, {"plannedCents", planned}, {"contributionCents", contribution},
                             {"closingBalanceCents", balance}, {"shortfall", balance < 0}});
    }
    return {{"fromYear", from}, {"toYear", to}, {"inflationPercent", inflation}, {"openingBalanceCents", opening}, {"openingBalanceOn", day},
            {"contributionBasis", given.basis}, {"years", std::move(out_years)}, {"totalPlannedCents", total},
            {"shortfallYears", std::move(shortfalls)}, {"unplanned", std::move(unplanned)}, {"warnings", json(warnings)}};
}

json get_major_works_plan(const ToolCall& call, const OpenProjects& open) {
    const auto a = call.arguments();
    const auto inflation = a.optional_number("inflationPercent")
                               .value_or(setting_number(call.db, call.caller.syndicate_id, "constructionInflationPercent"));
    return major_works_plan(call, static_cast<int>(a.integer_or("fromYear", this_year(call))), static_cast<int>(a.integer_or("years", 25)),
                            inflation, open);
}

}  // namespace syndic::logbook
