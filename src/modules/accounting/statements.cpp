// get_owner_statement and list_arrears (catalogue §4.4): what a lot was charged and paid with its
// running balance, aging and standing; and every lot with something past due, with the legal
// consequences (arts. 1094, 1086, 2729) and totals by fund and by age.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/accounting/standing.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

json units_json(Database& db, const std::vector<std::string>& units) {
    json out = json::array();
    for (const auto& u : units) out.push_back({{"id", u}, {"number", unit_number(db, u)}});
    return out;
}

json charge_line(const ChargeOnDay& c, Database& db) {
    return {{"id", c.id},          {"unitId", c.unit_id},           {"unitNumber", unit_number(db, c.unit_id)},
            {"kind", c.kind},      {"description", c.description}, {"postedOn", c.posted_on},
            {"dueOn", c.due_on},   {"amountCents", c.amount_cents}, {"unpaidCents", c.unpaid_cents},
            {"isCommonExpense", is_common_expense(c.kind)}};
}

// The statement's movements of the units up to `as_of`: charges (debits, on the day posted),
// cancellations, payments (credits, on the day received) and their reversals (debits).
struct Movement {
    std::string date;
    int order;  // a day's charges, then payments, then reversals
    json line;
    std::int64_t change;
};

// What a payment of one lot paid of another's charge and got back when that charge was
// cancelled: the paying lot's credit again, no longer the other lot's payment. Appended to `out`;
// returns what the releases changed, by payment.
std::map<std::string, std::int64_t> releases(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units,
                                             const std::string& as_of, std::vector<Movement>& out) {
    auto released = db.prepare(
        "WITH lot(unit) AS (SELECT value FROM json_each(?2)), touched(payment_id, seq, fund) AS ("
        "  SELECT a.payment_id, a.seq, a.fund FROM payments p JOIN payment_allocations a ON a.payment_id = p.id "
        "  WHERE p.syndicate_id = ?1 AND p.unit_id IN lot AND a.released_on <= ?3 UNION "
        "  SELECT a.payment_id, a.seq, a.fund FROM charges c JOIN payment_allocations a ON a.charge_id = c.id "
        "  WHERE c.syndicate_id = ?1 AND c.unit_id IN lot AND a.released_on <= ?3) "
        "SELECT a.released_on, a.payment_id, c.id, c.description, sum(a.amount_cents), p.unit_id IN lot "
        "FROM touched t JOIN payment_allocations a ON a.payment_id = t.payment_id AND a.seq = t.seq AND a.fund = t.fund "
        "JOIN payments p ON p.id = a.payment_id JOIN charges c ON c.id = a.charge_id "
        "WHERE (p.unit_id IN lot) <> (c.unit_id IN lot) GROUP BY a.released_on, a.payment_id, c.id");
    bind_parameters(*released, syndicate_id, id_set(units), as_of);
    std::map<std::string, std::int64_t> released_change;  // by payment
    while (released->executeStep()) {
        const bool own = released->getColumn(5).getInt() != 0;
        out.push_back({released->getColumn(0).getString(), 1,
                       {{"type", "release"}, {"paymentId", released->getColumn(1).getString()}, {"chargeId", released->getColumn(2).getString()},
                        {"description", std::string(own ? "Paiement rendu au crédit de ce lot — " : "Paiement rendu au lot qui l'avait fait — ") +
                                            released->getColumn(3).getString()}},
                       own ? -released->getColumn(4).getInt64() : released->getColumn(4).getInt64()});
        released_change[released->getColumn(1).getString()] += out.back().change;
    }
    return released_change;
}

std::vector<Movement> movements(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units,
                                const std::string& as_of) {
    std::vector<Movement> out;
    auto c = db.prepare(
        "SELECT id, kind, description, posted_on, due_on, amount_cents, cancelled_on, created_at FROM charges WHERE syndicate_id = ?1 "
        "AND unit_id IN (SELECT value FROM json_each(?2)) AND posted_on <= ?3");
    bind_parameters(*c, syndicate_id, id_set(units), as_of);
    while (c->executeStep()) {
        const auto amount = c->getColumn(5).getInt64();
        out.push_back({c->getColumn(3).getString(), 0,
                       {{"type", "charge"}, {"chargeId", c->getColumn(0).getString()}, {"kind", c->getColumn(1).getString()},
                        {"description", c->getColumn(2).getString()}, {"dueOn", c->getColumn(4).getString()}},
                       amount});
        if (!c->getColumn(6).isNull() && c->getColumn(6).getString() <= as_of)
            out.push_back({c->getColumn(6).getString(), 1,
                           {{"type", "cancellation"}, {"chargeId", c->getColumn(0).getString()}, {"kind", c->getColumn(1).getString()},
                            {"description", "Annulation — " + c->getColumn(2).getString()}, {"dueOn", nullptr}},
                           -amount});
    }
    auto released_change = releases(db, syndicate_id, units, as_of, out);
    // The units' payments, less what they paid of another lot's charges (a designation); and the
    // payments of other lots that paid these units' charges.
    auto p = db.prepare(
        "WITH lot(unit) AS (SELECT value FROM json_each(?2)), touched(id) AS ("
        "  SELECT id FROM payments WHERE syndicate_id = ?1 AND unit_id IN lot UNION "
        "  SELECT a.payment_id FROM charges c JOIN payment_allocations a ON a.charge_id = c.id WHERE c.syndicate_id = ?1 AND c.unit_id IN lot) "
        "SELECT p.id, p.received_on, p.amount_cents, p.method, p.reference, p.reversed_on, p.reversal_reason, "
        "p.unit_id IN lot, coalesce((SELECT sum(a.amount_cents) FROM payment_allocations a "
        "JOIN charges c ON c.id = a.charge_id WHERE a.payment_id = p.id AND c.unit_id IN lot), 0) "
        "FROM touched t JOIN payments p ON p.id = t.id WHERE p.received_on <= ?3 ORDER BY p.rowid");
    auto outside = db.prepare(
        "SELECT coalesce(sum(a.amount_cents), 0) FROM payment_allocations a JOIN charges c ON c.id = a.charge_id "
        "WHERE a.payment_id = ?1 AND c.unit_id NOT IN (SELECT value FROM json_each(?2))");
    bind_parameters(*p, syndicate_id, id_set(units), as_of);
    while (p->executeStep()) {
        const bool own = p->getColumn(7).getInt() != 0;
        std::int64_t amount = p->getColumn(8).getInt64();
        if (own) {
            outside->reset();
            bind_parameters(*outside, p->getColumn(0).getString(), id_set(units));
            outside->executeStep();
            amount = p->getColumn(2).getInt64() - outside->getColumn(0).getInt64();
        }
        const auto reference = p->getColumn(4).isNull() ? std::string() : " (" + p->getColumn(4).getString() + ")";
        const auto label = std::string(own ? "Paiement — " : "Paiement d'un autre lot du même copropriétaire — ") + p->getColumn(3).getString() + reference;
        if (amount != 0)
            out.push_back({p->getColumn(1).getString(), 1, {{"type", "payment"}, {"paymentId", p->getColumn(0).getString()}, {"description", label}},
                           -amount});
        // A reversal undoes what the payment and its releases did to these units.
        const auto undone = amount - released_change[p->getColumn(0).getString()];
        if (!p->getColumn(5).isNull() && p->getColumn(5).getString() <= as_of && undone != 0)
            out.push_back({p->getColumn(5).getString(), 2,
                           {{"type", "reversal"}, {"paymentId", p->getColumn(0).getString()},
                            {"description", "Paiement retourné — " + p->getColumn(6).getString() + reference}},
                           undone});
    }
    std::stable_sort(out.begin(), out.end(), [](const Movement& a, const Movement& b) {
        return a.date != b.date ? a.date < b.date : a.order < b.order;
    });
    return out;
}

// A lot's row of the arrears list on `as_of`; nullopt when nothing of it is past due.
struct LotArrears {
    Standing standing;
    Aging aging;
    int days_past_due = 0;
    json row;
};

std::optional<LotArrears> arrears_of(Database& db, const std::string& syndicate, const std::string& root, const std::string& as_of) {
    const auto units = lot_units(db, syndicate, root);
    const auto charges = lot_charges(db, syndicate, units, as_of);
    std::optional<std::string> oldest;
    for (const auto& c : charges)
        if (c.unpaid_cents > 0 && c.due_on < as_of && (!oldest || c.due_on < *oldest)) oldest = c.due_on;
    if (!oldest) return std::nullopt;
    LotArrears lot{lot_standing(db, syndicate, root, as_of), aging_of(charges, as_of), calendar_days_between(*oldest, as_of), {}};
    json funds = {{"operating", 0}, {"contingency", 0}, {"self-insurance", 0}};
    auto q = db.prepare(
        "SELECT f.fund, sum(f.amount_cents - coalesce((SELECT sum(x.amount_cents) FROM payment_allocations x JOIN payments p "
        "ON p.id = x.payment_id WHERE x.charge_id = c.id AND x.fund = f.fund AND x.applied_on <= ?3 AND (p.status = 'posted' "
        "OR p.reversed_on > ?3) AND (x.released_on IS NULL OR x.released_on > ?3)), 0)) FROM charge_settlements s CROSS JOIN charges c ON c.id = s.charge_id JOIN charge_fund_lines f ON f.charge_id = c.id "
        "WHERE s.unit_id IN (SELECT value FROM json_each(?2)) AND s.settled_on > ?3 AND c.syndicate_id = ?1 "
        "AND c.posted_on <= ?3 AND c.due_on < ?3 "
        "AND (c.cancelled_on IS NULL OR c.cancelled_on > ?3) GROUP BY f.fund");
    bind_parameters(*q, syndicate, id_set(units), as_of);
    while (q->executeStep()) funds[q->getColumn(0).getString()] = q->getColumn(1).getInt64();
    json co_owners = json::array();
    auto holders = db.prepare(
        "SELECT id, first_name, last_name FROM co_owners WHERE syndicate_id = ?1 AND deleted_at IS NULL "
        "AND unit_id IN (SELECT value FROM json_each(?2)) ORDER BY sort_key, id");
    bind_parameters(*holders, syndicate, id_set(units));
    while (holders->executeStep())
        co_owners.push_back({{"id", holders->getColumn(0).getString()},
                             {"name", holders->getColumn(1).getString() + " " + holders->getColumn(2).getString()}});
    lot.row = standing_json(lot.standing);
    lot.row["id"] = root;
    lot.row["unitId"] = root;
    lot.row["unitNumber"] = unit_number(db, root);
    lot.row["units"] = units_json(db, units);
    lot.row["coOwners"] = std::move(co_owners);
    lot.row["oldestDueOn"] = *oldest;
    lot.row["daysPastDue"] = lot.days_past_due;
    lot.row["byBucket"] = lot.aging.to_json();
    lot.row["byFund"] = std::move(funds);
    lot.row["lastReminder"] = nullptr;  // reminders are the disputes module's (catalogue §4.12)
    return lot;
}

}  // namespace

json get_owner_statement(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto unit_id = a.text("unitId");
    require_record_exists(call.db, syndicate, "units", unit_id, "/unitId");
    const auto as_of = date_argument(a, "asOf").value_or(today(call));
    const auto to = std::min(date_argument(a, "to").value_or(as_of), as_of);
    const auto from = date_argument(a, "from");
    if (from && *from > to)
        throw invalid_argument("/from", "is after to", "The statement runs from " + *from + " to " + to + ": from comes first.");
    const auto root = lot_root(call.db, syndicate, unit_id);
    const auto lot = lot_units(call.db, syndicate, root);
    const auto units = a.flag("includeLinked", true) ? lot : std::vector<std::string>{unit_id};

    std::int64_t opening = 0, balance = 0;
    json lines = json::array();
    for (auto& m : movements(call.db, syndicate, units, to)) {
        balance += m.change;
        if (from && m.date < *from) {
            opening = balance;
            continue;
        }
        m.line["date"] = m.date;
        m.line["debitCents"] = std::max<std::int64_t>(m.change, 0);
        m.line["creditCents"] = std::max<std::int64_t>(-m.change, 0);
        m.line["balanceCents"] = balance;
        lines.push_back(std::move(m.line));
    }
    const auto charges = lot_charges(call.db, syndicate, units, as_of);
    json open = json::array();
    std::int64_t not_yet_due = 0;
    for (const auto& c : charges) {
        if (c.unpaid_cents == 0) continue;
        open.push_back(charge_line(c, call.db));
        if (c.due_on >= as_of) not_yet_due += c.unpaid_cents;
    }
    auto aging = aging_of(charges, as_of).to_json();
    aging["notYetDue"] = not_yet_due;
    return {{"unitId", unit_id},
            {"unitNumber", unit_number(call.db, unit_id)},
            {"lotUnitId", root},
            {"units", units_json(call.db, units)},
            {"from", from ? json(*from) : json(nullptr)},
            {"to", to},
            {"asOf", as_of},
            {"openingBalanceCents", opening},
            {"lines", std::move(lines)},
            {"closingBalanceCents", balance},
            {"openCharges", std::move(open)},
            {"aging", std::move(aging)},
            {"standing", standing_json(lot_standing(call.db, syndicate, root, as_of))}};
}

json list_arrears(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto page = page_request(a);
    const auto as_of = date_argument(a, "asOf").value_or(today(call));
    const auto min_days = a.integer_or("minDaysOverdue", 1);
    const auto min_cents = a.integer_or("minAmountCents", 1);
    const auto suspended_only = a.optional_flag("votingSuspended");
    const auto hypothec_only = a.optional_flag("hypothecEligible");
    // The lots with something past due and unpaid on the day.
    std::vector<std::string> roots;
    for (const auto& c : past_due_charges(call.db, syndicate, as_of)) {
        auto root = lot_root(call.db, syndicate, c.unit_id);
        if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(std::move(root));
    }
    struct Row {
        int days_past_due;
        std::string number;
        json row;
    };
    std::vector<Row> rows;
    Aging total_aging;
    std::map<std::string, std::int64_t> total_funds{{"operating", 0}, {"contingency", 0}, {"self-insurance", 0}};
    std::int64_t total_overdue = 0;
    for (const auto& root : roots) {
        auto lot = arrears_of(call.db, syndicate, root, as_of);
        if (!lot || lot->days_past_due < min_days || lot->standing.overdue_all_cents < min_cents) continue;
        if (suspended_only && *suspended_only != lot->standing.voting_suspended) continue;
        if (hypothec_only && *hypothec_only != lot->standing.hypothec_eligible) continue;
        total_aging.add(lot->aging);
        total_overdue += lot->standing.overdue_all_cents;
        for (const auto& [fund, cents] : lot->row["byFund"].items()) total_funds[fund] += cents.get<std::int64_t>();
        rows.push_back({lot->days_past_due, lot->row["unitNumber"].get<std::string>(), std::move(lot->row)});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
        return x.days_past_due != y.days_past_due ? x.days_past_due > y.days_past_due : x.number < y.number;
    });
    json data = json::array();
    const auto first = std::min<std::size_t>(rows.size(), static_cast<std::size_t>(page.offset()));
    const auto last = std::min<std::size_t>(rows.size(), first + static_cast<std::size_t>(page.size));
    for (auto i = first; i < last; ++i) data.push_back(std::move(rows[i].row));
    auto result = page_envelope(std::move(data), page, static_cast<std::int64_t>(rows.size()));
    result["asOf"] = as_of;
    result["totals"] = {{"lots", rows.size()}, {"overdueCents", total_overdue}, {"byFund", total_funds}, {"byBucket", total_aging.to_json()}};
    return result;
}

}  // namespace syndic::accounting
