// apply_late_interest (catalogue §4.4, spec decisions.md "Late interest"): simple interest, day by
// day (actual/365, a leap year's days 1/366), on the end-of-day unpaid balance of each overdue
// common-expense charge, at the declaration's rate or the legal 5 %. It runs from the day after
// the due date when the declaration makes the lapse of time a default; otherwise from a formal
// demand (the disputes module, not built: none is recorded, so none runs). Each run charges the
// days after the last day already charged, up to asOf: the interest of the whole period rounded
// half up, less what was charged before, so a second run for the same day charges nothing.
#include <SQLiteCpp/Statement.h>

#include <map>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

constexpr std::int64_t legal_rate_units = 5 * Fraction::units_per_percent;  // 5 %/year [verify]

bool leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

struct Accrual {
    std::string principal_id, unit_id, description, from, through;  // the days charged: from..through
    std::int64_t days = 0, cents = 0, microcents = 0;
};

// The interest `principal` bears on the days after `last_charged` (or its due date) up to `as_of`:
// each day's unpaid balance at its end, at `rate_units` a year, summed exactly (in millionths of a
// cent). What a run charges is that plus what earlier runs rounded off (`carry_microcents`),
// rounded half up: frequent runs never add up roundings, and a run that rounds to nothing leaves
// its days for the next.
Accrual accrue(const std::string& principal_id, const std::string& due_on, std::int64_t amount,
               const std::map<std::string, std::int64_t>& paid_by_day, const std::optional<std::string>& last_charged,
               std::int64_t carry_microcents, const std::string& as_of, std::int64_t rate_units) {
    Accrual a;
    a.principal_id = principal_id;
    a.from = add_calendar_days(std::max(due_on, last_charged.value_or(due_on)), 1);
    a.through = as_of;
    if (a.from > as_of) return a;
    a.days = calendar_days_between(a.from, as_of) + 1;
    __int128 common_days = 0, leap_days = 0;  // the sums of end-of-day balances, by the year's length
    std::int64_t paid = 0;
    auto next = paid_by_day.begin();
    for (; next != paid_by_day.end() && next->first < a.from; ++next) paid += next->second;
    for (auto day = a.from; day <= as_of; day = add_calendar_days(day, 1)) {
        for (; next != paid_by_day.end() && next->first == day; ++next) paid += next->second;
        const auto unpaid = std::max<std::int64_t>(0, amount - paid);
        if (unpaid == 0 && next == paid_by_day.end()) break;  // paid for good: no later day bears any
        (leap(std::stoi(day.substr(0, 4))) ? leap_days : common_days) += unpaid;
    }
    // microcents = rate% × (Σ365 / 365 + Σ366 / 366) / 100 × 10^6, rounded half up.
    const __int128 numerator = static_cast<__int128>(rate_units) * (common_days * 366 + leap_days * 365) * 1'000'000;
    const __int128 denominator = static_cast<__int128>(100) * Fraction::units_per_percent * 365 * 366;
    a.microcents = static_cast<std::int64_t>((2 * numerator + denominator) / (2 * denominator));
    const auto owed = a.microcents + carry_microcents;
    a.cents = owed <= 0 ? 0 : (owed + 500'000) / 1'000'000;
    return a;
}

// What each overdue contribution (of the lot of `unit`, or of every unit) bears up to `as_of`.
std::vector<Accrual> accruals_of(Database& db, const std::string& syndicate, const std::optional<std::string>& unit,
                                 const std::string& as_of, std::int64_t rate) {
    std::vector<Accrual> accruals;
    const std::vector<std::string> units = unit ? lot_units(db, syndicate, lot_root(db, syndicate, *unit)) : std::vector<std::string>{};
    // The common-expense charges due before asOf and not cancelled, with the last day charged.
    auto q = db.prepare(
        "SELECT c.id, c.unit_id, c.description, c.due_on, c.amount_cents, i.last_day, coalesce(i.carry, 0) FROM charges c "
        "LEFT JOIN (SELECT source_id, max(due_on) AS last_day, sum(coalesce(accrued_microcents, amount_cents * 1000000) - "
        "amount_cents * 1000000) AS carry FROM charges WHERE source_type = 'charge' AND kind = 'interest' AND cancelled_on IS NULL "
        "GROUP BY source_id) i ON i.source_id = c.id "
        "WHERE c.syndicate_id = ?1 AND c.kind IN ('contribution', 'special') AND c.due_on < ?2 "
        "AND c.posted_on <= ?2 AND c.cancelled_on IS NULL AND (?3 IS NULL OR c.unit_id IN (SELECT value FROM json_each(?3))) "
        "ORDER BY c.due_on, c.id");
    bind_parameters(*q, syndicate, as_of, unit ? std::optional<std::string>(id_set(units)) : std::nullopt);
    auto paid = db.prepare(
        "SELECT a.applied_on, sum(a.amount_cents) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
        "WHERE a.charge_id = ? AND p.status = 'posted' AND (a.released_on IS NULL OR a.released_on > a.applied_on) "
        "GROUP BY a.applied_on ORDER BY a.applied_on");
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        std::map<std::string, std::int64_t> by_day;
        paid->reset();
        bind_parameters(*paid, id);
        while (paid->executeStep()) by_day[paid->getColumn(0).getString()] = paid->getColumn(1).getInt64();
        auto accrual = accrue(id, q->getColumn(3).getString(), q->getColumn(4).getInt64(), by_day, optional_text(*q, 5),
                              q->getColumn(6).getInt64(), as_of, rate);
        if (accrual.cents == 0) continue;
        accrual.unit_id = q->getColumn(1).getString();
        accrual.description = q->getColumn(2).getString();
        accruals.push_back(std::move(accrual));
    }
    return accruals;
}

}  // namespace

json apply_late_interest(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto as_of = *date_argument(a, "asOf");
    const auto today = syndic::today(call);
    if (as_of > today)
        throw invalid_argument("/asOf", "is after today", "Interest is charged for days that have passed: " + as_of +
                                                              " is after today, " + today + ".");
    const auto unit = a.optional_text("unitId");
    if (unit) require_record_exists(call.db, syndicate, "units", *unit, "/unitId");
    const bool dry_run = a.flag("dryRun", true);
    if (!dry_run) require_open_period(call.db, syndicate, as_of, "/asOf");
    const auto parameters = declaration::arrears_parameters(call.db, syndicate);
    const auto rate = parameters.interest_rate ? parameters.interest_rate->units() : legal_rate_units;
    json warnings = json::array();
    if (!parameters.interest_rate)
        warnings.push_back("The declaration records no interest rate (arrearsInterestRatePercent): the legal rate of 5 % a year applies.");

    std::vector<Accrual> accruals;
    if (parameters.default_by_lapse_of_time) {
        accruals = accruals_of(call.db, syndicate, unit, as_of, rate);
    } else {
        warnings.push_back("The declaration does not make the lapse of time a default (defaultByLapseOfTime false): interest runs "
                           "only from a formal demand, and none is recorded (the disputes module records them).");
    }

    const auto now = to_utc_iso(call.clock.now());
    std::map<std::string, json> by_unit;
    std::int64_t total = 0;
    for (const auto& acc : accruals) {
        json line = {{"principalChargeId", acc.principal_id}, {"description", acc.description}, {"from", acc.from},
                     {"through", acc.through},                {"days", acc.days},                {"interestCents", acc.cents},
                     {"chargeId", nullptr}};
        if (!dry_run) {
            ChargeDraft draft{acc.unit_id, "interest", "Intérêts du " + acc.from + " au " + acc.through + " — " + acc.description,
                              as_of, as_of, "interest", std::string("charge"), acc.principal_id, std::nullopt, {{"operating", acc.cents}}};
            const auto charge = create_charge(call.db, syndicate, draft, now);
            auto exact = call.db.prepare("UPDATE charges SET accrued_microcents = ? WHERE id = ?");
            bind_parameters(*exact, acc.microcents, charge);
            exact->exec();
            line["chargeId"] = charge;
            call.name_event("charge.created", "charge", charge);
        }
        auto& u = by_unit[acc.unit_id];
        if (u.is_null()) u = {{"unitId", acc.unit_id}, {"unitNumber", unit_number(call.db, acc.unit_id)}, {"interestCents", 0}, {"charges", json::array()}};
        u["interestCents"] = u["interestCents"].get<std::int64_t>() + acc.cents;
        u["charges"].push_back(std::move(line));
        total += acc.cents;
    }
    json units = json::array();
    for (auto& [id, u] : by_unit) {
        if (!dry_run) call.name_event("interest.applied", "unit", id);
        units.push_back(std::move(u));
    }
    return {{"asOf", as_of},
            {"dryRun", dry_run},
            {"ratePercent", percent(Fraction::from_units(rate))},
            {"defaultByLapseOfTime", parameters.default_by_lapse_of_time},
            {"units", std::move(units)},
            {"totalCents", total},
            {"warnings", std::move(warnings)}};
}

}  // namespace syndic::accounting
