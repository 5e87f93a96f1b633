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
#include "modules/assessment_notices/drafting.hpp"
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
    std::vector<const funds::UnitShare*> to_bill;
    json warnings = json::array();
    for (const auto& u : shares) {
        if (u.lines.empty()) continue;
        if (billed.count(u.unit_id)) {
            warnings.push_back("Unit " + u.number + " is billed by a notice of " + std::to_string(year) +
                               " issued already: it stays as it is (cancel and reissue to change it).");
            continue;
        }
        to_bill.push_back(&u);
    }
    DraftPlan plan{syndicate, "regular", year, budget->id, std::nullopt, dues, std::vector<std::int64_t>(dues.size(), 1),
                   [year](const funds::UnitLine& l) {
                       return std::string(fund_name(l.fund)) + " " + std::to_string(year) +
                              (l.common_portion_id ? " — partie commune à usage restreint" : "");
                   },
                   get_setting(call.db, syndicate, "defaultLanguage").get<std::string>(), to_utc_iso(call.clock.now())};
    auto notices = draft_notices(call.db, plan, to_bill, warnings);
    std::int64_t total = 0;
    for (const auto& n : notices) total += n["totalCents"].get<std::int64_t>();
    call.name_event("assessment_notices.generated", "budget", budget->id);
    return {{"fiscalYear", year},        {"budgetId", budget->id},     {"installments", count}, {"dueDates", dues},
            {"generated", notices.size()}, {"totalCents", total},       {"replacedDrafts", replaced},
            {"notices", std::move(notices)}, {"warnings", std::move(warnings)}};
}

}  // namespace syndic::assessment_notices
