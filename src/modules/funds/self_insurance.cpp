#include "modules/funds/self_insurance.hpp"

#include "core/reader_format.hpp"
#include "modules/insurance/perils.hpp"

#include <SQLiteCpp/Statement.h>

#include "core/text.hpp"
#include "modules/accounting/fund_use.hpp"
#include "modules/accounting/ledger.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

constexpr std::int64_t capitalisation_floor_cents = 10'000'000;  // $100,000 (O.C. 1213-2022) [verify]

// The highest deductible (earthquake and flood aside) of the policies in force on `day`.
std::pair<std::int64_t, std::optional<json>> highest_deductible(Database& db, const std::string& syndicate_id, const std::string& day) {
    auto q = db.prepare(
        "SELECT p.id, p.insurer, p.policy_number, c.value ->> '$.peril', c.value ->> '$.deductibleCents' FROM insurance_policies p, "
        "json_each(p.coverages) c WHERE p.syndicate_id = ? AND p.deleted_at IS NULL AND p.start_date <= ?2 AND p.end_date > ?2 "
        "ORDER BY p.id");
    bind_parameters(*q, syndicate_id, day);
    std::int64_t best = 0;
    std::optional<json> source;
    while (q->executeStep()) {
        if (q->getColumn(4).isNull()) continue;
        const auto peril = q->getColumn(3).isNull() ? std::string() : q->getColumn(3).getString();
        const auto cents = q->getColumn(4).getInt64();
        if (insurance::excluded_peril(peril) || cents <= best) continue;
        best = cents;
        source = json{{"policyId", q->getColumn(0).getString()}, {"insurer", q->getColumn(1).getString()},
                      {"policyNumber", q->getColumn(2).getString()}, {"peril", peril}};
    }
    return {best, source};
}

bool any_policy_in_force(Database& db, const std::string& syndicate_id, const std::string& day) {
    auto q = db.prepare(
        "SELECT 1 FROM insurance_policies WHERE syndicate_id = ?1 AND deleted_at IS NULL AND start_date <= ?2 AND end_date > ?2");
    bind_parameters(*q, syndicate_id, day);
    return q->executeStep();
}

}  // namespace

std::string dollars(std::int64_t cents) { return format_money(cents, "en"); }

SelfInsuranceRequirement self_insurance_requirement(Database& db, const std::string& syndicate_id, const std::string& as_of,
                                                    std::optional<int> fiscal_year,
                                                    std::optional<std::int64_t> hypothetical_deductible,
                                                    std::optional<std::int64_t> hypothetical_balance) {
    SelfInsuranceRequirement r;
    r.as_of = as_of;
    const auto year_of_day = accounting::fiscal_year_of(db, syndicate_id, as_of);
    r.fiscal_year = fiscal_year.value_or(year_of_day.year);
    r.first_day = std::to_string(r.fiscal_year) + year_of_day.starts_on.substr(4);
    if (hypothetical_deductible) {
        r.deductible_cents = *hypothetical_deductible;
        r.steps.push_back("F = " + dollars(r.deductible_cents) + " (hypothetical deductible).");
    } else {
        auto day = r.first_day;
        if (!any_policy_in_force(db, syndicate_id, day) && any_policy_in_force(db, syndicate_id, as_of)) {
            r.warnings.push_back("No policy is recorded in force on " + day + ", the first day of the fiscal year; F is read from the policies in force on " + as_of + ".");
            day = as_of;
        }
        std::tie(r.deductible_cents, r.source) = highest_deductible(db, syndicate_id, day);
        if (!r.source) r.warnings.push_back("No policy in force records a deductible (earthquake and flood aside): F is 0. Record the syndicate's policies with their coverages.");
        r.steps.push_back("F = " + dollars(r.deductible_cents) +
                          ": the highest deductible of the policies in force on " + day + ", earthquake and flood excluded (r. 4.1 s. 2).");
    }
    r.balance_cents = hypothetical_balance.value_or(accounting::fund_balances(db, syndicate_id, "self-insurance", as_of).net_assets_cents);
    r.authorized_unused_cents = accounting::authorized_unused(db, syndicate_id, "self-insurance", as_of);
    r.capitalisation_cents = r.balance_cents - r.authorized_unused_cents;
    r.steps.push_back("Capitalisation = " + dollars(r.capitalisation_cents) + ": the fund's balance on " + as_of + " (" +
                      dollars(r.balance_cents) + ") less authorised unused uses (" + dollars(r.authorized_unused_cents) + ").");
    const auto half = (r.deductible_cents + 1) / 2;  // F/2, up to the cent
    if (2 * r.capitalisation_cents <= r.deductible_cents) {
        r.rule = "half";
        r.formula_cents = half;
        r.steps.push_back("Capitalisation ≤ F/2: the contribution is at least F/2 = " + dollars(half) + ".");
    } else if (r.capitalisation_cents < r.deductible_cents) {
        r.rule = "difference";
        r.formula_cents = r.deductible_cents - r.capitalisation_cents;
        r.steps.push_back("F/2 < capitalisation < F: the contribution is at least F − capitalisation = " + dollars(r.formula_cents) + ".");
    } else {
        r.rule = "none";
        r.steps.push_back("Capitalisation ≥ F: no minimum contribution.");
    }
    const auto floor_room = std::max<std::int64_t>(0, capitalisation_floor_cents - r.capitalisation_cents);
    r.required_cents = std::min(r.formula_cents, floor_room);
    r.cap_applied = r.required_cents < r.formula_cents;
    if (r.cap_applied)
        r.steps.push_back("The contribution may be lowered so the capitalisation stays at least $100,000: " + dollars(r.required_cents) + ".");
    r.steps.push_back("Art. 1071.1 para 3: the board may add a reasonable amount beyond this minimum.");
    return r;
}

json requirement_json(const SelfInsuranceRequirement& r) {
    return {{"asOf", r.as_of},
            {"fiscalYear", r.fiscal_year},
            {"firstDayOfFiscalYear", r.first_day},
            {"deductibleCents", r.deductible_cents},
            {"deductibleSource", r.source ? *r.source : json(nullptr)},
            {"balanceCents", r.balance_cents},
            {"authorizedUnusedCents", r.authorized_unused_cents},
            {"capitalisationCents", r.capitalisation_cents},
            {"formula", r.rule},
            {"formulaCents", r.formula_cents},
            {"capitalisationFloorApplied", r.cap_applied},
            {"requiredCents", r.required_cents},
            {"steps", r.steps},
            {"warnings", r.warnings}};
}

}  // namespace syndic::funds
