// A property of the books over random sequences of charges, payments (designated or not, to the
// operating or the contingency bank, sometimes a lot's other unit), reversals (NSF with a fee, or
// errors) and cancelled charges (what was paid of them released to credit), with late interest now
// and then (issue 29): after every step each fund's entries balance, the receivables equal the
// charges not cancelled less what posted payments imputed and still impute, the credit never goes
// below zero, and no cent appears or disappears: what the banks received equals what the
// receivables and the credit account took. Fixed seeds: a failure replays.
#include "fixture.hpp"

#include "modules/accounting/cancellation.hpp"
#include "modules/accounting/receivables.hpp"

#include <SQLiteCpp/Statement.h>

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

}  // namespace

TEST_SUITE("accounting-property") {

TEST_CASE("random charges, payments and reversals keep every fund balanced and every cent accounted for") {
    std::int64_t released = 0;  // the sequences did release paid charges (the case is exercised)
    for (const unsigned seed : {1u, 7u, 2026u}) {
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
        std::mt19937 rng(seed);
        const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
        std::vector<std::string> payments, charges;
        std::string day = "2026-01-01";
        for (int step = 0; step < 60; ++step) {
            day = syndic::add_calendar_days(day, 1 + pick(5));
            if (day > "2026-11-20") break;
            const auto& unit = units[static_cast<std::size_t>(pick(3))];
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
                    charges.push_back(accounting::create_charge(*fx.db, fx.syndicate, d, syndic::to_utc_iso(fx.clock.now())));
                    break;
                }
                case 2:
                case 3: {
                    json args = {{"unitId", unit["id"]}, {"amountCents", 1 + pick(120000)}, {"receivedOn", day}, {"method", "cheque"}};
                    if (pick(3) == 0) args["depositAccountId"] = contingency_bank;
                    payments.push_back(fx.call("record_payment", args)["id"]);
                    break;
                }
                case 4: {  // a reversal, when one is allowed on that day
                    if (payments.empty()) break;
                    const auto id = payments[static_cast<std::size_t>(pick(static_cast<int>(payments.size())))];
                    try {
                        fx.call("reverse_payment", {{"id", id}, {"reason", pick(2) ? "nsf" : "error"}, {"reversedOn", day}});
                    } catch (const syndic::DomainError& e) {
                        // Already reversed, or applied later than `day`: refused, nothing changed.
                        CHECK((e.code() == "ALREADY_REVERSED" || e.code() == "VALIDATION_FAILED"));
                    }
                    break;
                }
                case 5: {  // a charge cancelled: what was paid of it becomes credit again
                    if (charges.empty()) break;
                    const auto id = charges[static_cast<std::size_t>(pick(static_cast<int>(charges.size())))];
                    accounting::cancel_charges(*fx.db, fx.syndicate, {id}, day, "Annulée", "/id", syndic::to_utc_iso(fx.clock.now()));
                    break;
                }
                default:
                    fx.call("apply_late_interest", {{"asOf", day}, {"dryRun", false}});
            }
            check_books(fx, step);
        }
        released += scalar(fx, "SELECT count(*) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
                                "WHERE p.syndicate_id = ?1 AND a.released_on IS NOT NULL");
    }
    CHECK(released > 0);
}

}  // TEST_SUITE

}  // namespace accounting_property_test
