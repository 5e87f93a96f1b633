// generate_assessment_notices (catalogue §4.5, links L1, L8, L9): the year's notices drafted from
// the adopted budget (art. 1072), one per lot, each fund shared by relative value (art. 1064) by the
// one apportionment the budget's preview uses, cents by largest remainder so the notices add up to
// the budget exactly, instalments from the settings. Regenerating replaces the year's drafts.
#include <SQLiteCpp/Statement.h>

#include <map>
#include <set>
#include <tuple>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/assessment_notices/notice_store.hpp"
#include "modules/assessment_notices/tools.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/funds/apportionment.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "modules/units/units.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

const char* fund_name(const std::string& fund) {
    return fund == "operating" ? "Fonds d'exploitation" : fund == "contingency" ? "Fonds de prévoyance" : "Fonds d'autoassurance";
}

// The due dates: the first, then one every 12 / count months.
std::vector<std::string> due_dates(const std::string& first, int count) {
    std::vector<std::string> out;
    for (int k = 0; k < count; ++k) out.push_back(add_calendar_months(first, k * (12 / count)));
    return out;
}

int count_of(Database& db, const std::string& syndicate_id, const Arguments& a) {
    if (const auto n = a.optional_integer("installments")) return static_cast<int>(*n);
    const auto frequency = get_setting(db, syndicate_id, "assessmentFrequency").get<std::string>();
    return frequency == "annual" ? 1 : frequency == "quarterly" ? 4 : 12;
}

// The first due date: the one given, else the fiscal year's first month on the setting
// assessmentDueDay (the month after when that day comes before the year starts).
std::string first_due_on(Database& db, const std::string& syndicate_id, const Arguments& a, int fiscal_year) {
    if (const auto given = date_argument(a, "firstDueOn")) return *given;
    const auto start = std::to_string(fiscal_year) + "-" + declaration::fiscal_year_start(db, syndicate_id);
    const auto day = get_setting(db, syndicate_id, "assessmentDueDay").get<std::int64_t>();
    const auto due = start.substr(0, 8) + (day < 10 ? "0" : "") + std::to_string(day);
    return due < start ? add_calendar_months(due, 1) : due;
}

// Removes the year's regular drafts; returns how many.
std::int64_t delete_drafts(Database& db, const std::string& syndicate_id, int fiscal_year) {
    const std::string drafts =
        "SELECT id FROM assessment_notices WHERE syndicate_id = ?1 AND fiscal_year = ?2 AND kind = 'regular' AND status = 'draft'";
    for (const char* table : {"assessment_notice_lines", "assessment_notice_instalments"}) {
        auto q = db.prepare(std::string("DELETE FROM ") + table + " WHERE notice_id IN (" + drafts + ")");
        bind_parameters(*q, syndicate_id, static_cast<std::int64_t>(fiscal_year));
        q->exec();
    }
    auto q = db.prepare("DELETE FROM assessment_notices WHERE id IN (" + drafts + ")");
    bind_parameters(*q, syndicate_id, static_cast<std::int64_t>(fiscal_year));
    return q->exec();
}

// What a lot's draft is made of.
struct Draft {
    const std::string& syndicate;
    int year;
    const std::string& budget_id;
    const std::string& root;
    const json& addressees;
    const std::string& language;
    int count;
    const std::vector<std::string>& dues;
    const std::string& now;
};

// Writes the lot's draft notice: its row, a line per unit and fund share, its instalments per unit
// and fund. Returns its id, number and total.
std::tuple<std::string, std::string, std::int64_t> write_draft(Database& db, const Draft& d, const std::vector<const funds::UnitShare*>& units) {
    std::int64_t notice_total = 0;
    for (const auto* u : units) notice_total += u->total();
    const auto id = new_record_id();
    const auto number = next_number(db, d.syndicate, d.year);
    auto insert = db.prepare(
        "INSERT INTO assessment_notices (id, syndicate_id, number, fiscal_year, kind, budget_id, unit_id, addressees, total_cents, "
        "language, created_at, updated_at) VALUES (?, ?, ?, ?, 'regular', ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*insert, id, d.syndicate, number, static_cast<std::int64_t>(d.year), d.budget_id, d.root, d.addressees.dump(), notice_total,
                    d.language, d.now, d.now);
    insert->exec();
    auto line = db.prepare(
        "INSERT INTO assessment_notice_lines (notice_id, line_no, unit_id, fund, description, amount_cents, basis, common_portion_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    auto inst = db.prepare(
        "INSERT INTO assessment_notice_instalments (notice_id, number, unit_id, fund, due_on, amount_cents) VALUES (?, ?, ?, ?, ?, ?)");
    std::int64_t n = 0;
    for (const auto* u : units) {
        for (const auto& l : u->lines) {
            line->reset();
            const auto description = std::string(fund_name(l.fund)) + " " + std::to_string(d.year) +
                                     (l.common_portion_id ? " — partie commune à usage restreint" : "");
            bind_parameters(*line, id, ++n, u->unit_id, l.fund, description, l.cents, l.basis, l.common_portion_id);
            line->exec();
        }
        for (const auto& [fund, yearly] : u->by_fund) {
            const auto parts = funds::instalments(yearly, d.count);
            for (int k = 0; k < d.count; ++k) {
                inst->reset();
                bind_parameters(*inst, id, static_cast<std::int64_t>(k + 1), u->unit_id, fund, d.dues[static_cast<std::size_t>(k)],
                                parts[static_cast<std::size_t>(k)]);
                inst->exec();
            }
        }
    }
    return {id, number, notice_total};
}

}  // namespace

json generate_assessment_notices(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto year = static_cast<int>(a.integer("fiscalYear"));
    const auto budget = funds::budget_of_year(call.db, syndicate, year);
    if (!budget || budget->status != "adopted")
        throw DomainError("BUDGET_NOT_ADOPTED", "The " + std::to_string(year) + " budget is " + (budget ? budget->status : std::string("not drafted")) +
                                                   ": the board fixes the contributions by adopting it, after consulting the general meeting "
                                                   "(art. 1072), before any notice.")
            .at("/fiscalYear");
    const auto sum = unit_fraction_sum(call.db, syndicate);
    if (!fraction_sum_in_range(sum.sum))
        throw DomainError(codes::fraction_sum_out_of_range, "The units' relative values add up to " + sum.sum.to_string() +
                                                               " %: outside 99.5-100.5, they cannot share the contributions (rebalance_fractions).")
            .at("/fiscalYear");
    const int count = count_of(call.db, syndicate, a);
    const auto dues = due_dates(first_due_on(call.db, syndicate, a, year), count);
    const auto fiscal = accounting::fiscal_year_of(call.db, syndicate, std::to_string(year) + "-" + declaration::fiscal_year_start(call.db, syndicate));
    if (dues.front() < fiscal.starts_on || dues.back() > fiscal.ends_on)
        throw invalid_argument(a.given("firstDueOn") ? "/firstDueOn" : "/fiscalYear", "puts instalments outside the fiscal year",
                               "The instalments would fall from " + dues.front() + " to " + dues.back() + ", outside the fiscal year " +
                                   std::to_string(year) + " (" + fiscal.starts_on + " to " + fiscal.ends_on + "): its contributions are "
                                   "billed within it. Choose an earlier firstDueOn or fewer instalments.");
    const auto shares = funds::apportion(call.db, syndicate, funds::pools_of(call.db, syndicate, *budget), "/fiscalYear");
    const auto replaced = delete_drafts(call.db, syndicate, year);
    // The units a regular notice of the year already bills (issued: left as they are), then the
    // lots of the others.
    std::set<std::string> billed;
    auto issued = call.db.prepare(
        "SELECT DISTINCT l.unit_id FROM assessment_notice_lines l JOIN assessment_notices n ON n.id = l.notice_id WHERE n.syndicate_id = ? "
        "AND n.fiscal_year = ? AND n.kind = 'regular' AND n.status = 'issued'");
    bind_parameters(*issued, syndicate, static_cast<std::int64_t>(year));
    while (issued->executeStep()) billed.insert(issued->getColumn(0).getString());
    std::map<std::string, std::vector<const funds::UnitShare*>> lots;
    std::vector<std::string> order;
    json warnings = json::array();
    for (const auto& u : shares) {
        if (u.lines.empty()) continue;
        if (billed.count(u.unit_id)) {
            warnings.push_back("Unit " + u.number + " is billed by a notice of " + std::to_string(year) +
                               " issued already: it stays as it is (cancel and reissue to change it).");
            continue;
        }
        const auto root = accounting::lot_root(call.db, syndicate, u.unit_id);
        if (!lots.count(root)) order.push_back(root);
        lots[root].push_back(&u);
    }
    const auto now = to_utc_iso(call.clock.now());
    const auto fallback = get_setting(call.db, syndicate, "defaultLanguage").get<std::string>();
    json notices = json::array();
    std::int64_t total = 0;
    for (const auto& root : order) {
        const auto addressees = addressees_of(call.db, syndicate, accounting::lot_units(call.db, syndicate, root));
        const auto language = addressees.empty() ? fallback : addressees[0]["language"].get<std::string>();
        const auto [id, number, notice_total] =
            write_draft(call.db, {syndicate, year, budget->id, root, addressees, language, count, dues, now}, lots[root]);
        if (addressees.empty())
            warnings.push_back("Unit " + accounting::unit_number(call.db, root) + " has no active co-owner: its notice has no addressee "
                               "(no-addressee). The contribution attaches to the fraction (arts. 1064, 1069); record its co-owner.");
        total += notice_total;
        notices.push_back({{"id", id}, {"number", number}, {"unitId", root}, {"unitNumber", accounting::unit_number(call.db, root)},
                           {"totalCents", notice_total}, {"addressees", addressees.size()}});
    }
    call.name_event("assessment_notices.generated", "budget", budget->id);
    return {{"fiscalYear", year},        {"budgetId", budget->id},     {"installments", count}, {"dueDates", dues},
            {"generated", notices.size()}, {"totalCents", total},       {"replacedDrafts", replaced},
            {"notices", std::move(notices)}, {"warnings", std::move(warnings)}};
}

}  // namespace syndic::assessment_notices
