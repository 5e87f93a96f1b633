#include "modules/accounting/cancellation.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "modules/accounting/imputation.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

namespace {

struct ChargeRow {
    std::string id, unit_id, posted_on, entry_id, description;
    std::int64_t amount_cents = 0;
};

// What one posted payment paid of the charge and has not given back, by fund.
struct PaidBy {
    std::string payment_id, unit_id;
    std::optional<std::string> payer;
    std::map<std::string, std::int64_t> by_fund;
    std::string last_applied_on;
};

std::optional<ChargeRow> open_charge(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, unit_id, posted_on, entry_id, description, amount_cents FROM charges WHERE id = ? AND syndicate_id = ? "
        "AND cancelled_on IS NULL");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    return ChargeRow{q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(),
                     q->getColumn(3).getString(), q->getColumn(4).getString(), q->getColumn(5).getInt64()};
}

std::vector<PaidBy> paid_by_payment(Database& db, const std::string& charge_id) {
    auto q = db.prepare(
        "SELECT a.payment_id, p.unit_id, p.payer_co_owner_id, a.fund, sum(a.amount_cents), max(a.applied_on) FROM payment_allocations a "
        "JOIN payments p ON p.id = a.payment_id WHERE a.charge_id = ? AND p.status = 'posted' AND a.released_on IS NULL "
        "GROUP BY a.payment_id, a.fund ORDER BY a.payment_id, a.fund");
    bind_parameters(*q, charge_id);
    std::vector<PaidBy> out;
    while (q->executeStep()) {
        if (out.empty() || out.back().payment_id != q->getColumn(0).getString())
            out.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), optional_text(*q, 2), {}, ""});
        out.back().by_fund[q->getColumn(3).getString()] = q->getColumn(4).getInt64();
        out.back().last_applied_on = std::max(out.back().last_applied_on, q->getColumn(5).getString());
    }
    return out;
}

// The release of what `paid` imputed to the charge: its receivables debited again, the operating
// fund's prepayments credited (interfund lines for another fund's share), dated `day`.
std::string post_release(Database& db, const std::string& syndicate_id, const ChargeRow& c, const PaidBy& paid, const std::string& day,
                         const std::string& description, const std::string& now) {
    EntryDraft entry{day, description, "reversal", {}, std::nullopt, std::nullopt};
    std::int64_t total = 0, from_other_funds = 0;
    for (const auto& [fund, cents] : paid.by_fund) {
        total += cents;
        auto receivable = make_line(system_account(db, syndicate_id, fund, "receivables"), cents, 0);
        receivable.unit_id = c.unit_id;
        receivable.charge_id = c.id;
        entry.lines.push_back(std::move(receivable));
        if (fund == "operating") continue;
        from_other_funds += cents;
        entry.lines.push_back(make_line(system_account(db, syndicate_id, fund, "interfund"), 0, cents));
    }
    if (from_other_funds > 0) entry.lines.push_back(make_line(system_account(db, syndicate_id, "operating", "interfund"), from_other_funds, 0));
    auto credit = make_line(system_account(db, syndicate_id, "operating", "prepayments"), 0, total);
    credit.unit_id = paid.unit_id;
    credit.co_owner_id = paid.payer;
    entry.lines.push_back(std::move(credit));
    return post_entry(db, syndicate_id, entry, now);
}

std::vector<std::string> interest_on(Database& db, const std::string& charge_id) {
    auto q = db.prepare(
        "SELECT id FROM charges WHERE source_type = 'charge' AND source_id = ? AND kind = 'interest' AND cancelled_on IS NULL "
        "ORDER BY posted_on, id");
    bind_parameters(*q, charge_id);
    std::vector<std::string> ids;
    while (q->executeStep()) ids.push_back(q->getColumn(0).getString());
    return ids;
}

// Cancels one charge as the header says; adds to `out` and to the lots whose credit grew (root ->
// the earliest day it did).
void cancel_one(Database& db, const std::string& syndicate_id, const ChargeRow& c, const std::string& day, const std::string& label,
                const std::string& field, const std::string& now, Cancellation& out, std::map<std::string, std::string>& credited,
                bool interest = false) {
    const auto paid = paid_by_payment(db, c.id);
    auto on = std::max(day, c.posted_on);
    for (const auto& p : paid) on = std::max(on, p.last_applied_on);
    require_open_period(db, syndicate_id, on, field);
    const auto description = label + " — " + c.description;
    for (const auto& p : paid) {
        const auto entry = post_release(db, syndicate_id, c, p, on, "Paiement rendu au crédit — " + description, now);
        {
            auto release = db.prepare(
                "UPDATE payment_allocations SET released_on = ?, release_entry_id = ? WHERE payment_id = ? AND charge_id = ? "
                "AND released_on IS NULL");
            bind_parameters(*release, on, entry, p.payment_id, c.id);
            release->exec();
        }
        for (const auto& [_, cents] : p.by_fund) out.released_cents += cents;
        const auto root = lot_root(db, syndicate_id, p.unit_id);
        const auto it = credited.find(root);
        if (it == credited.end() || on < it->second) credited[root] = on;
    }
    post_counter_entry(db, syndicate_id, c.entry_id, on, description, "reversal", field, now);
    {
        auto mark = db.prepare("UPDATE charges SET cancelled_on = ? WHERE id = ?");
        bind_parameters(*mark, on, c.id);
        mark->exec();
    }
    (interest ? out.interest_cents : out.cancelled_cents) += c.amount_cents;
    out.charge_ids.push_back(c.id);
    if (std::find(out.days.begin(), out.days.end(), on) == out.days.end()) out.days.push_back(on);
    // The interest charged on it goes with it (no query held open across the recursion: the
    // database hands one statement per text).
    for (const auto& id : interest_on(db, c.id))
        if (const auto row = open_charge(db, syndicate_id, id)) cancel_one(db, syndicate_id, *row, on, label, field, now, out, credited, true);
}

}  // namespace

Cancellation cancel_charges(Database& db, const std::string& syndicate_id, const std::vector<std::string>& charge_ids,
                            const std::string& day, const std::string& label, const std::string& field, const std::string& now) {
    Cancellation out;
    std::map<std::string, std::string> credited;  // lot root -> the first day its credit grew
    for (const auto& id : charge_ids)
        if (const auto row = open_charge(db, syndicate_id, id)) cancel_one(db, syndicate_id, *row, day, label, field, now, out, credited);
    for (const auto& [root, from] : credited) apply_credit_from(db, syndicate_id, root, from, now);
    std::sort(out.days.begin(), out.days.end());
    return out;
}

}  // namespace syndic::accounting
