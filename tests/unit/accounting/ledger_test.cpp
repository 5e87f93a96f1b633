// The ledger (catalogue §4.4): the default chart of the three funds every syndicate has, accounts
// added to it, manual entries under the rules (balanced within each fund, an open fiscal year, the
// accounts the books post to themselves, money leaving the contingency and self-insurance funds),
// the journal read back, and balances as of a day. Every call goes through the registry; the
// fixture's clock makes today 2026-11-21 in Montreal.
#include "fixture.hpp"

#include "modules/accounting/ledger.hpp"

#include <SQLiteCpp/Statement.h>

#include <map>
#include <string>
#include <utility>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace accounting_ledger_test {

using namespace syndic::test;

namespace {

// The chart's account ids by (fund, code).
std::map<std::pair<std::string, std::string>, std::string> chart(Fixture& fx) {
    std::map<std::pair<std::string, std::string>, std::string> out;
    const auto accounts = fx.call("list_accounts", {{"pageSize", 200}});  // kept: a loop over a temporary's member dangles
    for (const auto& a : accounts["data"])
        out[{a["fund"].get<std::string>(), a["code"].get<std::string>()}] = a["id"].get<std::string>();
    return out;
}

json line(const std::string& account, std::int64_t debit, std::int64_t credit) {
    json l = {{"accountId", account}};
    if (debit) l["debitCents"] = debit;
    if (credit) l["creditCents"] = credit;
    return l;
}

json entry(const std::string& date, const std::string& source, json lines) {
    return {{"date", date}, {"description", "Écriture d'essai"}, {"source", source}, {"lines", std::move(lines)}};
}

std::int64_t balance(Fixture& fx, const std::string& fund, const std::string& code, const std::string& as_of = "") {
    json args = {{"fund", fund}, {"pageSize", 200}};
    if (!as_of.empty()) args["asOf"] = as_of;
    const auto accounts = fx.call("list_accounts", args);
    for (const auto& a : accounts["data"])
        if (a["code"] == code) return a["balanceCents"].get<std::int64_t>();
    FAIL("no account " << code << " in the " << fund << " fund");
    return 0;
}

}  // namespace

TEST_SUITE("accounting-ledger") {

TEST_CASE("every syndicate has the default chart of the three funds, system accounts by role") {
    Fixture fx;
    const auto all = fx.call("list_accounts", {{"pageSize", 200}});
    const auto& data = all["data"];
    CHECK(all["asOf"] == "2026-11-21");
    std::map<std::string, int> per_fund;
    for (const auto& a : data) {
        ++per_fund[a["fund"].get<std::string>()];
        CHECK(a["system"] == true);
        CHECK(a["balanceCents"] == 0);
    }
    // Bank, receivables, interfund, payables, fund balance, five incomes in each fund; deposits,
    // prepayments (co-owners' credit) and eight expense headings in the operating fund; one expense
    // heading in each other fund.
    CHECK(per_fund["operating"] == 20);
    CHECK(per_fund["contingency"] == 11);
    CHECK(per_fund["self-insurance"] == 11);
    // Ordered by fund (operating, contingency, self-insurance), then code.
    CHECK(data[0]["fund"] == "operating");
    CHECK(data[0]["code"] == "1010");
    CHECK(data[0]["isBank"] == true);
    CHECK(data[0]["role"] == "bank");
    CHECK(data[20]["fund"] == "contingency");
    CHECK(data[41]["fund"] == "self-insurance");
    const auto ids = chart(fx);
    CHECK(ids.count({"contingency", "5100"}) == 1);
    CHECK(ids.count({"contingency", "2200"}) == 0);  // deposits are held by the operating fund
    // A syndicate created later gets its own chart (the trigger), not another's.
    const auto other = syndic::create_syndicate(*fx.db, fx.clock, "Syndicat B", false);
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM accounts WHERE syndicate_id = ?");
    q.bind(1, other);
    q.executeStep();
    CHECK(q.getColumn(0).getInt() == 42);
}

TEST_CASE("create_account adds to a fund's chart; a code is unique within its fund") {
    Fixture fx;
    const auto made = fx.call("create_account", {{"code", "1020"}, {"name", "Placement garanti"}, {"type", "asset"},
                                                 {"fund", "contingency"}, {"isBank", true},
                                                 {"bank", {{"institution", "Caisse Desjardins"}, {"last4", "4821"}}}});
    CHECK(made["system"] == false);
    CHECK(made["role"].is_null());
    CHECK(made["bank"]["last4"] == "4821");
    CHECK(made["warnings"].empty());  // the contingency fund now has a bank account of its own
    SQLite::Statement events(fx.db->sql(), "SELECT count(*) FROM events WHERE type = 'account.created' AND record_id = ?");
    events.bind(1, made["id"].get<std::string>());
    events.executeStep();
    CHECK(events.getColumn(0).getInt() == 1);
    // The same code in another fund is another account.
    const auto operating = fx.call("create_account", {{"code", "1020"}, {"name", "Épargne"}, {"type", "asset"}, {"fund", "operating"}});
    CHECK(operating["isBank"] == false);
    const auto dup = fx.error("create_account", {{"code", "1020"}, {"name", "Autre"}, {"type", "asset"}, {"fund", "contingency"}});
    CHECK(dup.code() == "DUPLICATE_ACCOUNT_CODE");
    CHECK(text_of(dup, "accountId") == made["id"].get<std::string>());
    CHECK_REFUSED(fx, "DUPLICATE_ACCOUNT_CODE", "create_account",
                  (json{{"code", "5100"}, {"name", "Franchises"}, {"type", "expense"}, {"fund", "self-insurance"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_account",
                  (json{{"code", "1030"}, {"name", "Banque"}, {"type", "expense"}, {"fund", "operating"}, {"isBank", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_account",
                  (json{{"code", "1030"}, {"name", "X"}, {"type", "asset"}, {"fund", "operating"}, {"bank", {{"last4", "1234"}}}}));
    // A member may read the chart, not add to it.
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "create_account",
                     (json{{"code", "1030"}, {"name", "X"}, {"type", "asset"}, {"fund", "operating"}}));
    CHECK(fx.call_as(fx.member, "list_accounts", {{"fund", "operating"}})["pagination"]["total"] == 21);
}

TEST_CASE("create_account warns when a fund has no bank account of its own") {
    Fixture fx;
    // Two funds' accounts at the same bank account number: neither is the fund's own.
    fx.call("create_account", {{"code", "1020"}, {"name", "Compte commun"}, {"type", "asset"}, {"fund", "operating"},
                               {"isBank", true}, {"bank", {{"institution", "Banque"}, {"last4", "1111"}}}});
    const auto shared = fx.call("create_account", {{"code", "1020"}, {"name", "Compte commun"}, {"type", "asset"},
                                                   {"fund", "self-insurance"}, {"isBank", true},
                                                   {"bank", {{"institution", "Banque"}, {"last4", "1111"}}}});
    REQUIRE(shared["warnings"].size() == 1);
    CHECK(shared["warnings"][0].get<std::string>().find("self-insurance fund has no bank account of its own") != std::string::npos);
}

TEST_CASE("record_journal_entry: lines balance within each fund, in an open year, numbered in order") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto op = [&](const char* code) { return ids.at({"operating", code}); };
    const auto ct = [&](const char* code) { return ids.at({"contingency", code}); };
    const auto opening = fx.call("record_journal_entry",
                                 entry("2026-01-01", "opening",
                                       {line(op("1010"), 500000, 0), line(op("3000"), 0, 500000), line(ct("1010"), 2000000, 0),
                                        line(ct("3000"), 0, 2000000)}));
    CHECK(opening["number"] == 1);
    CHECK(opening["fiscalYear"] == 2026);
    CHECK(opening["lines"].size() == 4);
    CHECK(opening["lines"][2]["fund"] == "contingency");
    CHECK(opening["lines"][2]["accountCode"] == "1010");
    CHECK(balance(fx, "operating", "1010") == 500000);
    CHECK(balance(fx, "operating", "3000") == -500000);
    CHECK(balance(fx, "operating", "1010", "2025-12-31") == 0);  // as of the day before

    // Balanced overall but not per fund: operating pays, contingency receives, without interfund.
    const auto crossing = fx.error("record_journal_entry", entry("2026-02-01", "transfer",
                                                                 {line(ct("1010"), 10000, 0), line(op("1010"), 0, 10000)}));
    CHECK(crossing.code() == "UNBALANCED_ENTRY");
    CHECK(text_of(crossing, "fund") == "operating");
    CHECK(figure(crossing, "differenceCents") == -10000);
    CHECK_REFUSED(fx, "UNBALANCED_ENTRY", "record_journal_entry",
                  entry("2026-02-01", "adjustment", {line(op("5300"), 100, 0), line(op("3000"), 0, 99)}));
    // The same through each fund's interfund account.
    const auto transfer = fx.call("record_journal_entry",
                                  entry("2026-02-01", "transfer",
                                        {line(op("1900"), 10000, 0), line(op("1010"), 0, 10000), line(ct("1010"), 10000, 0),
                                         line(ct("1900"), 0, 10000)}));
    CHECK(transfer["number"] == 2);
    CHECK(balance(fx, "contingency", "1900") == -10000);  // the contingency fund owes the operating fund
    // A line debits or credits, not both, not neither.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_journal_entry",
                  entry("2026-02-01", "adjustment", {line(op("5300"), 100, 100), line(op("3000"), 0, 0)}));
}

TEST_CASE("record_journal_entry: a closed fiscal year takes no entry, by the declaration's fiscal year") {
    Fixture fx;
    const auto ids = chart(fx);
    fx.call("update_declaration", {{"fiscalYearStart", "04-01"}});
    SQLite::Statement closed(fx.db->sql(),
                             "INSERT INTO fiscal_year_closures (syndicate_id, fiscal_year, starts_on, ends_on, closed_at) "
                             "VALUES (?, 2025, '2025-04-01', '2026-03-31', '2026-05-01T12:00:00.000Z')");
    closed.bind(1, fx.syndicate);
    closed.exec();
    const auto lines = json::array({line(ids.at({"operating", "5300"}), 100, 0), line(ids.at({"operating", "3000"}), 0, 100)});
    const auto locked = fx.error("record_journal_entry", entry("2026-03-31", "adjustment", lines));
    CHECK(locked.code() == "PERIOD_LOCKED");
    CHECK(figure(locked, "fiscalYear") == 2025);
    CHECK(locked.field() == "/date");
    CHECK_REFUSED(fx, "PERIOD_LOCKED", "record_journal_entry", entry("2025-04-01", "adjustment", lines));
    // Every day before a closed year's end is locked, earlier years included.
    CHECK_REFUSED(fx, "PERIOD_LOCKED", "record_journal_entry", entry("2025-03-31", "adjustment", lines));
    const auto open = fx.call("record_journal_entry", entry("2026-04-01", "adjustment", lines));
    CHECK(open["fiscalYear"] == 2026);
    // Once the ledger has entries, the fiscal year's start is fixed (catalogue §3.1).
    CHECK_REFUSED(fx, "FISCAL_YEAR_LOCKED", "update_declaration", (json{{"fiscalYearStart", "01-01"}}));
}

TEST_CASE("fiscal years by the declaration's start: a year is named by the calendar year it starts in") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto lines = json::array({line(ids.at({"operating", "5300"}), 100, 0), line(ids.at({"operating", "3000"}), 0, 100)});
    fx.call("update_declaration", {{"fiscalYearStart", "03-01"}});
    CHECK(fx.call("record_journal_entry", entry("2024-02-29", "adjustment", lines))["fiscalYear"] == 2023);
    CHECK(fx.call("record_journal_entry", entry("2024-03-01", "adjustment", lines))["fiscalYear"] == 2024);
    CHECK(fx.call("record_journal_entry", entry("2025-02-28", "adjustment", lines))["fiscalYear"] == 2024);
    // Each year ends the day before the next starts, leap Februaries included.
    const auto leap = syndic::accounting::fiscal_year_of(*fx.db, fx.syndicate, "2024-02-29");
    CHECK(leap.year == 2023);
    CHECK(leap.starts_on == "2023-03-01");
    CHECK(leap.ends_on == "2024-02-29");
    CHECK(syndic::accounting::fiscal_year_of(*fx.db, fx.syndicate, "2024-12-31").ends_on == "2025-02-28");
}

TEST_CASE("opening balances: balance-sheet accounts only, dated no later than the books' first other entry") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto ct = [&](const char* code) { return ids.at({"contingency", code}); };
    const auto op = [&](const char* code) { return ids.at({"operating", code}); };
    // An "opening" that spends the contingency fund: an expense is no opening balance.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_journal_entry",
                  entry("2026-01-01", "opening", {line(ct("5100"), 400000, 0), line(ct("1010"), 0, 400000)}));
    fx.call("record_journal_entry", entry("2026-03-01", "adjustment", {line(op("5300"), 1000, 0), line(op("2100"), 0, 1000)}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_journal_entry",
                  entry("2026-03-02", "opening", {line(ct("1010"), 100, 0), line(ct("3000"), 0, 100)}));
    fx.call("record_journal_entry", entry("2026-03-01", "opening", {line(ct("1010"), 100, 0), line(ct("3000"), 0, 100)}));
}

TEST_CASE("record_journal_entry: receivables only as an opening balance, a fund's bank by transfers too") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto op = [&](const char* code) { return ids.at({"operating", code}); };
    const auto receivables = fx.error("record_journal_entry", entry("2026-03-01", "adjustment",
                                                                    {line(op("1100"), 5000, 0), line(op("4000"), 0, 5000)}));
    CHECK(receivables.code() == "SYSTEM_ACCOUNT");
    CHECK(receivables.field() == "/lines/0/accountId");
    CHECK(text_of(receivables, "accountId") == op("1100"));
    CHECK_REFUSED(fx, "SYSTEM_ACCOUNT", "record_journal_entry",
                  entry("2026-03-01", "transfer", {line(op("1100"), 5000, 0), line(op("1010"), 0, 5000)}));
    CHECK_REFUSED(fx, "SYSTEM_ACCOUNT", "record_journal_entry",
                  entry("2026-03-01", "adjustment", {line(op("5800"), 500, 0), line(op("1010"), 0, 500)}));
    // A transfer moves money between bank and interfund accounts; an expense is record_expense's.
    CHECK_REFUSED(fx, "SYSTEM_ACCOUNT", "record_journal_entry",
                  entry("2026-03-01", "transfer", {line(op("5800"), 500, 0), line(op("1010"), 0, 500)}));
    fx.call("record_journal_entry", entry("2026-03-01", "opening", {line(op("1100"), 5000, 0), line(op("3000"), 0, 5000)}));
    // An account the syndicate added is its own to post to.
    const auto savings = fx.call("create_account", {{"code", "1020"}, {"name", "Épargne"}, {"type", "asset"}, {"fund", "operating"},
                                                    {"isBank", true}})["id"].get<std::string>();
    fx.call("record_journal_entry", entry("2026-03-02", "adjustment", {line(op("5800"), 500, 0), line(savings, 0, 500)}));
    fx.call("record_journal_entry", entry("2026-03-02", "transfer", {line(savings, 10000, 0), line(op("1010"), 0, 10000)}));
}

TEST_CASE("record_journal_entry: money leaves the contingency and self-insurance funds only under an authorisation") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto op = [&](const char* code) { return ids.at({"operating", code}); };
    const auto ct = [&](const char* code) { return ids.at({"contingency", code}); };
    const auto si = [&](const char* code) { return ids.at({"self-insurance", code}); };
    fx.call("record_journal_entry", entry("2026-01-01", "opening",
                                          {line(ct("1010"), 2000000, 0), line(ct("3000"), 0, 2000000), line(si("1010"), 300000, 0),
                                           line(si("3000"), 0, 300000), line(op("1010"), 100000, 0), line(op("3000"), 0, 100000)}));
    // The contingency fund lends nothing to the operating fund, and pays no expense, unauthorised.
    const auto lending = json::array({line(ct("1900"), 30000, 0), line(ct("1010"), 0, 30000), line(op("1010"), 30000, 0),
                                      line(op("1900"), 0, 30000)});
    const auto lent = fx.error("record_journal_entry", entry("2026-02-01", "transfer", lending));
    CHECK(lent.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(text_of(lent, "fund") == "contingency");
    CHECK(figure(lent, "cents") == 30000);
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_journal_entry",
                  entry("2026-02-01", "adjustment", {line(ct("5100"), 45000, 0), line(ct("2100"), 0, 45000)}));
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_journal_entry",
                  entry("2026-02-01", "adjustment", {line(si("5100"), 45000, 0), line(si("2100"), 0, 45000)}));
    // Until the funds module records authorisations, none exists to name.
    auto authorised = entry("2026-02-01", "adjustment", {line(ct("5100"), 45000, 0), line(ct("2100"), 0, 45000)});
    authorised["fundUseAuthorizationId"] = "6d1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
    CHECK_REFUSED(fx, "FUND_USE_AUTHORIZATION_NOT_FOUND", "record_journal_entry", authorised);
    // The operating fund advances 30,000 to the contingency fund, which repays it: no authorisation.
    fx.call("record_journal_entry", entry("2026-02-02", "transfer",
                                          {line(op("1900"), 30000, 0), line(op("1010"), 0, 30000), line(ct("1010"), 30000, 0),
                                           line(ct("1900"), 0, 30000)}));
    const auto too_much = json::array({line(op("1010"), 30001, 0), line(op("1900"), 0, 30001), line(ct("1900"), 30001, 0),
                                       line(ct("1010"), 0, 30001)});
    const auto beyond = fx.error("record_journal_entry", entry("2026-02-03", "transfer", too_much));
    CHECK(beyond.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(figure(beyond, "cents") == 1);  // only what it does not owe
    fx.call("record_journal_entry", entry("2026-02-03", "transfer",
                                          {line(op("1010"), 30000, 0), line(op("1900"), 0, 30000), line(ct("1900"), 30000, 0),
                                           line(ct("1010"), 0, 30000)}));
    CHECK(balance(fx, "contingency", "1900") == 0);
    CHECK(balance(fx, "contingency", "1010") == 2000000);
    // Moving the fund's money between its own bank accounts is not using it.
    const auto term = fx.call("create_account", {{"code", "1020"}, {"name", "Placement"}, {"type", "asset"}, {"fund", "contingency"},
                                                 {"isBank", true}})["id"].get<std::string>();
    fx.call("record_journal_entry", entry("2026-02-04", "transfer", {line(term, 500000, 0), line(ct("1010"), 0, 500000)}));
    // An expense paid from it counts once (what leaves, not the two lines added).
    const auto paid = fx.error("record_journal_entry", entry("2026-02-05", "adjustment", {line(ct("5100"), 45000, 0), line(term, 0, 45000)}));
    CHECK(paid.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(figure(paid, "cents") == 45000);
}

TEST_CASE("record_journal_entry: no way around the authorisation through equity, income or a backdated repayment") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto op = [&](const char* code) { return ids.at({"operating", code}); };
    const auto ct = [&](const char* code) { return ids.at({"contingency", code}); };
    fx.call("record_journal_entry", entry("2026-01-01", "opening",
                                          {line(ct("1010"), 2000000, 0), line(ct("3000"), 0, 2000000), line(op("1010"), 100000, 0),
                                           line(op("3000"), 0, 100000)}));
    // The fund's balance made a debt to the operating fund, to be "repaid" next: refused at once.
    const auto equity = fx.error("record_journal_entry",
                                 entry("2026-02-01", "adjustment",
                                       {line(ct("3000"), 1000000, 0), line(ct("1900"), 0, 1000000), line(op("1900"), 1000000, 0),
                                        line(op("3000"), 0, 1000000)}));
    CHECK(equity.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(figure(equity, "cents") == 1000000);
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_journal_entry",
                  entry("2026-02-01", "adjustment", {line(ct("4200"), 500, 0), line(ct("1900"), 0, 500), line(op("1900"), 500, 0),
                                                     line(op("4200"), 0, 500)}));
    // A placement the fund holds (an asset that is not a bank account) pays out as its bank does.
    const auto placement = fx.call("create_account", {{"code", "1500"}, {"name", "Placement"}, {"type", "asset"},
                                                      {"fund", "contingency"}})["id"].get<std::string>();
    fx.call("record_journal_entry", entry("2026-02-01", "transfer", {line(placement, 300000, 0), line(ct("1010"), 0, 300000)}));
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_journal_entry",
                  entry("2026-02-02", "adjustment", {line(ct("1900"), 300000, 0), line(placement, 0, 300000), line(op("3000"), 300000, 0),
                                                     line(op("1900"), 0, 300000)}));
    // An advance repaid once cannot be repaid again by an entry dated before the repayment.
    fx.call("record_journal_entry", entry("2026-03-02", "transfer",
                                          {line(op("1900"), 30000, 0), line(op("1010"), 0, 30000), line(ct("1010"), 30000, 0),
                                           line(ct("1900"), 0, 30000)}));
    const auto repay = json::array({line(op("1010"), 30000, 0), line(op("1900"), 0, 30000), line(ct("1900"), 30000, 0),
                                    line(ct("1010"), 0, 30000)});
    fx.call("record_journal_entry", entry("2026-03-04", "transfer", repay));
    const auto again = fx.error("record_journal_entry", entry("2026-03-03", "transfer", repay));
    CHECK(again.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(figure(again, "cents") == 30000);
    // The same for the self-insurance fund.
    const auto si = [&](const char* code) { return ids.at({"self-insurance", code}); };
    fx.call("record_journal_entry", entry("2026-03-05", "transfer",
                                          {line(op("1900"), 1000, 0), line(op("1010"), 0, 1000), line(si("1010"), 1000, 0),
                                           line(si("1900"), 0, 1000)}));
    fx.call("record_journal_entry", entry("2026-03-06", "transfer",
                                          {line(op("1010"), 1000, 0), line(op("1900"), 0, 1000), line(si("1900"), 1000, 0),
                                           line(si("1010"), 0, 1000)}));
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_journal_entry",
                  entry("2026-03-07", "transfer", {line(op("1010"), 1, 0), line(op("1900"), 0, 1), line(si("1900"), 1, 0),
                                                   line(si("1010"), 0, 1)}));
}

TEST_CASE("record_journal_entry: every id named is the syndicate's, before any rule") {
    Fixture fx;
    const auto ids = chart(fx);
    const std::string nowhere = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
    const auto unbalanced_and_unknown = entry("2026-02-01", "adjustment", {line(ids.at({"operating", "5300"}), 100, 0), line(nowhere, 0, 1)});
    const auto e = fx.error("record_journal_entry", unbalanced_and_unknown);
    CHECK(e.code() == "ACCOUNT_NOT_FOUND");
    CHECK(e.field() == "/lines/1/accountId");
    auto with_unit = entry("2026-02-01", "adjustment", {line(ids.at({"operating", "5300"}), 100, 0), line(ids.at({"operating", "3000"}), 0, 100)});
    with_unit["lines"][0]["unitId"] = nowhere;
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "record_journal_entry", with_unit);
    const auto unit = fx.unit("101", 10);
    with_unit["lines"][0]["unitId"] = unit["id"];
    auto with_contractor = with_unit;
    with_contractor["lines"][1]["contractorId"] = nowhere;
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "record_journal_entry", with_contractor);
    auto with_co_owner = with_unit;
    with_co_owner["lines"][1]["coOwnerId"] = nowhere;
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_journal_entry", with_co_owner);
    auto authorised = with_unit;
    authorised["fundUseAuthorizationId"] = nowhere;
    CHECK_REFUSED(fx, "FUND_USE_AUTHORIZATION_NOT_FOUND", "record_journal_entry", authorised);
    const auto posted = fx.call("record_journal_entry", with_unit);
    // The entry's event, in its own transaction.
    SQLite::Statement events(fx.db->sql(), "SELECT count(*) FROM events WHERE type = 'ledger.entry_posted' AND record_id = ?");
    events.bind(1, posted["id"].get<std::string>());
    events.executeStep();
    CHECK(events.getColumn(0).getInt() == 1);
    CHECK(posted["lines"][0]["unitId"] == unit["id"]);
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "record_journal_entry", with_unit);
}

TEST_CASE("list_transactions: newest first, with lines, filtered by fund, account, unit, source and dates") {
    Fixture fx;
    const auto ids = chart(fx);
    const auto op = [&](const char* code) { return ids.at({"operating", code}); };
    const auto ct = [&](const char* code) { return ids.at({"contingency", code}); };
    fx.call("record_journal_entry", entry("2026-01-01", "opening", {line(op("1010"), 500000, 0), line(op("3000"), 0, 500000)}));
    fx.call("record_journal_entry", entry("2026-01-01", "opening", {line(ct("1010"), 900000, 0), line(ct("3000"), 0, 900000)}));
    const auto unit = fx.unit("101", 10);
    auto energy = entry("2026-03-15", "adjustment", {line(op("5200"), 1234, 0), line(op("3000"), 0, 1234)});
    energy["lines"][0]["unitId"] = unit["id"];
    fx.call("record_journal_entry", energy);
    const auto all = fx.call("list_transactions");
    CHECK(all["pagination"]["total"] == 3);
    CHECK(all["data"][0]["number"] == 3);
    CHECK(all["data"][1]["number"] == 2);  // the same day: the later number first
    CHECK(all["data"][2]["number"] == 1);
    CHECK(fx.call("list_transactions", {{"fund", "contingency"}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_transactions", {{"accountId", op("3000")}})["pagination"]["total"] == 2);
    CHECK(fx.call("list_transactions", {{"unitId", unit["id"]}})["data"][0]["number"] == 3);
    CHECK(fx.call("list_transactions", {{"source", "opening"}})["pagination"]["total"] == 2);
    CHECK(fx.call("list_transactions", {{"from", "2026-02-01"}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_transactions", {{"to", "2026-01-01"}})["pagination"]["total"] == 2);
    // A date-time bounds by its Montreal day (§0): 01:00 UTC on March 16 is still March 15 there.
    CHECK(fx.call("list_transactions", {{"from", "2026-03-16T01:00:00Z"}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_transactions", {{"from", "2026-03-16T12:00:00-04:00"}})["pagination"]["total"] == 0);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_transactions", (json{{"from", "2026-02-30"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_transactions", (json{{"to", "yesterday please"}}));
    const auto paged = fx.call("list_transactions", {{"pageSize", 1}, {"page", 2}});
    CHECK(paged["data"].size() == 1);
    CHECK(paged["data"][0]["number"] == 2);
    CHECK(fx.call_as(fx.member, "list_transactions")["pagination"]["total"] == 3);
}

TEST_CASE("list_accounts: fund and type filters, and zero balances left out on request") {
    Fixture fx;
    const auto ids = chart(fx);
    fx.call("record_journal_entry", entry("2026-01-01", "opening",
                                          {line(ids.at({"operating", "1010"}), 700, 0), line(ids.at({"operating", "3000"}), 0, 700)}));
    const auto nonzero = fx.call("list_accounts", {{"includeZero", false}});
    CHECK(nonzero["pagination"]["total"] == 2);
    CHECK(fx.call("list_accounts", {{"type", "expense"}})["pagination"]["total"] == 10);
    CHECK(fx.call("list_accounts", {{"fund", "self-insurance"}, {"type", "income"}})["pagination"]["total"] == 5);
    CHECK(fx.call("list_accounts", {{"includeZero", false}, {"asOf", "2025-12-31"}})["pagination"]["total"] == 0);
}

}  // TEST_SUITE

}  // namespace accounting_ledger_test
