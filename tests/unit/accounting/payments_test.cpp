// Charges, payments and standing (catalogue §4.4): a payment's imputation as arts. 1569-1572 say,
// tested on charges written directly (the assessment notices that create them come later), credit
// and its application, NSF reversals, the standing of a lot (art. 1094's suspension, art. 1086's
// arrears, art. 2729's 30 days), statements, the arrears list and late interest. The fixture's
// clock makes today 2026-11-21 in Montreal.
#include "fixture.hpp"

#include "modules/accounting/receivables.hpp"

#include <SQLiteCpp/Statement.h>

#include <map>
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace accounting_payments_test {

using namespace syndic::test;
namespace accounting = syndic::accounting;

namespace {

// Apartment 101 with its parking P-1 (one lot), apartment 102; Émilie holds 101, Marc 102.
struct Books : Fixture {
    json u101 = unit("101", 40);
    json p1 = unit("P-1", 10, "parking", {{"linkedUnits", {u101["id"]}}});
    json u102 = unit("102", 50);
    json emilie = call("create_co_owner", {{"unitId", u101["id"]}, {"firstName", "Émilie"}, {"lastName", "Bélanger"}});
    json marc = call("create_co_owner", {{"unitId", u102["id"]}, {"firstName", "Marc"}, {"lastName", "Tremblay"}});

    // A charge posted on `posted` (default its due date), split operating/contingency.
    std::string charge(const json& unit, const std::string& due, std::int64_t operating, std::int64_t contingency = 0,
                       const std::string& kind = "contribution", std::string posted = "") {
        accounting::ChargeDraft d;
        d.unit_id = unit["id"].get<std::string>();
        d.kind = kind;
        d.description = kind + " " + due;
        d.posted_on = posted.empty() ? std::min(due, std::string("2026-11-21")) : posted;
        d.due_on = due;
        d.entry_source = kind == "contribution" ? "assessment" : "fee";
        if (operating) d.funds.push_back({"operating", operating});
        if (contingency) d.funds.push_back({"contingency", contingency});
        return accounting::create_charge(*db, syndicate, d, syndic::to_utc_iso(clock.now()));
    }
    json pay(const json& unit, std::int64_t cents, const std::string& on, json extra = json::object()) {
        json args = {{"unitId", unit["id"]}, {"amountCents", cents}, {"receivedOn", on}, {"method", "cheque"}};
        args.update(extra);
        return call("record_payment", args);
    }
    json statement(const json& unit, json extra = json::object()) {
        json args = {{"unitId", unit["id"]}};
        args.update(extra);
        return call("get_owner_statement", args);
    }
    // Each fund's lines balance, over the whole journal.
    void check_funds_balance() {
        SQLite::Statement q(db->sql(), "SELECT fund, sum(debit_cents) - sum(credit_cents) FROM journal_lines GROUP BY fund");
        while (q.executeStep()) CHECK_MESSAGE(q.getColumn(1).getInt64() == 0, q.getColumn(0).getString());
    }
    // On `day`: the receivables equal the charges posted less what payments received and not yet
    // reversed imputed to them by then, and the prepayments (credit) are never a debit balance.
    void check_books_on(const std::string& day) {
        CAPTURE(day);
        SQLite::Statement r(db->sql(),
                            "SELECT coalesce(sum(CASE WHEN a.role = 'receivables' THEN l.debit_cents - l.credit_cents END), 0), "
                            "coalesce(sum(CASE WHEN a.role = 'prepayments' THEN l.debit_cents - l.credit_cents END), 0) FROM journal_lines l "
                            "JOIN accounts a ON a.id = l.account_id JOIN journal_entries e ON e.id = l.entry_id WHERE l.syndicate_id = ?1 "
                            "AND e.entry_date <= ?2");
        r.bind(1, syndicate);
        r.bind(2, day);
        r.executeStep();
        SQLite::Statement c(db->sql(),
                            "SELECT coalesce((SELECT sum(amount_cents) FROM charges WHERE syndicate_id = ?1 AND posted_on <= ?2), 0) - "
                            "coalesce((SELECT sum(a.amount_cents) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id "
                            "WHERE p.syndicate_id = ?1 AND a.applied_on <= ?2 AND (p.status = 'posted' OR p.reversed_on > ?2)), 0)");
        c.bind(1, syndicate);
        c.bind(2, day);
        c.executeStep();
        CHECK(r.getColumn(0).getInt64() == c.getColumn(0).getInt64());
        CHECK(r.getColumn(1).getInt64() <= 0);
    }
    // The receivables of the syndicate equal the charges less what payments imputed to them.
    void check_receivables() {
        SQLite::Statement r(db->sql(),
                            "SELECT coalesce(sum(l.debit_cents - l.credit_cents), 0) FROM journal_lines l JOIN accounts a ON a.id = "
                            "l.account_id WHERE a.role = 'receivables' AND l.syndicate_id = ?");
        r.bind(1, syndicate);
        r.executeStep();
        SQLite::Statement c(db->sql(),
                            "SELECT coalesce((SELECT sum(amount_cents) FROM charges WHERE syndicate_id = ?1), 0) - coalesce((SELECT "
                            "sum(a.amount_cents) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id WHERE "
                            "p.syndicate_id = ?1 AND p.status = 'posted'), 0)");
        c.bind(1, syndicate);
        c.executeStep();
        CHECK(r.getColumn(0).getInt64() == c.getColumn(0).getInt64());
    }
};

std::map<std::string, std::int64_t> imputed(const json& payment) {
    std::map<std::string, std::int64_t> out;
    for (const auto& a : payment["allocations"]) out[a["chargeId"].get<std::string>()] += a["amountCents"].get<std::int64_t>();
    return out;
}

}  // namespace

TEST_SUITE("accounting-payments") {

TEST_CASE("a payment with nothing owed is credit, and the lot's next charge takes it") {
    Books fx;
    const auto p = fx.pay(fx.u101, 50000, "2026-11-01", {{"reference", "chèque 112"}});
    CHECK(p["allocations"].empty());
    CHECK(p["unappliedCents"] == 50000);
    CHECK(p["standingAfter"]["creditCents"] == 50000);
    CHECK(p["standingAfter"]["balanceCents"] == -50000);
    CHECK(p["status"] == "posted");
    // The parking's charge is the lot's: the apartment's credit pays it.
    const auto c = fx.charge(fx.p1, "2026-12-01", 30000, 0, "contribution", "2026-11-15");
    const auto s = fx.statement(fx.u101);
    CHECK(s["standing"]["creditCents"] == 20000);
    CHECK(s["standing"]["balanceCents"] == -20000);
    CHECK(s["openCharges"].empty());
    CHECK(s["closingBalanceCents"] == -20000);
    CHECK(s["lines"].size() == 2);
    const auto again = fx.call("list_transactions", {{"source", "payment"}});
    CHECK(again["pagination"]["total"] == 2);  // the receipt, then the credit applied
    (void)c;
    fx.check_funds_balance();
    fx.check_receivables();
}

TEST_CASE("without designation: contributions due, oldest first, interest before capital, fees after, then what is not due") {
    Books fx;
    const auto jan = fx.charge(fx.u101, "2026-01-01", 30000, 10000);
    const auto fee = fx.charge(fx.u101, "2026-01-15", 2500, 0, "fee");
    const auto feb = fx.charge(fx.u101, "2026-02-01", 40000);
    const auto dec = fx.charge(fx.u101, "2026-12-01", 40000, 0, "contribution", "2026-11-20");
    // 45,000: January in full (40,000), then 5,000 of February; the fee waits.
    auto p = fx.pay(fx.u101, 45000, "2026-11-10");
    auto got = imputed(p);
    CHECK(got[jan] == 40000);
    CHECK(got[feb] == 5000);
    CHECK(got.count(fee) == 0);
    CHECK(p["allocations"][0]["chargeId"] == jan);
    // January's funds in proportion: 30,000 operating and 10,000 contingency.
    CHECK(p["allocations"][0]["funds"].size() == 2);
    // Then February's rest, the fee, and 10,000 toward December (not due yet).
    p = fx.pay(fx.u101, 47500, "2026-11-12");
    got = imputed(p);
    CHECK(got[feb] == 35000);
    CHECK(got[fee] == 2500);
    CHECK(got[dec] == 10000);
    CHECK(p["allocations"][1]["chargeId"] == fee);
    CHECK(p["unappliedCents"] == 0);
    fx.check_funds_balance();
    fx.check_receivables();
}

TEST_CASE("an equal due date is shared pro rata, to the cent (art. 1572)") {
    Books fx;
    const auto apt = fx.charge(fx.u101, "2026-10-01", 20001);
    const auto park = fx.charge(fx.p1, "2026-10-01", 10000);
    const auto p = fx.pay(fx.u101, 10000, "2026-11-01");
    auto got = imputed(p);
    CHECK(got[apt] + got[park] == 10000);
    CHECK(got[apt] == 6667);  // 10,000 × 20,001 / 30,001 = 6,666.78: the larger remainder takes the cent
    CHECK(got[park] == 3333);
    // Within one charge, its funds in proportion (3 to 1) with the cent to the larger remainder.
    const auto split = fx.charge(fx.u102, "2026-10-01", 3001, 1000);
    const auto q = fx.pay(fx.u102, 1001, "2026-11-01");
    REQUIRE(q["allocations"].size() == 1);
    const auto& funds = q["allocations"][0]["funds"];
    std::int64_t sum = 0;
    for (const auto& f : funds) sum += f["amountCents"].get<std::int64_t>();
    CHECK(sum == 1001);
    CHECK(funds[0]["fund"] == "operating");
    CHECK(funds[0]["amountCents"] == 751);  // 1,001 × 3,001 / 4,001 = 750.81
    CHECK(funds[1]["amountCents"] == 250);
    (void)split;
    fx.check_funds_balance();
}

TEST_CASE("interest is paid before its capital (art. 1570), and the debtor's designation comes first (art. 1569)") {
    Books fx;
    const auto jan = fx.charge(fx.u101, "2026-01-01", 100000);
    const auto feb = fx.charge(fx.u101, "2026-02-01", 100000);
    const auto interest = fx.call("apply_late_interest", {{"asOf", "2026-03-01"}, {"dryRun", false}});
    REQUIRE(interest["units"].size() == 1);
    const auto& lines = interest["units"][0]["charges"];
    REQUIRE(lines.size() == 2);
    const auto jan_interest = lines[0]["chargeId"].get<std::string>();
    // January: 59 days at 5 % of 1,000.00 = 808.22 → 808 cents; February: 28 days = 383.56 → 384.
    CHECK(lines[0]["interestCents"] == 808);
    CHECK(lines[1]["interestCents"] == 384);
    // Designating February: its interest first, then February itself, before January.
    const auto p = fx.pay(fx.u101, 50000, "2026-11-01", {{"designatedChargeIds", {feb}}});
    CHECK(p["allocations"][0]["chargeId"] == lines[1]["chargeId"]);
    CHECK(p["allocations"][0]["amountCents"] == 384);
    CHECK(p["allocations"][1]["chargeId"] == feb);
    CHECK(p["allocations"][1]["amountCents"] == 49616);
    // Without designation: January's interest, then January.
    const auto q = fx.pay(fx.u101, 10000, "2026-11-02");
    CHECK(q["allocations"][0]["chargeId"] == jan_interest);
    CHECK(q["allocations"][0]["amountCents"] == 808);
    CHECK(q["allocations"][1]["chargeId"] == jan);
    // A charge not yet due before a due one needs the syndicate's consent.
    const auto dec = fx.charge(fx.u101, "2026-12-01", 40000, 0, "contribution", "2026-11-01");
    CHECK_REFUSED(fx, "CHARGE_NOT_DUE", "record_payment",
                  (json{{"unitId", fx.u101["id"]}, {"amountCents", 100}, {"receivedOn", "2026-11-03"}, {"method", "cash"},
                        {"designatedChargeIds", {dec}}}));
    const auto consented = fx.pay(fx.u101, 100, "2026-11-03", {{"designatedChargeIds", {dec}}, {"creditorConsent", true}});
    CHECK(consented["allocations"][0]["chargeId"] == dec);
    // Another lot's charge is paid only by the same person, named as payer.
    const auto other = fx.charge(fx.u102, "2026-10-01", 500);
    CHECK(fx.error("record_payment", {{"unitId", fx.u101["id"]}, {"amountCents", 100}, {"receivedOn", "2026-11-03"},
                                      {"method", "cash"}, {"designatedChargeIds", {other}}})
              .code() == "VALIDATION_FAILED");
    CHECK_REFUSED(fx, "CHARGE_NOT_FOUND", "record_payment",
                  (json{{"unitId", fx.u101["id"]}, {"amountCents", 100}, {"receivedOn", "2026-11-03"}, {"method", "cash"},
                        {"designatedChargeIds", {"3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}}));
    fx.check_funds_balance();
    fx.check_receivables();
}

TEST_CASE("standing: 3 months past due suspends the lot's votes until everything owed is paid; an NSF brings it back") {
    Books fx;
    const auto july = fx.charge(fx.u101, "2026-07-01", 40000);
    const auto aug = fx.charge(fx.u101, "2026-08-01", 40000);
    auto s = fx.statement(fx.u101)["standing"];
    CHECK(s["overdueSince"] == "2026-07-01");
    CHECK(s["daysOverdue"] == 143);
    CHECK(s["votingSuspended"] == true);  // after 2026-10-01
    CHECK(s["inArrears"] == true);
    CHECK(s["hypothecEligible"] == true);
    CHECK(s["goodStanding"] == false);
    CHECK(s["overdueCommonExpenseCents"] == 80000);
    // On 2026-10-01 itself, not yet: the vote is suspended after 3 months.
    CHECK(fx.statement(fx.u101, {{"asOf", "2026-10-01"}})["standing"]["votingSuspended"] == false);
    CHECK(fx.statement(fx.u101, {{"asOf", "2026-10-02"}})["standing"]["votingSuspended"] == true);
    // The co-owner's vote on the roll of a meeting to come: suspended, with the lot's figures.
    const auto m = fx.call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"}, {"location", "Salle communautaire"}});
    auto roll = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    REQUIRE(roll["entries"].size() == 2);
    CHECK(roll["entries"][0]["status"] == "suspended-arrears");
    CHECK(roll["entries"][0]["overdueSince"] == "2026-07-01");
    // Paying the oldest alone does not restore the vote: August is unpaid since 2026-08-01.
    auto p = fx.pay(fx.u101, 40000, "2026-11-20");
    CHECK(imputed(p)[july] == 40000);
    CHECK(p["votingRestored"] == false);
    CHECK(p["standingAfter"]["overdueSince"] == "2026-07-01");  // the period never broke
    CHECK(p["standingAfter"]["votingSuspended"] == true);
    // Everything owed: the vote returns.
    p = fx.pay(fx.u101, 40000, "2026-11-21", {{"method", "transfer"}});
    CHECK(imputed(p)[aug] == 40000);
    CHECK(p["votingRestored"] == true);
    CHECK(p["standingAfter"]["overdueSince"].is_null());
    roll = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    CHECK(roll["entries"][0]["status"] == "entitled");
    // The transfer bounces: from then on it never paid, and the suspension is back at once.
    CHECK_REFUSED(fx, "NSF_FEE_NOT_SET", "reverse_payment",
                  (json{{"id", p["id"]}, {"reason", "nsf"}, {"reversedOn", "2026-11-21"}, {"chargeNsfFee", true}}));
    fx.call("update_declaration", {{"nsfFeeCents", 4500}});
    const auto r = fx.call("reverse_payment", {{"id", p["id"]}, {"reason", "nsf"}, {"reversedOn", "2026-11-21"}, {"chargeNsfFee", true}});
    CHECK(r["status"] == "reversed");
    CHECK(r["votingSuspended"] == true);
    CHECK(r["standingAfter"]["overdueSince"] == "2026-07-01");
    CHECK(r["standingAfter"]["overdueCents"] == 40000);  // the fee is due today, not past due
    CHECK(r["standingAfter"]["balanceCents"] == 44500);
    REQUIRE(r["nsfFeeChargeId"].is_string());
    CHECK_REFUSED(fx, "ALREADY_REVERSED", "reverse_payment", (json{{"id", p["id"]}, {"reason", "nsf"}, {"reversedOn", "2026-11-21"}}));
    CHECK_REFUSED(fx, "PAYMENT_NOT_FOUND", "reverse_payment",
                  (json{{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"reason", "error"}, {"reversedOn", "2026-11-21"}}));
    // The standing as it was before the reversal is the one the books showed then.
    roll = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    CHECK(roll["entries"][0]["status"] == "suspended-arrears");
    fx.check_funds_balance();
    fx.check_receivables();
}

TEST_CASE("a person's standing covers every lot they hold (samePersonAs), and a suspension takes all their votes") {
    Books fx;
    const auto also = fx.call("create_co_owner", {{"unitId", fx.u102["id"]}, {"firstName", "Émilie"}, {"lastName", "Bélanger"},
                                                  {"samePersonAs", fx.emilie["id"]}, {"fractionPercent", 0}});
    fx.charge(fx.u102, "2026-06-01", 40000);
    const auto m = fx.call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"}, {"location", "Salle communautaire"}});
    const auto roll = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    for (const auto& e : roll["entries"]) {
        CAPTURE(e["name"]);
        CHECK(e["status"] == "suspended-arrears");  // Émilie's 101 as well as 102 (hers and Marc's)
    }
    (void)also;
}

TEST_CASE("list_arrears: who has not paid, by age and fund, with the legal consequences and totals") {
    Books fx;
    fx.charge(fx.u101, "2026-07-01", 30000, 10000);
    fx.charge(fx.u102, "2026-11-01", 25000);
    fx.charge(fx.u102, "2026-12-01", 25000, 0, "contribution", "2026-11-20");  // not due: not in arrears
    const auto all = fx.call("list_arrears");
    REQUIRE(all["data"].size() == 2);
    const auto& first = all["data"][0];
    CHECK(first["unitId"] == fx.u101["id"]);
    CHECK(first["units"].size() == 2);  // 101 and its parking
    CHECK(first["coOwners"][0]["name"] == "Émilie Bélanger");
    CHECK(first["byBucket"]["over90"] == 40000);
    CHECK(first["byFund"]["contingency"] == 10000);
    CHECK(first["votingSuspended"] == true);
    CHECK(first["daysPastDue"] == 143);
    CHECK(all["data"][1]["byBucket"]["days0to30"] == 25000);
    CHECK(all["data"][1]["votingSuspended"] == false);
    CHECK(all["totals"]["overdueCents"] == 65000);
    CHECK(all["totals"]["lots"] == 2);
    CHECK(all["totals"]["byFund"]["operating"] == 55000);
    CHECK(fx.call("list_arrears", {{"votingSuspended", true}})["data"].size() == 1);
    CHECK(fx.call("list_arrears", {{"minDaysOverdue", 30}})["data"].size() == 1);
    CHECK(fx.call("list_arrears", {{"minAmountCents", 30000}})["data"].size() == 1);
    CHECK(fx.call("list_arrears", {{"asOf", "2026-06-30"}})["data"].empty());
    // The other syndicate sees none of it.
    CHECK(fx.call_as(fx.other_admin, "list_arrears")["data"].empty());
}

TEST_CASE("apply_late_interest: day by day on the unpaid balance, idempotent for a date, dry run by default") {
    Books fx;
    const auto jan = fx.charge(fx.u101, "2026-01-01", 100000);
    fx.pay(fx.u101, 50000, "2026-02-01");  // half paid on 2026-02-01
    // 2026-01-02..2026-02-01: 31 days on 1,000.00 but the last day ends at 500.00: 30 × 1,000 + 1 × 500.
    // 2026-02-02..2026-03-01: 28 days on 500.00. At 5 %: (30,000 + 500 + 14,000) × 0.05 / 365 = 609.59 → 610 cents.
    const auto dry = fx.call("apply_late_interest", {{"asOf", "2026-03-01"}});
    CHECK(dry["dryRun"] == true);
    CHECK(dry["totalCents"] == 610);
    CHECK(dry["ratePercent"] == 5);
    CHECK(dry["warnings"].size() == 1);  // no rate in the declaration: the legal rate
    CHECK(fx.call("list_transactions", {{"source", "interest"}})["pagination"]["total"] == 0);
    const auto posted = fx.call("apply_late_interest", {{"asOf", "2026-03-01"}, {"dryRun", false}});
    CHECK(posted["totalCents"] == 610);
    CHECK(fx.call("apply_late_interest", {{"asOf", "2026-03-01"}, {"dryRun", false}})["totalCents"] == 0);
    // The next run charges the days after: 2026-03-02..2026-03-31, 30 days on 500.00 = 205.48 → 205.
    CHECK(fx.call("apply_late_interest", {{"asOf", "2026-03-31"}})["totalCents"] == 205);
    // The declaration's rate; interest on interest never.
    fx.call("update_declaration", {{"arrearsInterestRatePercent", 12}});
    CHECK(fx.call("apply_late_interest", {{"asOf", "2026-03-31"}})["totalCents"] == 493);  // 30 × 500 × 0.12 / 365 = 493.15
    // Without lapse of time as a default, interest needs a formal demand (none recorded).
    fx.call("update_declaration", {{"defaultByLapseOfTime", false}});
    const auto none = fx.call("apply_late_interest", {{"asOf", "2026-03-31"}});
    CHECK(none["totalCents"] == 0);
    CHECK(none["defaultByLapseOfTime"] == false);
    CHECK(fx.error("apply_late_interest", {{"asOf", "2026-11-22"}}).code() == "VALIDATION_FAILED");  // after today
    (void)jan;
    fx.check_funds_balance();
}

TEST_CASE("get_owner_statement: lines with a running balance, an opening balance, aging; refusals change nothing") {
    Books fx;
    fx.charge(fx.u101, "2026-08-01", 40000);
    fx.charge(fx.u101, "2026-10-01", 40000);
    fx.pay(fx.u101, 30000, "2026-09-15");
    const auto s = fx.statement(fx.u101, {{"from", "2026-09-01"}});
    CHECK(s["openingBalanceCents"] == 40000);
    REQUIRE(s["lines"].size() == 2);
    CHECK(s["lines"][0]["type"] == "payment");
    CHECK(s["lines"][0]["balanceCents"] == 10000);
    CHECK(s["lines"][1]["balanceCents"] == 50000);
    CHECK(s["closingBalanceCents"] == 50000);
    CHECK(s["aging"]["days31to60"] == 40000);   // October, 51 days
    CHECK(s["aging"]["over90"] == 10000);       // what is left of August
    CHECK(s["standing"]["overdueSince"] == "2026-08-01");
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "get_owner_statement", (json{{"unitId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}));
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "record_payment",
                  (json{{"unitId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"amountCents", 100}, {"receivedOn", "2026-11-01"}, {"method", "cash"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_payment",
                  (json{{"unitId", fx.u101["id"]}, {"amountCents", 100}, {"receivedOn", "2026-11-22"}, {"method", "cash"}}));
    const auto chart = fx.call("list_accounts", {{"fund", "contingency"}, {"pageSize", 200}});
    std::string contingency_expense;
    for (const auto& a : chart["data"])
        if (a["type"] == "expense") contingency_expense = a["id"];
    CHECK(fx.error("record_payment", {{"unitId", fx.u101["id"]}, {"amountCents", 100}, {"receivedOn", "2026-11-01"},
                                      {"method", "cash"}, {"depositAccountId", contingency_expense}})
              .code() == "VALIDATION_FAILED");  // not a bank account
    // Another syndicate's unit is not found.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "get_owner_statement", (json{{"unitId", fx.u101["id"]}}));
}

TEST_CASE("a payment pays only what was owed on the day it was received; later charges take its credit on their day") {
    Books fx;
    const auto june = fx.charge(fx.u101, "2026-06-01", 100000);
    fx.call("apply_late_interest", {{"asOf", "2026-09-01"}, {"dryRun", false}});
    // The cheque came on July 1 and is entered now: the September interest did not exist then.
    const auto p = fx.pay(fx.u101, 100000, "2026-07-01");
    REQUIRE(p["allocations"].size() == 1);
    CHECK(p["allocations"][0]["chargeId"] == june);
    CHECK(p["standingAfter"]["overdueSince"].is_null());
    CHECK(p["standingAfter"]["overdueCents"] == 1260);  // the interest charged on 2026-09-01 is still owed
    // A payment received before a charge was posted is credit, and meets the charge on its day.
    const auto later = fx.charge(fx.u102, "2026-12-01", 40000, 0, "contribution", "2026-11-01");
    const auto q = fx.pay(fx.u102, 40000, "2026-10-15");
    REQUIRE(q["allocations"].size() == 1);
    CHECK(q["allocations"][0]["chargeId"] == later);
    CHECK(q["allocations"][0]["appliedOn"] == "2026-11-01");
    for (const auto* day : {"2026-07-01", "2026-09-01", "2026-10-20", "2026-11-01", "2026-11-21"}) fx.check_books_on(day);
    fx.check_funds_balance();
}

TEST_CASE("credit meets a debt only once the payment is received; a reversal never precedes what it undoes, credit planned again") {
    Books fx;
    fx.call("update_declaration", {{"nsfFeeCents", 4500}});
    const auto p0 = fx.pay(fx.u101, 10000, "2026-01-10");
    const auto p1 = fx.pay(fx.u101, 20000, "2026-03-01");
    // P0 bounces on 2026-02-01 with a fee: P1's credit (received 2026-03-01) pays it on 2026-03-01, not before.
    const auto r = fx.call("reverse_payment", {{"id", p0["id"]}, {"reason", "nsf"}, {"reversedOn", "2026-02-01"}, {"chargeNsfFee", true}});
    const auto after = fx.call("reverse_payment", {{"id", p1["id"]}, {"reason", "error"}, {"reversedOn", "2026-03-01"}});
    (void)r;
    (void)after;
    for (const auto* day : {"2026-01-10", "2026-02-01", "2026-02-15", "2026-03-01", "2026-11-21"}) fx.check_books_on(day);
    Books gx;
    gx.call("update_declaration", {{"nsfFeeCents", 4500}});
    const auto g0 = gx.pay(gx.u101, 10000, "2026-01-10");
    const auto g1 = gx.pay(gx.u101, 5000, "2026-01-05");
    gx.call("reverse_payment", {{"id", g1["id"]}, {"reason", "nsf"}, {"reversedOn", "2026-03-01"}, {"chargeNsfFee", true}});
    const auto g0_now = gx.call("get_owner_statement", {{"unitId", gx.u101["id"]}});
    CHECK(g0_now["standing"]["creditCents"] == 5500);  // G0's 100.00 less the 45.00 fee it paid on 2026-03-01
    // G0 returned on 2026-02-01, before its credit paid the fee on 2026-03-01: that application is
    // planned again from the return's day (never a counter-entry before what it undoes), and the
    // fee stays owed.
    const auto undone = gx.call("reverse_payment", {{"id", g0["id"]}, {"reason", "error"}, {"reversedOn", "2026-02-01"}});
    CHECK(undone["allocations"].empty());
    CHECK(undone["standingAfter"]["creditCents"] == 0);
    CHECK(gx.call("get_owner_statement", {{"unitId", gx.u101["id"]}})["closingBalanceCents"] == 4500);
    for (const auto* day : {"2026-01-10", "2026-02-15", "2026-03-01", "2026-11-21"}) gx.check_books_on(day);
    gx.check_funds_balance();
    fx.check_funds_balance();
}

TEST_CASE("a person's arrears run over all their lots: one lot's debt paid after another's fell due does not break it") {
    Books fx;
    fx.call("create_co_owner", {{"unitId", fx.u102["id"]}, {"firstName", "Émilie"}, {"lastName", "Bélanger"},
                                {"samePersonAs", fx.emilie["id"]}, {"fractionPercent", 0}});
    fx.charge(fx.u101, "2026-08-01", 40000);
    fx.charge(fx.u102, "2026-09-10", 40000);
    fx.pay(fx.u101, 40000, "2026-09-20");
    // The lot of 102 alone: overdue since 2026-09-10, not 3 months yet.
    CHECK(fx.statement(fx.u102)["standing"]["votingSuspended"] == false);
    // Émilie, the person: overdue without a break since 2026-08-01, suspended since 2026-11-02.
    const auto m = fx.call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"},
                                              {"location", "Salle communautaire"}});
    const auto roll = fx.call("get_voting_roll", {{"meetingId", m["id"]}});
    for (const auto& e : roll["entries"]) {
        CAPTURE(e["name"]);
        if (e["coOwnerId"] == fx.marc["id"]) CHECK(e["status"] == "entitled");
        else CHECK(e["status"] == "suspended-arrears");
    }
}

TEST_CASE("a payment designating another lot's charge shows on both lots' statements; a deposit in another fund's bank balances") {
    Books fx;
    fx.call("create_co_owner", {{"unitId", fx.u102["id"]}, {"firstName", "Émilie"}, {"lastName", "Bélanger"},
                                {"samePersonAs", fx.emilie["id"]}, {"fractionPercent", 0}});
    fx.charge(fx.u101, "2026-10-01", 30000, 10000);
    const auto other = fx.charge(fx.u102, "2026-10-01", 25000);
    const auto chart = fx.call("list_accounts", {{"fund", "contingency"}, {"pageSize", 200}});
    std::string contingency_bank;
    for (const auto& a : chart["data"])
        if (a["role"] == "bank") contingency_bank = a["id"];
    const auto p = fx.pay(fx.u101, 70000, "2026-11-01",
                          {{"payerCoOwnerId", fx.emilie["id"]}, {"designatedChargeIds", {other}}, {"depositAccountId", contingency_bank}});
    CHECK(imputed(p)[other] == 25000);
    CHECK(p["unappliedCents"] == 5000);
    const auto s101 = fx.statement(fx.u101);
    const auto s102 = fx.statement(fx.u102);
    CHECK(s101["closingBalanceCents"] == s101["standing"]["balanceCents"]);
    CHECK(s101["closingBalanceCents"] == -5000);
    CHECK(s102["closingBalanceCents"] == 0);
    CHECK(s102["closingBalanceCents"] == s102["standing"]["balanceCents"]);
    // Marc is no payer of 101: a payer holds the lot.
    CHECK(fx.error("record_payment", {{"unitId", fx.u101["id"]}, {"amountCents", 100}, {"receivedOn", "2026-11-01"}, {"method", "cash"},
                                      {"payerCoOwnerId", fx.marc["id"]}})
              .code() == "VALIDATION_FAILED");
    fx.call("reverse_payment", {{"id", p["id"]}, {"reason", "error"}, {"reversedOn", "2026-11-02"}});
    CHECK(fx.statement(fx.u102)["closingBalanceCents"] == 25000);
    fx.check_funds_balance();
    for (const auto* day : {"2026-11-01", "2026-11-21"}) fx.check_books_on(day);
}

TEST_CASE("late interest charged every day adds up to the exact interest, not to its roundings") {
    Books fx;
    fx.charge(fx.u101, "2026-01-01", 1000);  // 10.00
    for (int d = 2; d <= 31; ++d) {
        const auto day = std::string("2026-01-") + (d < 10 ? "0" : "") + std::to_string(d);
        fx.call("apply_late_interest", {{"asOf", day}, {"dryRun", false}});
    }
    SQLite::Statement q(fx.db->sql(), "SELECT coalesce(sum(amount_cents), 0) FROM charges WHERE kind = 'interest'");
    q.executeStep();
    // 30 days on 10.00 at 5 %: 4.11 cents.
    CHECK(q.getColumn(0).getInt64() == 4);
}

}  // TEST_SUITE

}  // namespace accounting_payments_test
