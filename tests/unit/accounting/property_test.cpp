// A property of the books over random sequences of charges, payments (to the operating or the
// contingency bank, any unit of a lot, some entered late: received before reversals already
// recorded), reversals (NSF with a fee, or errors) and cancelled charges (what was paid of them
// released to credit), with late interest now and then (issue 29): after every step each fund's
// entries balance, the receivables equal the charges not cancelled less what posted payments
// imputed and still impute, the credit never goes below zero, and no cent appears or disappears:
// what the banks received equals what the receivables and the credit account took. And the ledger's
// shortcuts (migrations 010 and 012: charges settled and payments spent for good, skipped by every
// reading) change no answer: each step is made once with every charge and payment marked open
// (nothing skipped) and rolled back, then for real, and the two imputations must be the same; after
// it, each lot's standing, open charges (overpaid ones too) and each person's standing read the
// same either way, on several days. Fixed seeds: a failure replays.
#include "fixture.hpp"

#include "modules/accounting/cancellation.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/accounting/standing.hpp"

#include <SQLiteCpp/Statement.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace accounting_property_test {

using namespace syndic::test;
namespace accounting = syndic::accounting;

namespace {

std::int64_t scalar(Fixture& fx, const std::string& sql) {
    SQLite::Statement q(fx.db->sql(), sql);
    q.bind(1, fx.syndicate);
    q.executeStep();
    return q.getColumn(0).getInt64();
}

void check_books(Fixture& fx, int step) {
    CAPTURE(step);
    SQLite::Statement funds(fx.db->sql(), "SELECT fund, sum(debit_cents) - sum(credit_cents) FROM journal_lines WHERE syndicate_id = ? GROUP BY fund");
    funds.bind(1, fx.syndicate);
    while (funds.executeStep()) CHECK_MESSAGE(funds.getColumn(1).getInt64() == 0, funds.getColumn(0).getString());
    const auto receivables = scalar(fx, "SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM journal_lines l JOIN accounts a "
                                        "ON a.id = l.account_id WHERE a.role = 'receivables' AND l.syndicate_id = ?1");
    const auto charged = scalar(fx, "SELECT coalesce(sum(amount_cents), 0) FROM charges WHERE syndicate_id = ?1 AND cancelled_on IS NULL");
    const auto imputed = scalar(fx, "SELECT coalesce(sum(a.amount_cents), 0) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
                                    "WHERE p.syndicate_id = ?1 AND p.status = 'posted' AND a.released_on IS NULL");
    CHECK(receivables == charged - imputed);
    const auto credit = -scalar(fx, "SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM journal_lines l JOIN accounts a "
                                    "ON a.id = l.account_id WHERE a.role = 'prepayments' AND l.syndicate_id = ?1");
    const auto received = scalar(fx, "SELECT coalesce(sum(amount_cents), 0) FROM payments WHERE syndicate_id = ?1 AND status = 'posted'");
    CHECK(credit >= 0);
    CHECK(credit == received - imputed);  // no cent appears or disappears
    const auto banks = scalar(fx, "SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM journal_lines l JOIN accounts a "
                                  "ON a.id = l.account_id WHERE a.is_bank = 1 AND l.syndicate_id = ?1");
    CHECK(banks == received);
}

// Every charge and payment marked open, as if no shortcut existed (rolled back with `trial`).
void mark_everything_open(Fixture& fx) {
    fx.db->run("UPDATE charge_settlements SET settled_on = '9999-12-31'");
    fx.db->run("UPDATE payment_credits SET spent_on = '9999-12-31'");
}

// The imputation as it stands: every allocation, its charge and payment named by what they are
// (the ids of rows a trial made differ from the real ones).
std::vector<std::string> imputation(Fixture& fx) {
    SQLite::Statement q(fx.db->sql(),
                        "SELECT c.unit_id || ' ' || c.kind || ' ' || c.posted_on || ' ' || c.due_on || ' ' || c.amount_cents || ' ' || "
                        "a.fund || ' ' || a.seq || ' ' || a.applied_on || ' ' || a.amount_cents || ' ' || coalesce(a.released_on, '-') || "
                        "' paid ' || p.received_on || ' ' || p.amount_cents || ' ' || p.status FROM payment_allocations a "
                        "JOIN payments p ON p.id = a.payment_id JOIN charges c ON c.id = a.charge_id WHERE p.syndicate_id = ? ORDER BY 1");
    q.bind(1, fx.syndicate);
    std::vector<std::string> out;
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
    return out;
}

// What the standings answer on each of `days`: each unit's lot, its open charges, each co-owner.
std::vector<std::string> standings(Fixture& fx, const std::vector<json>& units, const std::vector<std::string>& owners,
                                   const std::vector<std::string>& days) {
    std::vector<std::string> out;
    const auto line = [](const accounting::Standing& s) {
        return s.status + " " + s.overdue_since.value_or("-") + " " + std::to_string(s.overdue_cents) + " " +
               std::to_string(s.overdue_all_cents) + " " + std::to_string(s.in_arrears);
    };
    for (const auto& day : days) {
        for (const auto& unit : units) {
            const auto s = accounting::unit_standing(*fx.db, fx.syndicate, unit["id"], day);
            out.push_back(day + " lot " + line(s) + " " + std::to_string(s.balance_cents) + " " + std::to_string(s.credit_cents));
            const auto root = accounting::lot_root(*fx.db, fx.syndicate, unit["id"]);
            for (const auto& c : accounting::lot_charges(*fx.db, fx.syndicate, accounting::lot_units(*fx.db, fx.syndicate, root), day))
                if (c.unpaid_cents != 0) out.push_back(day + " open " + c.id + " " + std::to_string(c.unpaid_cents));
        }
        for (const auto& s : accounting::co_owner_standings(*fx.db, fx.syndicate, owners, day)) out.push_back(day + " person " + line(s));
        for (const auto& c : accounting::past_due_charges(*fx.db, fx.syndicate, day))
            out.push_back(day + " past due " + c.id + " " + std::to_string(c.unpaid_cents));
    }
    return out;
}

}  // namespace

TEST_SUITE("accounting-property") {

TEST_CASE("random charges, payments and reversals keep every fund balanced and every cent accounted for") {
    std::int64_t released = 0;  // the sequences did release paid charges (the case is exercised)
    for (const unsigned seed : {1u, 7u, 11u, 29u, 1094u, 2026u}) {
        CAPTURE(seed);
        Fixture fx;
        fx.call("update_declaration", {{"nsfFeeCents", 3500}});
        const auto u101 = fx.unit("101", 40);
        const auto p1 = fx.unit("P-1", 5, "parking", {{"linkedUnits", {u101["id"]}}});
        const auto u102 = fx.unit("102", 55);
        const std::vector<json> units{u101, p1, u102};
        std::string contingency_bank;
        const auto chart = fx.call("list_accounts", {{"fund", "contingency"}, {"pageSize", 200}});
        for (const auto& a : chart["data"])
            if (a["role"] == "bank") contingency_bank = a["id"];
        const std::vector<std::string> owners{fx.co_owner(u101["id"], "Émilie", "Côté")["id"], fx.co_owner(u102["id"], "Luc", "Roy")["id"]};
        // The roll's lots read at once (syndicate_lots) are the lots read one by one (lot_root, lot_units).
        const auto lots = accounting::syndicate_lots(*fx.db, fx.syndicate);
        for (const auto& u : units) {
            const auto root = accounting::lot_root(*fx.db, fx.syndicate, u["id"]);
            CHECK(lots.root(u["id"]) == root);
            CHECK(lots.units(root) == accounting::lot_units(*fx.db, fx.syndicate, root));
        }
        std::mt19937 rng(seed);
        const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
        std::vector<std::string> payments, charges;
        std::string day = "2026-01-01";
        for (int step = 0; step < 60; ++step) {
            CAPTURE(step);
            day = syndic::add_calendar_days(day, 1 + pick(5));
            if (day > "2026-11-20") break;
            const auto& unit = units[static_cast<std::size_t>(pick(3))];
            // The step, chosen first, then made: with everything marked open (rolled back), then for real.
            std::function<void(bool)> step_made;
            switch (pick(7)) {
                case 0:
                case 1: {  // a contribution split between two funds, due now or later
                    accounting::ChargeDraft d;
                    d.unit_id = unit["id"];
                    d.kind = pick(4) == 0 ? "fee" : "contribution";
                    d.description = "charge";
                    d.posted_on = day;
                    d.due_on = syndic::add_calendar_days(day, pick(40));
                    d.entry_source = "assessment";
                    d.funds = {{"operating", 1 + pick(90000)}};
                    if (pick(2)) d.funds.push_back({"contingency", 1 + pick(20000)});
                    step_made = [&, d](bool real) {
                        const auto id = accounting::create_charge(*fx.db, fx.syndicate, d, syndic::to_utc_iso(fx.clock.now()));
                        if (real) charges.push_back(id);
                    };
                    break;
                }
                case 2:
                case 3: {
                    // Now and then entered late: received up to 40 days ago, before reversals already recorded.
                    const auto received = pick(3) == 0 ? std::max(std::string("2026-01-02"), syndic::add_calendar_days(day, -pick(40))) : day;
                    json args = {{"unitId", unit["id"]}, {"amountCents", 1 + pick(120000)}, {"receivedOn", received}, {"method", "cheque"}};
                    if (pick(3) == 0) args["depositAccountId"] = contingency_bank;
                    step_made = [&, args](bool real) {
                        const std::string id = fx.call("record_payment", args)["id"];
                        if (real) payments.push_back(id);
                    };
                    break;
                }
                case 4: {  // a reversal, when one is allowed on that day
                    if (payments.empty()) break;
                    const auto id = payments[static_cast<std::size_t>(pick(static_cast<int>(payments.size())))];
                    const std::string reason = pick(2) ? "nsf" : "error";
                    step_made = [&, id, reason](bool) {
                        try {
                            fx.call("reverse_payment", {{"id", id}, {"reason", reason}, {"reversedOn", day}});
                        } catch (const syndic::DomainError& e) {
                            // Already reversed, or applied later than `day`: refused, nothing changed.
                            CHECK((e.code() == "ALREADY_REVERSED" || e.code() == "VALIDATION_FAILED"));
                        }
                    };
                    break;
                }
                case 5: {  // a charge cancelled: what was paid of it becomes credit again
                    if (charges.empty()) break;
                    const auto id = charges[static_cast<std::size_t>(pick(static_cast<int>(charges.size())))];
                    step_made = [&, id](bool) {
                        accounting::cancel_charges(*fx.db, fx.syndicate, {id}, day, "Annulée", "/id", syndic::to_utc_iso(fx.clock.now()));
                    };
                    break;
                }
                default:
                    step_made = [&](bool) { fx.call("apply_late_interest", {{"asOf", day}, {"dryRun", false}}); };
            }
            if (!step_made) continue;
            std::vector<std::string> read_in_full;
            {
                syndic::WriteTransaction trial(*fx.db);  // never committed: rolled back
                mark_everything_open(fx);
                step_made(false);
                read_in_full = imputation(fx);
            }
            step_made(true);
            CHECK(imputation(fx) == read_in_full);
            check_books(fx, step);
            const std::vector<std::string> days{syndic::add_calendar_days(day, -20), day, syndic::add_calendar_days(day, 45),
                                                syndic::add_calendar_days(day, 120)};
            const auto read = standings(fx, units, owners, days);
            syndic::WriteTransaction trial(*fx.db);
            mark_everything_open(fx);
            CHECK(standings(fx, units, owners, days) == read);
        }
        released += scalar(fx, "SELECT count(*) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
                                "WHERE p.syndicate_id = ?1 AND a.released_on IS NOT NULL");
    }
    CHECK(released > 0);
}

}  // TEST_SUITE

}  // namespace accounting_property_test
