#include "modules/accounting/imputation.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "core/error.hpp"
#include "core/largest_remainder.hpp"
#include "modules/accounting/codes.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

namespace {

class Planner {
public:
    Planner(std::vector<Debt>& debts, std::int64_t amount) : debts_(debts), left_(amount) {}

    // Pays the group's debts in full, or shares what is left among them by what each owes.
    void pay_together(const std::vector<Debt*>& group) {
        std::vector<Debt*> owing;
        for (auto* d : group)
            if (d->outstanding() > 0) owing.push_back(d);
        if (owing.empty() || left_ == 0) return;
        std::vector<std::int64_t> owed;
        for (auto* d : owing) owed.push_back(d->outstanding());
        const auto total = std::accumulate(owed.begin(), owed.end(), std::int64_t{0});
        const auto shares = total <= left_ ? owed : largest_remainder(left_, owed);
        for (std::size_t i = 0; i < owing.size(); ++i) pay(*owing[i], shares[i]);
    }

    // A debt's interest, then the debt (art. 1570).
    void pay_with_interest(const std::vector<Debt*>& group) {
        std::vector<Debt*> interest;
        for (auto& d : debts_)
            if (d.principal_id && std::any_of(group.begin(), group.end(), [&](const Debt* p) { return p->id == *d.principal_id; }))
                interest.push_back(&d);
        pay_together(interest);
        pay_together(group);
    }

    std::int64_t left() const { return left_; }
    std::vector<Allocation> allocations;

private:
    // `cents` of the debt, split across its funds in proportion to what is unpaid of each.
    void pay(Debt& d, std::int64_t cents) {
        if (cents <= 0) return;
        std::vector<std::string> funds;
        std::vector<std::int64_t> unpaid;
        for (const char* fund : accounting::funds)  // the funds in their order: operating first
            if (const auto it = d.unpaid.find(fund); it != d.unpaid.end()) {
                funds.push_back(it->first);
                unpaid.push_back(it->second);
            }
        const auto shares = cents >= d.outstanding() ? unpaid : largest_remainder(cents, unpaid);
        for (std::size_t i = 0; i < funds.size(); ++i) {
            if (shares[i] == 0) continue;
            allocations.push_back({d.id, d.unit_id, funds[i], shares[i]});
            d.unpaid[funds[i]] -= shares[i];
            if (d.unpaid[funds[i]] == 0) d.unpaid.erase(funds[i]);
            left_ -= shares[i];
        }
    }

    std::vector<Debt>& debts_;
    std::int64_t left_;
};

// The debts of `stage` grouped by the day that orders them (a principal's due date for its
// interest), in order; each group paid together, interest first.
template <class Pick>
void pay_by_day(Planner& planner, std::vector<Debt>& debts, Pick pick) {
    std::map<std::string, std::vector<Debt*>> by_day;
    for (auto& d : debts)
        if (d.outstanding() > 0 && !d.principal_id && pick(d)) by_day[d.due_on].push_back(&d);
    // Interest whose principal is paid in full stays with its principal's day.
    std::map<std::string, std::vector<Debt*>> orphans;
    for (auto& d : debts) {
        if (!d.principal_id || d.outstanding() == 0) continue;
        const auto principal = std::find_if(debts.begin(), debts.end(), [&](const Debt& p) { return p.id == *d.principal_id; });
        if (principal != debts.end() && principal->outstanding() > 0) continue;  // paid with its principal's group
        Debt stand_in = d;
        stand_in.principal_id.reset();
        stand_in.kind = d.principal_kind.value_or(d.kind);
        stand_in.due_on = d.principal_due_on.value_or(d.due_on);
        if (pick(stand_in)) orphans[stand_in.due_on].push_back(&d);
    }
    std::set<std::string> days;
    for (const auto& [day, _] : by_day) days.insert(day);
    for (const auto& [day, _] : orphans) days.insert(day);
    for (const auto& day : days) {
        planner.pay_together(orphans[day]);
        planner.pay_with_interest(by_day[day]);
    }
}

}  // namespace

Imputation plan_imputation(std::vector<Debt>& debts, const ImputationRequest& request) {
    Planner planner(debts, request.amount_cents);
    const auto is_due = [&](const Debt& d) { return d.due_on <= request.day; };
    const auto any_due_unpaid = [&] {
        return std::any_of(debts.begin(), debts.end(), [&](const Debt& d) { return is_due(d) && d.outstanding() > 0; });
    };
    for (std::size_t i = 0; i < request.designated.size(); ++i) {
        const auto it = std::find_if(debts.begin(), debts.end(), [&](const Debt& d) { return d.id == request.designated[i]; });
        if (it == debts.end()) continue;  // paid already: nothing to impute to it
        if (!is_due(*it) && !request.creditor_consent && any_due_unpaid())
            throw DomainError(codes::charge_not_due,
                              "The charge " + it->id + " (" + it->description + ") is due on " + it->due_on + ", after " +
                                  request.day + ", while a debt already due is unpaid: a payment goes to a debt not yet due before a "
                                  "due one only with the syndicate's consent (art. 1569; creditorConsent).")
                .at("/designatedChargeIds/" + std::to_string(i))
                .with("dueOn", it->due_on);
        planner.pay_with_interest({&*it});
    }
    pay_by_day(planner, debts, [&](const Debt& d) { return is_due(d) && is_common_expense(d.kind); });
    pay_by_day(planner, debts, [&](const Debt& d) { return is_due(d); });
    pay_by_day(planner, debts, [](const Debt&) { return true; });
    return {std::move(planner.allocations), planner.left()};
}

std::string post_imputation(Database& db, const std::string& syndicate_id, const MoneySource& source, const Imputation& imputation,
                            const std::string& now) {
    const auto& from = source.account;
    EntryDraft entry{source.day, source.description, source.entry_source, {}, std::nullopt, std::nullopt};
    // Net movements of the accounts other than receivables, by account id.
    std::map<std::string, std::pair<Account, std::int64_t>> net;  // debit positive
    const auto move = [&](const Account& account, std::int64_t debit) {
        auto& slot = net.try_emplace(account.id, account, 0).first->second;
        slot.second += debit;
    };
    std::int64_t total = imputation.unapplied_cents;
    for (const auto& a : imputation.allocations) {
        total += a.cents;
        auto receivable = make_line(system_account(db, syndicate_id, a.fund, "receivables"), 0, a.cents);
        receivable.unit_id = a.unit_id;
        receivable.charge_id = a.charge_id;
        entry.lines.push_back(std::move(receivable));
        if (a.fund != from.fund) {
            move(system_account(db, syndicate_id, from.fund, "interfund"), -a.cents);
            move(system_account(db, syndicate_id, a.fund, "interfund"), a.cents);
        }
    }
    if (imputation.unapplied_cents > 0) {
        move(system_account(db, syndicate_id, "operating", "prepayments"), -imputation.unapplied_cents);
        if (from.fund != "operating") {
            move(system_account(db, syndicate_id, from.fund, "interfund"), -imputation.unapplied_cents);
            move(system_account(db, syndicate_id, "operating", "interfund"), imputation.unapplied_cents);
        }
    }
    move(from, total);
    for (auto& [_, slot] : net) {
        if (slot.second == 0) continue;
        auto l = make_line(slot.first, std::max<std::int64_t>(slot.second, 0), std::max<std::int64_t>(-slot.second, 0));
        l.unit_id = source.unit_id;
        l.co_owner_id = source.co_owner_id;
        entry.lines.push_back(std::move(l));
    }
    return post_entry(db, syndicate_id, entry, now);
}

void record_allocations(Database& db, const std::string& payment_id, const Imputation& imputation, std::int64_t last_seq,
                        const std::string& day, const std::string& entry_id) {
    auto q = db.prepare(
        "INSERT INTO payment_allocations (payment_id, charge_id, fund, seq, applied_on, amount_cents, entry_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)");
    std::int64_t seq = last_seq;
    std::string last_charge;
    for (const auto& a : imputation.allocations) {
        if (a.charge_id != last_charge) ++seq;  // a charge's funds share one step of the order
        last_charge = a.charge_id;
        q->reset();
        bind_parameters(*q, payment_id, a.charge_id, a.fund, seq, day, a.cents, entry_id);
        q->exec();
    }
}

void apply_credit(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& day,
                  const std::string& now) {
    const auto units = lot_units(db, syndicate_id, root);
    // Only a payment not spent for good can have credit (migration 010: one spent for good has
    // allocations that no release undid reaching its amount).
    auto q = db.prepare(
        "SELECT p.id, p.unit_id, p.payer_co_owner_id, p.amount_cents - coalesce((SELECT sum(a.amount_cents) FROM payment_allocations a "
        "WHERE a.payment_id = p.id AND (a.released_on IS NULL OR a.released_on > ?3) AND NOT EXISTS (SELECT 1 FROM journal_entries r "
        "WHERE r.id = a.release_entry_id AND r.reverses_entry_id = a.entry_id)), 0), (SELECT coalesce(max(a.seq), 0) FROM payment_allocations a WHERE a.payment_id = p.id) "
        "FROM payment_credits k CROSS JOIN payments p ON p.id = k.payment_id WHERE k.unit_id IN (SELECT value FROM json_each(?2)) "
        "AND k.spent_on = '9999-12-31' AND p.syndicate_id = ?1 AND p.status = 'posted' "
        "AND p.received_on <= ?3 ORDER BY p.received_on, p.created_at, p.id");
    bind_parameters(*q, syndicate_id, id_set(units), day);
    struct Credit {
        std::string payment_id, unit_id;
        std::optional<std::string> payer;
        std::int64_t cents, last_seq;
    };
    std::vector<Credit> credits;
    while (q->executeStep()) {
        const auto cents = q->getColumn(3).getInt64();
        if (cents > 0)
            credits.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(),
                               q->getColumn(2).isNull() ? std::nullopt : std::optional<std::string>(q->getColumn(2).getString()), cents,
                               q->getColumn(4).getInt64()});
    }
    if (credits.empty()) return;
    auto debts = open_debts(db, syndicate_id, units, day);
    for (const auto& credit : credits) {
        if (debts.empty()) return;
        auto imputation = plan_imputation(debts, {credit.cents, day, {}, false});
        std::erase_if(debts, [](const Debt& d) { return d.outstanding() == 0; });
        if (imputation.allocations.empty()) return;
        imputation.unapplied_cents = 0;  // what stays is already in prepayments
        MoneySource source{system_account(db, syndicate_id, "operating", "prepayments"), day,
                           "Crédit du paiement appliqué aux sommes dues", "payment", credit.unit_id, credit.payer};
        const auto entry_id = post_imputation(db, syndicate_id, source, imputation, now);
        record_allocations(db, credit.payment_id, imputation, credit.last_seq, day, entry_id);
    }
}

}  // namespace syndic::accounting

namespace syndic::accounting {

void unapply_credit_after(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& day,
                          const std::string& now) {
    struct Application {
        std::string entry, day, payment;
    };
    std::vector<Application> applications;
    {
        // A payment spent for good by `day` has no allocation standing after it. An application
        // part of which a cancellation already gave back (its own release entry) stays: countering
        // the whole entry would give that part back twice, and the books would no longer hold. (An
        // application entry is one payment's: its allocations are found by that payment's key.)
        auto q = db.prepare(
            "SELECT DISTINCT a.entry_id, a.applied_on, a.payment_id FROM payment_credits k CROSS JOIN payments p ON p.id = k.payment_id "
            "JOIN payment_allocations a ON a.payment_id = p.id WHERE k.unit_id IN (SELECT value FROM json_each(?2)) AND k.spent_on > ?3 "
            "AND p.syndicate_id = ?1 AND p.status = 'posted' "
            "AND a.applied_on > ?3 AND a.applied_on > p.received_on AND a.released_on IS NULL AND NOT EXISTS (SELECT 1 FROM "
            "payment_allocations x WHERE x.payment_id = a.payment_id AND x.entry_id = a.entry_id AND x.released_on IS NOT NULL) "
            "ORDER BY a.applied_on, a.entry_id");
        bind_parameters(*q, syndicate_id, id_set(lot_units(db, syndicate_id, root)), day);
        while (q->executeStep())
            applications.push_back({q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString()});
    }
    for (const auto& a : applications) {
        const auto counter = post_counter_entry(db, syndicate_id, a.entry, a.day, "Crédit réimputé dans l'ordre des dettes", "reversal", "/date", now);
        auto q = db.prepare(
            "UPDATE payment_allocations SET released_on = applied_on, release_entry_id = ? WHERE payment_id = ? AND entry_id = ? "
            "AND released_on IS NULL");
        bind_parameters(*q, counter, a.payment, a.entry);
        q->exec();
    }
}

void apply_credit_from(Database& db, const std::string& syndicate_id, const std::string& root, const std::string& day,
                       const std::string& now) {
    unapply_credit_after(db, syndicate_id, root, day, now);
    apply_credit(db, syndicate_id, root, day, now);
    // The later days a charge was posted, a payment received or a cancelled charge gave a payment
    // back: the days credit may meet a debt.
    std::vector<std::string> days;
    {
        // A charge posted after `day` is not settled by then. A payment spent for good by `day` has
        // no credit after it: what is released of it later (a re-planning, on the allocation's own
        // day) is planned again at once, so its day brings nothing new (the property test compares).
        auto q = db.prepare(
            "SELECT c.posted_on FROM charge_settlements s CROSS JOIN charges c ON c.id = s.charge_id "
            "WHERE s.unit_id IN (SELECT value FROM json_each(?2)) AND s.settled_on > ?3 AND c.syndicate_id = ?1 "
            "AND c.posted_on > ?3 AND c.cancelled_on IS NULL UNION SELECT received_on FROM payments WHERE syndicate_id = ?1 "
            "AND unit_id IN (SELECT value FROM json_each(?2)) AND received_on > ?3 AND status = 'posted' "
            "UNION SELECT a.released_on FROM payment_credits k CROSS JOIN payments p ON p.id = k.payment_id "
            "JOIN payment_allocations a ON a.payment_id = p.id WHERE k.unit_id IN (SELECT value FROM json_each(?2)) "
            "AND k.spent_on > ?3 AND p.syndicate_id = ?1 AND p.status = 'posted' AND a.released_on > ?3 ORDER BY 1");
        bind_parameters(*q, syndicate_id, id_set(lot_units(db, syndicate_id, root)), day);
        while (q->executeStep()) days.push_back(q->getColumn(0).getString());
    }
    for (const auto& later : days) apply_credit(db, syndicate_id, root, later, now);
}

}  // namespace syndic::accounting
