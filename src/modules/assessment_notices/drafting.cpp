#include "modules/assessment_notices/drafting.hpp"

#include <SQLiteCpp/Statement.h>

#include <map>
#include <tuple>

#include "core/ids.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/assessment_notices/notice_store.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

namespace {

// Writes the lot's draft: its row, a line per unit and fund share, its instalments per unit and
// fund. Returns its id, number and total.
std::tuple<std::string, std::string, std::int64_t> write_draft(Database& db, const DraftPlan& plan, const std::string& root,
                                                               const json& addressees, const std::string& language,
                                                               const std::vector<const funds::UnitShare*>& units) {
    std::int64_t notice_total = 0;
    for (const auto* u : units) notice_total += u->total();
    const auto id = new_record_id();
    const auto number = next_number(db, plan.syndicate_id, plan.fiscal_year);
    auto insert = db.prepare(
        "INSERT INTO assessment_notices (id, syndicate_id, number, fiscal_year, kind, budget_id, special_assessment_id, unit_id, "
        "addressees, total_cents, language, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*insert, id, plan.syndicate_id, number, static_cast<std::int64_t>(plan.fiscal_year), plan.kind, plan.budget_id,
                    plan.special_assessment_id, root, addressees.dump(), notice_total, language, plan.now, plan.now);
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
            bind_parameters(*line, id, ++n, u->unit_id, l.fund, plan.describe(l), l.cents, l.basis, l.common_portion_id);
            line->exec();
        }
        for (const auto& [fund, cents] : u->by_fund) {
            const auto parts = funds::instalments(cents, plan.weights);
            for (std::size_t k = 0; k < parts.size(); ++k) {
                inst->reset();
                bind_parameters(*inst, id, static_cast<std::int64_t>(k + 1), u->unit_id, fund, plan.due_dates[k], parts[k]);
                inst->exec();
            }
        }
    }
    return {id, number, notice_total};
}

}  // namespace

json draft_notices(Database& db, const DraftPlan& plan, const std::vector<const funds::UnitShare*>& units, json& warnings) {
    std::map<std::string, std::vector<const funds::UnitShare*>> lots;
    std::vector<std::string> order;
    for (const auto* u : units) {
        const auto root = accounting::lot_root(db, plan.syndicate_id, u->unit_id);
        if (!lots.count(root)) order.push_back(root);
        lots[root].push_back(u);
    }
    json notices = json::array();
    for (const auto& root : order) {
        const auto addressees = addressees_of(db, plan.syndicate_id, accounting::lot_units(db, plan.syndicate_id, root));
        const auto language = addressees.empty() ? plan.fallback_language : addressees[0]["language"].get<std::string>();
        const auto [id, number, total] = write_draft(db, plan, root, addressees, language, lots[root]);
        const auto unit_number = accounting::unit_number(db, root);
        if (addressees.empty())
            warnings.push_back("Unit " + unit_number + " has no active co-owner: its notice has no addressee (no-addressee). The "
                               "contribution attaches to the fraction (arts. 1064, 1069); record its co-owner.");
        notices.push_back({{"id", id}, {"number", number}, {"unitId", root}, {"unitNumber", unit_number}, {"totalCents", total},
                           {"addressees", addressees.size()}});
    }
    return notices;
}

}  // namespace syndic::assessment_notices
