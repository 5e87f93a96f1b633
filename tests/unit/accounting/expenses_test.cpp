// Expenses and bank reconciliations (catalogue §4.4 record_expense, reconcile_bank_account): a
// supplier's invoice posted to an expense account of its fund against its payables, paid from a
// bank account of the same fund, never below zero; the contingency and self-insurance funds pay
// only under the board's authorisation and up to it (arts. 1071, 1071.1); an invoice once per
// supplier; a bank account matched with its statement. The fixture's clock makes today 2026-11-21.
#include "declaration/declaration_fixture.hpp"

#include "modules/accounting/receivables.hpp"

#include <SQLiteCpp/Statement.h>

#include <filesystem>
#include <map>
#include <stdlib.h>  // mkdtemp
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace accounting_expenses_test {

using namespace syndic::test;

namespace {

struct Expenses : DeclarationFixture {
    std::map<std::pair<std::string, std::string>, std::string> chart;
    Expenses() {
        const auto accounts = call("list_accounts", {{"pageSize", 200}});
        for (const auto& a : accounts["data"]) chart[{a["fund"].get<std::string>(), a["code"].get<std::string>()}] = a["id"].get<std::string>();
    }
    std::string account(const std::string& fund, const std::string& code) { return chart.at({fund, code}); }
    // An opening balance of `cents` in the fund's bank.
    void opening(const std::string& fund, std::int64_t cents) {
        call("record_journal_entry", {{"date", "2026-01-01"}, {"description", "Solde d'ouverture"}, {"source", "opening"},
                                      {"lines", {{{"accountId", account(fund, "1010")}, {"debitCents", cents}},
                                                 {{"accountId", account(fund, "3000")}, {"creditCents", cents}}}}});
    }
    std::int64_t balance(const std::string& fund, const std::string& code) {
        const auto accounts = call("list_accounts", {{"fund", fund}, {"pageSize", 200}});
        for (const auto& a : accounts["data"])
            if (a["code"] == code) return a["balanceCents"].get<std::int64_t>();
        return 0;
    }
    json invoice(const std::string& fund, const std::string& code, std::int64_t cents, json extra = json::object()) {
        json a = {{"payee", "Toitures Laval inc."}, {"invoiceNumber", "T-2026-118"}, {"invoiceDate", "2026-11-10"}, {"fund", fund},
                  {"accountId", account(fund, code)}, {"amountCents", cents}};
        a.update(extra);
        return a;
    }
};

}  // namespace

TEST_SUITE("accounting-expenses") {

TEST_CASE("an operating invoice to its payables, paid later from the fund's bank, never below zero; once per supplier") {
    Expenses fx;
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense", (fx.invoice("operating", "1010", 45000)));  // not an expense account
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense", (fx.invoice("operating", "5300", 45000, {{"payee", nullptr}})));
    const auto e = fx.call("record_expense", fx.invoice("operating", "5300", 45000, {{"dueOn", "2026-12-10"}}));
    CHECK(e["status"] == "unpaid");
    CHECK(e["accountCode"] == "5300");
    CHECK(fx.balance("operating", "5300") == 45000);
    CHECK(fx.balance("operating", "2100") == -45000);  // owed to the supplier
    CHECK(fx.events_of(e["id"]) == std::vector<std::string>{"expense.recorded"});
    CHECK_REFUSED(fx, "DUPLICATE_INVOICE", "record_expense", (fx.invoice("operating", "5300", 45000, {{"payee", "TOITURES LAVAL INC."}})));
    // The operating fund holds nothing yet: paying is refused, from that day on.
    CHECK_REFUSED(fx, "FUND_INSUFFICIENT", "record_expense", (json{{"id", e["id"]}, {"paidOn", "2026-11-20"}}));
    fx.opening("operating", 100000);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense", (json{{"id", e["id"]}, {"paidOn", "2026-11-20"}, {"amountCents", 1}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense", (json{{"id", e["id"]}, {"paidOn", "2026-11-22"}}));  // tomorrow
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense",
                  (json{{"id", e["id"]}, {"paidOn", "2026-11-20"}, {"bankAccountId", fx.account("contingency", "1010")}}));
    // The fund holds enough, but not the account asked: a term deposit is never overdrawn.
    const auto deposit = fx.call("create_account", {{"code", "1020"}, {"name", "Placement garanti"}, {"type", "asset"}, {"fund", "operating"}, {"isBank", true}});
    CHECK_REFUSED(fx, "FUND_INSUFFICIENT", "record_expense", (json{{"id", e["id"]}, {"paidOn", "2026-11-20"}, {"bankAccountId", deposit["id"]}}));
    const auto paid = fx.call("record_expense", {{"id", e["id"]}, {"paidOn", "2026-11-20"}, {"paymentMethod", "transfer"}});
    CHECK(paid["status"] == "paid");
    CHECK(paid["paidOn"] == "2026-11-20");
    CHECK(fx.balance("operating", "2100") == 0);
    CHECK(fx.balance("operating", "1010") == 55000);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_expense", (json{{"id", e["id"]}, {"paidOn", "2026-11-20"}}));
    CHECK_REFUSED(fx, "EXPENSE_NOT_FOUND", "record_expense", (json{{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}, {"paidOn", "2026-11-20"}}));
    // Paid at once; the cash it leaves must hold on every later day too.
    CHECK_REFUSED(fx, "FUND_INSUFFICIENT", "record_expense",
                  (fx.invoice("operating", "5200", 55001, {{"invoiceNumber", "H-1"}, {"payee", "Hydro"}, {"paidOn", "2026-11-21"}})));
    const auto at_once = fx.call("record_expense", fx.invoice("operating", "5200", 55000, {{"invoiceNumber", "H-1"}, {"payee", "Hydro"},
                                                                                          {"paidOn", "2026-11-21"}}));
    CHECK(at_once["status"] == "paid");
    CHECK(fx.events_of(at_once["id"]) == std::vector<std::string>{"expense.recorded", "expense.paid"});
    CHECK(fx.balance("operating", "1010") == 0);
}

TEST_CASE("the contingency and self-insurance funds pay only under an authorisation of their own, up to it") {
    Expenses fx;
    fx.opening("contingency", 5000000);
    const auto board = fx.resolution_id("simple", "passed", "board");
    // An invoice dated before the board's authorisation does not draw on it.
    const auto roof = fx.call("authorize_fund_use", {{"fund", "contingency"}, {"amountCents", 3000000}, {"use", "replacement"},
                                                     {"purpose", "Réfection de la toiture"}, {"resolutionId", board}});
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_expense", (fx.invoice("contingency", "5100", 1000000)));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense", (fx.invoice("contingency", "5100", 1000, {{"fundUseAuthorizationId", roof["id"]}})));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_expense",
                  (fx.invoice("operating", "5300", 1000, {{"fundUseAuthorizationId", roof["id"]}})));
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_expense",
                  (fx.invoice("self-insurance", "5100", 1000, {{"fundUseAuthorizationId", roof["id"]}})));
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_expense",
                  (fx.invoice("contingency", "5100", 3000001, {{"invoiceDate", "2026-11-21"}, {"fundUseAuthorizationId", roof["id"]}})));
    const auto first = fx.call("record_expense", fx.invoice("contingency", "5100", 2000000, {{"invoiceDate", "2026-11-21"}, {"fundUseAuthorizationId", roof["id"]},
                                                                                              {"paidOn", "2026-11-21"}}));
    CHECK(first["status"] == "paid");
    CHECK(fx.balance("contingency", "1010") == 3000000);
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_expense",
                  (fx.invoice("contingency", "5100", 1000001, {{"invoiceDate", "2026-11-21"}, {"invoiceNumber", "T-2026-140"}, {"fundUseAuthorizationId", roof["id"]}})));
    fx.call("record_expense", fx.invoice("contingency", "5100", 1000000, {{"invoiceDate", "2026-11-21"}, {"invoiceNumber", "T-2026-140"}, {"fundUseAuthorizationId", roof["id"]}}));
    SQLite::Statement q(fx.db->sql(), "SELECT status FROM fund_use_authorizations WHERE id = ?");
    q.bind(1, roof["id"].get<std::string>());
    q.executeStep();
    CHECK(q.getColumn(0).getString() == "used");
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_expense",
                  (fx.invoice("contingency", "5100", 1, {{"invoiceDate", "2026-11-21"}, {"invoiceNumber", "T-2026-141"}, {"fundUseAuthorizationId", roof["id"]}})));
}

TEST_CASE("a bank account reconciled with its statement: what the bank cleared named, the rest uncleared, finalised at 0, the next from it") {
    Expenses fx;
    fx.opening("operating", 100000);
    const auto u = fx.unit("101", 100);
    const auto pay = fx.call("record_payment", {{"unitId", u["id"]}, {"amountCents", 20000}, {"receivedOn", "2026-11-15"}, {"method", "cheque"}});
    const auto cheque = fx.call("record_expense", fx.invoice("operating", "5300", 45000, {{"paidOn", "2026-11-20"}}));
    const auto bank = fx.account("operating", "1010");
    std::string opening_entry;
    {
        SQLite::Statement o(fx.db->sql(), "SELECT e.id FROM journal_entries e WHERE e.source = 'opening'");
        o.executeStep();
        opening_entry = o.getColumn(0).getString();
    }
    CHECK_REFUSED(fx, "NOT_A_BANK_ACCOUNT", "reconcile_bank_account",
                  (json{{"accountId", fx.account("operating", "5300")}, {"statementDate", "2026-11-20"}, {"statementBalanceCents", 0}}));
    // The bank shows the opening and the deposit; the cheque is outstanding.
    const json args = {{"accountId", bank}, {"statementDate", "2026-11-20"}, {"statementBalanceCents", 120000},
                       {"clearedEntryIds", {opening_entry, pay["entryId"]}}};
    const auto trial = fx.call("reconcile_bank_account", args);
    CHECK(trial["bookBalanceCents"] == 75000);
    CHECK(trial["unclearedCents"] == -45000);
    CHECK(trial["differenceCents"] == 0);
    CHECK(trial["finalized"] == false);
    REQUIRE(trial["unclearedEntries"].size() == 1);
    CHECK(trial["unclearedEntries"][0]["entryId"] == cheque["paymentEntryId"]);
    auto off = args;
    off["statementBalanceCents"] = 119000;
    off["finalize"] = true;
    const auto e = fx.error("reconcile_bank_account", off);
    CHECK(e.code() == "RECONCILIATION_UNBALANCED");
    CHECK(figure(e, "differenceCents") == -1000);
    auto done = args;
    done["finalize"] = true;
    const auto kept = fx.call("reconcile_bank_account", done);
    CHECK(kept["finalized"] == true);
    CHECK(fx.events_of(bank).back() == "bank.reconciled");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "reconcile_bank_account", done);  // the same day again
    // The next statement: the cheque cleared; what the last one cleared is not named again.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "reconcile_bank_account",
                  (json{{"accountId", bank}, {"statementDate", "2026-11-21"}, {"statementBalanceCents", 75000}, {"clearedEntryIds", {opening_entry}}}));
    const auto next = fx.call("reconcile_bank_account", {{"accountId", bank}, {"statementDate", "2026-11-21"}, {"statementBalanceCents", 75000},
                                                         {"clearedEntryIds", {cheque["paymentEntryId"]}}, {"finalize", true}});
    CHECK(next["differenceCents"] == 0);
    CHECK(next["previous"]["statementDate"] == "2026-11-20");
    CHECK(next["unclearedEntries"].empty());
}

TEST_CASE("financial statements: per fund a balance sheet that balances and an income statement; debts and claims, by unit for the board") {
    Expenses fx;
    fx.opening("operating", 100000);
    const auto u = fx.unit("101", 100);
    fx.co_owner(u["id"], "Émilie", "Bélanger");
    syndic::accounting::ChargeDraft d;
    d.unit_id = u["id"];
    d.kind = "contribution";
    d.description = "Cotisation";
    d.posted_on = d.due_on = "2026-06-01";
    d.entry_source = "assessment";
    d.funds = {{"operating", 80000}, {"contingency", 20000}};
    syndic::accounting::create_charge(*fx.db, fx.syndicate, d, "2026-06-01T12:00:00.000Z");
    fx.call("record_payment", {{"unitId", u["id"]}, {"amountCents", 30000}, {"receivedOn", "2026-07-01"}, {"method", "cheque"}});
    fx.call("record_expense", fx.invoice("operating", "5300", 45000));  // unpaid
    const auto s = fx.call("get_financial_statements", {{"fiscalYear", 2026}});
    CHECK(s["from"] == "2026-01-01");
    CHECK(s["to"] == "2026-11-21");  // the year runs: to today
    CHECK(s["wholeYear"] == false);
    CHECK(s["closed"] == false);
    const auto& op = s["funds"]["operating"];
    CHECK(op["balanceSheet"]["balances"] == true);
    CHECK(s["funds"]["contingency"]["balanceSheet"]["balances"] == true);
    CHECK(op["incomeStatement"]["totalIncomeCents"] == 80000);
    CHECK(op["incomeStatement"]["totalExpensesCents"] == 45000);
    CHECK(op["incomeStatement"]["surplusCents"] == 35000);
    // Fund balance: the opening 1,000.00 and the year's result 350.00.
    CHECK(op["balanceSheet"]["fundBalanceCents"] == 135000);
    CHECK(s["debtsAndClaims"]["receivables"]["totalCents"] == 70000);
    CHECK(s["debtsAndClaims"]["receivables"]["byBucket"]["over90"] == 70000);
    CHECK_FALSE(s["debtsAndClaims"]["receivables"].contains("byUnit"));
    CHECK(s["debtsAndClaims"]["payables"]["totalCents"] == 45000);
    const auto board = fx.call("get_financial_statements", {{"detail", "by-unit"}});
    CHECK(board["fiscalYear"] == 2026);
    CHECK(board["debtsAndClaims"]["receivables"]["byUnit"][0]["coOwners"][0] == "Émilie Bélanger");
    CHECK_REFUSED(fx, "FISCAL_YEAR_NOT_FOUND", "get_financial_statements", (json{{"fiscalYear", 2027}}));
    CHECK_REFUSED(fx, "FISCAL_YEAR_NOT_FOUND", "get_financial_statements", (json{{"fiscalYear", 2020}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_financial_statements", (json{{"from", "2026-01-01"}}));
    const auto period = fx.call("get_financial_statements", {{"from", "2026-07-01"}, {"to", "2026-07-31"}});
    CHECK(period["funds"]["operating"]["incomeStatement"]["totalIncomeCents"] == 0);
    CHECK(period["debtsAndClaims"]["receivables"]["totalCents"] == 70000);
}

TEST_CASE("a fiscal year closed in order, reconciled, each fund's result carried to its balance, locked, its statements kept and put in the package") {
    Expenses fx;
    char pattern[] = "/tmp/syndic-closing-test-XXXXXX";
    const std::string data_dir = mkdtemp(pattern);
    fx.db->set_data_dir(data_dir);
    const auto bank = fx.account("operating", "1010");
    fx.call("record_journal_entry", {{"date", "2024-12-31"}, {"description", "Solde d'ouverture"}, {"source", "opening"},
                                     {"lines", {{{"accountId", bank}, {"debitCents", 100000}}, {{"accountId", fx.account("operating", "3000")}, {"creditCents", 100000}}}}});
    const auto u = fx.unit("101", 100);
    syndic::accounting::ChargeDraft d;
    d.unit_id = u["id"];
    d.kind = "contribution";
    d.description = "Cotisation 2025";
    d.posted_on = d.due_on = "2025-03-01";
    d.entry_source = "assessment";
    d.funds = {{"operating", 80000}};
    syndic::accounting::create_charge(*fx.db, fx.syndicate, d, "2025-03-01T12:00:00.000Z");
    fx.call("record_payment", {{"unitId", u["id"]}, {"amountCents", 50000}, {"receivedOn", "2025-04-01"}, {"method", "cheque"}});
    fx.call("record_expense", fx.invoice("operating", "5300", 30000, {{"invoiceDate", "2025-06-01"}, {"paidOn", "2025-06-15"}}));
    const auto meeting = fx.call("create_meeting", {{"title", "AGA 2026"}, {"type", "aga"}, {"scheduledAt", "2026-12-20T19:00:00-05:00"},
                                                    {"location", "Salle"}, {"agenda", json::array({"États financiers 2025"})}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "close_fiscal_year", (json{{"fiscalYear", 2026}}));  // not ended
    CHECK_REFUSED(fx, "FISCAL_YEAR_NOT_FOUND", "close_fiscal_year", (json{{"fiscalYear", 2023}}));
    CHECK_REFUSED(fx, "PREVIOUS_YEAR_OPEN", "close_fiscal_year", (json{{"fiscalYear", 2025}}));
    CHECK_REFUSED(fx, "UNRECONCILED_ACCOUNTS", "close_fiscal_year", (json{{"fiscalYear", 2024}}));
    CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "close_fiscal_year", (json{{"fiscalYear", 2024}}));
    const auto reconcile = [&](const std::string& day, std::int64_t balance) {
        const auto trial = fx.call("reconcile_bank_account", {{"accountId", bank}, {"statementDate", day}, {"statementBalanceCents", balance}});
        json ids = json::array();
        for (const auto& e : trial["unclearedEntries"]) ids.push_back(e["entryId"]);
        fx.call("reconcile_bank_account", {{"accountId", bank}, {"statementDate", day}, {"statementBalanceCents", balance}, {"clearedEntryIds", ids},
                                           {"finalize", true}});
    };
    reconcile("2024-12-31", 100000);
    const auto y2024 = fx.call("close_fiscal_year", {{"fiscalYear", 2024}});
    CHECK(y2024["closingEntries"].empty());  // nothing earned or spent
    reconcile("2025-12-31", 120000);
    // A cheque of December entered after the reconciliation: it no longer matches the books.
    fx.call("record_payment", {{"unitId", u["id"]}, {"amountCents", 1000}, {"receivedOn", "2025-12-30"}, {"method", "cheque"}});
    CHECK_REFUSED(fx, "UNRECONCILED_ACCOUNTS", "close_fiscal_year", (json{{"fiscalYear", 2025}}));
    reconcile("2026-01-31", 121000);
    const auto y2025 = fx.call("close_fiscal_year", {{"fiscalYear", 2025}});
    REQUIRE(y2025["closingEntries"].size() == 1);
    CHECK(y2025["closingEntries"][0]["fund"] == "operating");
    CHECK(y2025["closingEntries"][0]["resultCents"] == 50000);  // 800.00 billed less 300.00 spent
    CHECK(y2025["packageOfMeetings"] == json::array({meeting["id"]}));
    const auto& st = y2025["statements"];
    CHECK(st["closed"] == true);
    CHECK(st["funds"]["operating"]["incomeStatement"]["surplusCents"] == 50000);  // closing entries aside
    CHECK(st["funds"]["operating"]["balanceSheet"]["equityCents"] == 150000);  // the opening and the year's result
    CHECK(st["funds"]["operating"]["balanceSheet"]["resultNotClosedCents"] == 0);
    CHECK(st["funds"]["operating"]["balanceSheet"]["balances"] == true);
    CHECK(fx.balance("operating", "4000") == 0);
    CHECK(fx.events_of("2025") == std::vector<std::string>{"fiscal_year.closed"});
    // Locked: nothing is dated in it any more; closed once.
    CHECK_REFUSED(fx, "PERIOD_LOCKED", "record_expense", (fx.invoice("operating", "5300", 100, {{"invoiceNumber", "X-1"}, {"invoiceDate", "2025-07-01"}})));
    CHECK_REFUSED(fx, "ALREADY_CLOSED", "close_fiscal_year", (json{{"fiscalYear", 2025}}));
    // Its statements are a protected document of the register, in the annual meeting's package.
    SQLite::Statement q(fx.db->sql(), "SELECT kind, visibility, path FROM documents WHERE id = ?");
    q.bind(1, y2025["statementsDocumentId"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == "financial-statements");
    CHECK(q.getColumn(1).getString() == "co-owners");
    SQLite::Statement linked(fx.db->sql(), "SELECT count(*) FROM document_links WHERE record_type = 'meeting' AND record_id = ? AND document_id = ?");
    linked.bind(1, meeting["id"].get<std::string>());
    linked.bind(2, y2025["statementsDocumentId"].get<std::string>());
    linked.executeStep();
    CHECK(linked.getColumn(0).getInt() == 1);
    std::error_code ignored;
    std::filesystem::remove_all(data_dir, ignored);
}

}  // TEST_SUITE

}  // namespace accounting_expenses_test
