// A project's money (catalogue §4.8, link L12): each invoice booked as two expenses, what is paid
// now and the holdback kept as a payable until 30 days after acceptance (art. 2727); posted as
// record_expense posts (the contingency and self-insurance funds' 5100, the operating fund's 5300,
// under the board's authorisation for a protected fund, arts. 1071, 1071.1); the awarded
// contractor's invoices within the contract and its approved changes; the budget; acceptance and
// its warranties; closing with every deficiency dealt with and every invoice paid, the holdback
// released from its day, the work written into the logbook and its components renewed. The
// fixture's clock makes today 2026-11-21.
#include "projects/projects_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace projects_money_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

json sources(const std::string& fund, std::int64_t cents) {
    return json::array({json{{"fund", fund}, {"amountCents", cents}}});
}

// The project an expense pays, as accounting keeps it.
std::string expense_project(ProjectsFixture& fx, const json& expense_id) {
    SQLite::Statement q(fx.db->sql(), "SELECT project_id FROM expenses WHERE id = ?");
    q.bind(1, expense_id.get<std::string>());
    return q.executeStep() && !q.getColumn(0).isNull() ? q.getColumn(0).getString() : "";
}

json deficiencies() {
    return json::array({json{{"description", "Solin à recoller près du drain"}, {"dueOn", "2026-12-15"}},
                        json{{"description", "Débris laissés sur le toit"}}});
}

}  // namespace

TEST_SUITE("projects-money") {

TEST_CASE("the awarded contractor's invoice: what is paid now, and the holdback kept as a payable; within the contract and its approved changes") {
    ProjectsFixture fx;
    fx.opening("contingency", 6000000);
    const auto p = fx.started_project();
    const auto auth = fx.authorization(p, 5000000);
    CHECK(auth["projectId"] == p["id"]);
    const auto authorised = json{{"fundUseAuthorizationId", auth["id"]}};
    auto bill = [&](const std::string& number, std::int64_t cents, json extra = json::object()) {
        auto a = fx.bill(p, number, cents, authorised);
        a.update(extra);
        return a;
    };
    // The contingency fund pays under the board's authorisation, and only a fund the project has.
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_project_expense", fx.bill(p, "B-1", 2000000));
    const auto operating = fx.bill(p, "B-1", 2000000, {{"fund", "operating"}});
    const auto outside = fx.error("record_project_expense", operating);
    CHECK(outside.code() == "FUND_NOT_IN_PROJECT");
    CHECK(text_of(outside, "fund") == "operating");
    CHECK_REFUSED(fx, "FUND_NOT_IN_PROJECT", "record_project_expense", operating);
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "record_project_expense", bill("B-1", 2000000, {{"projectId", ghost}}));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "record_project_expense", bill("B-1", 2000000, {{"contractorId", ghost}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "record_project_expense", bill("B-1", 2000000, {{"documentId", ghost}}));
    const auto first = fx.call("record_project_expense", bill("B-1", 2000000, {{"paidOn", "2026-11-21"}}));
    const auto inv = first["invoice"];
    CHECK(inv["projectId"] == p["id"]);
    CHECK(inv["contractorId"] == fx.roofer["id"]);  // the awarded contractor by default
    CHECK(inv["invoiceNumber"] == "B-1");
    CHECK(inv["fund"] == "contingency");
    CHECK(inv["amountCents"] == 2000000);
    CHECK(inv["holdbackCents"] == 200000);  // 10 %
    CHECK(inv["paid"] == true);
    // The holdback is owed: not free money, though still in the bank.
    const auto held = fx.call("get_fund_position")["funds"]["contingency"];
    CHECK(held["payablesCents"] == 200000);
    CHECK(held["cashCents"] == 6000000 - 1800000);
    CHECK(held["availableCents"] == 6000000 - 1800000 - 200000 - (5000000 - 2000000));
    CHECK(inv["holdbackReleased"] == false);
    REQUIRE(inv["holdbackExpenseId"].is_string());
    CHECK(fx.expense_amount(inv["expenseId"]) == 1800000);
    CHECK(fx.expense_status(inv["expenseId"]) == "paid");
    CHECK(fx.expense_amount(inv["holdbackExpenseId"]) == 200000);
    CHECK(fx.expense_status(inv["holdbackExpenseId"]) == "unpaid");
    CHECK(expense_project(fx, inv["expenseId"]) == p["id"].get<std::string>());
    CHECK(expense_project(fx, inv["holdbackExpenseId"]) == p["id"].get<std::string>());
    CHECK(fx.has_event(inv["expenseId"], "expense.recorded"));
    CHECK((fx.has_event(p["id"], "project.expense_recorded") || fx.has_event(inv["id"], "project.expense_recorded")));
    // The contingency fund's major repairs, its payables for the holdback, its bank for the rest.
    CHECK(fx.balance("contingency", "5100") == 2000000);
    CHECK(fx.balance("contingency", "2100") == -200000);
    CHECK(fx.balance("contingency", "1010") == 4200000);
    auto budget = first["budget"];
    CHECK(budget["projectId"] == p["id"]);
    CHECK(budget["budgetCents"] == 5000000);
    CHECK(budget["committedCents"] == 4000000);
    CHECK(budget["invoicedCents"] == 2000000);
    CHECK(budget["paidCents"] == 1800000);
    CHECK(budget["holdbackHeldCents"] == 200000);
    CHECK(budget["holdbackReleasedCents"] == 0);
    CHECK(budget["unpaidCents"] == 0);
    CHECK(budget["remainingBudgetCents"] == 3000000);
    REQUIRE(budget["bySource"].size() == 1);
    CHECK(budget["bySource"][0]["fund"] == "contingency");
    CHECK(budget["bySource"][0]["amountCents"] == 5000000);
    CHECK(budget["bySource"][0]["invoicedCents"] == 2000000);
    CHECK(budget["bySource"][0]["paidCents"] == 1800000);
    CHECK_REFUSED(fx, "DUPLICATE_INVOICE", "record_project_expense", bill("B-1", 2000000));
    // A holdback given; the invoice left to pay.
    const auto second = fx.call("record_project_expense", bill("B-2", 1000000, {{"holdbackCents", 50000}}));
    CHECK(second["invoice"]["holdbackCents"] == 50000);
    CHECK(second["invoice"]["paid"] == false);
    CHECK(fx.expense_amount(second["invoice"]["expenseId"]) == 950000);
    CHECK(fx.expense_status(second["invoice"]["expenseId"]) == "unpaid");
    budget = second["budget"];
    CHECK(budget["invoicedCents"] == 3000000);
    CHECK(budget["paidCents"] == 1800000);
    CHECK(budget["holdbackHeldCents"] == 250000);
    CHECK(budget["unpaidCents"] == 950000);
    CHECK(budget["remainingBudgetCents"] == 2000000);
    CHECK(fx.balance("contingency", "2100") == -1200000);
    // The contract is the limit: 40,000.00 exactly, not a cent more.
    const auto over = fx.error("record_project_expense", bill("B-3", 1000001));
    CHECK(over.code() == "OVER_CONTRACT");
    CHECK(figure(over, "contractCents") == 4000000);
    CHECK_REFUSED(fx, "OVER_CONTRACT", "record_project_expense", bill("B-3", 1000001));
    CHECK(fx.call("record_project_expense", bill("B-3", 1000000))["invoice"]["holdbackCents"] == 100000);
    const auto got = fx.call("get_project", {{"id", p["id"]}});
    CHECK(got["invoicedCents"] == 4000000);
    CHECK(got["paidCents"] == 1800000);
    CHECK(got["holdbackCents"] == 350000);
    CHECK(got["invoices"].size() == 3);
    // An approved change makes room; a pending one does not.
    const auto extra = fx.call("add_change_order", {{"projectId", p["id"]}, {"description", "Drains"}, {"amountCents", 300000}, {"reason", "Imprévu"}});
    CHECK_REFUSED(fx, "OVER_CONTRACT", "record_project_expense", bill("B-4", 300000));
    fx.call("decide_change_order", {{"projectId", p["id"]}, {"changeOrderId", extra["id"]}, {"decision", "approve"}});
    CHECK(fx.call("record_project_expense", bill("B-4", 300000))["budget"]["committedCents"] == 4300000);
}

TEST_CASE("a project's authorisation pays that project only, and nothing more once the project is cancelled") {
    ProjectsFixture fx;
    fx.opening("contingency", 6000000);
    const auto p = fx.started_project();
    const auto auth = fx.authorization(p, 1000000);
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_expense",
                  (json{{"contractorId", fx.roofer["id"]}, {"invoiceNumber", "X-1"}, {"invoiceDate", "2026-11-21"}, {"fund", "contingency"},
                        {"accountId", fx.account("contingency", "5100")}, {"amountCents", 1000}, {"fundUseAuthorizationId", auth["id"]}}));
    const auto other = fx.call("create_project", {{"title", "Solins"}, {"category", "major-repair"}, {"budgetCents", 100000},
                                                  {"fundingSources", {{{"fund", "contingency"}, {"amountCents", 100000}}}}});
    fx.call("approve_project", {{"id", other["id"]}, {"resolutionId", fx.board()}});
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_project_expense",
                  fx.bill(other, "S-1", 1000, {{"contractorId", fx.roofer["id"]}, {"fundUseAuthorizationId", auth["id"]}}));
    fx.call("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté"}});
    CHECK(fx.authorization_status(auth["id"]) == "used");
    CHECK(fx.call("get_fund_position")["funds"]["contingency"]["authorizedUnusedCents"] == 0);
}

TEST_CASE("the board's authorisation caps what the contingency fund pays for the project") {
    ProjectsFixture fx;
    fx.opening("contingency", 3000000);
    const auto p = fx.started_project();
    const auto auth = fx.authorization(p, 1000000);
    const json authorised = {{"fundUseAuthorizationId", auth["id"]}};
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_project_expense", fx.bill(p, "B-1", 1000001, authorised));
    CHECK(fx.call("record_project_expense", fx.bill(p, "B-1", 1000000, authorised))["invoice"]["holdbackCents"] == 100000);
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_project_expense", fx.bill(p, "B-2", 1, authorised));
}

TEST_CASE("the operating fund books to maintenance; another contractor keeps no holdback; accountId chooses; cash never below zero") {
    ProjectsFixture fx;
    const auto p = fx.started_project({{"fundingSources", json::array({json{{"fund", "operating"}, {"amountCents", 1000000}},
                                                                       json{{"fund", "contingency"}, {"amountCents", 4000000}}})}});
    // The engineer's fees: not the awarded contractor, so no holdback.
    const auto fees = fx.call("record_project_expense", {{"projectId", p["id"]}, {"contractorId", fx.contractor["id"]}, {"invoiceNumber", "ING-1"},
                                                         {"invoiceDate", "2026-11-20"}, {"amountCents", 250000}, {"fund", "operating"},
                                                         {"accountId", fx.account("operating", "5600")}});
    CHECK(fees["invoice"]["contractorId"] == fx.contractor["id"]);
    CHECK(fees["invoice"]["holdbackCents"] == 0);
    CHECK(fees["invoice"]["holdbackExpenseId"].is_null());
    CHECK(fees["invoice"]["paid"] == false);
    CHECK(fx.expense_amount(fees["invoice"]["expenseId"]) == 250000);
    CHECK(fx.balance("operating", "5600") == 250000);
    CHECK(fx.balance("operating", "5300") == 0);
    CHECK(fx.balance("operating", "2100") == -250000);
    // The operating fund has no cash: nothing is paid from it.
    const auto broke = fx.error("record_project_expense", {{"projectId", p["id"]}, {"contractorId", fx.contractor["id"]}, {"invoiceNumber", "ING-2"},
                                                           {"invoiceDate", "2026-11-20"}, {"amountCents", 100000}, {"fund", "operating"},
                                                           {"paidOn", "2026-11-21"}});
    CHECK(broke.code() == "FUND_INSUFFICIENT");
    CHECK_REFUSED(fx, "FUND_INSUFFICIENT", "record_project_expense",
                  (json{{"projectId", p["id"]}, {"contractorId", fx.contractor["id"]}, {"invoiceNumber", "ING-2"}, {"invoiceDate", "2026-11-20"},
                        {"amountCents", 100000}, {"fund", "operating"}, {"paidOn", "2026-11-21"}}));
    // The awarded contractor's bill from the operating fund: maintenance (5300), 10 % held, rounded to the cent.
    const auto bill = fx.call("record_project_expense", fx.bill(p, "B-1", 333335, {{"fund", "operating"}}));
    CHECK(bill["invoice"]["holdbackCents"] == 33334);
    CHECK(fx.expense_amount(bill["invoice"]["expenseId"]) == 300001);
    CHECK(fx.balance("operating", "5300") == 333335);
    CHECK_REFUSED(fx, "FUND_NOT_IN_PROJECT", "record_project_expense", fx.bill(p, "B-2", 1000, {{"fund", "self-insurance"}}));
    const auto budget = fx.call("get_project_budget", {{"id", p["id"]}});
    CHECK(budget["invoicedCents"] == 583335);
    CHECK(budget["holdbackHeldCents"] == 33334);
    CHECK(budget["unpaidCents"] == 550001);
    CHECK(budget["paidCents"] == 0);
    REQUIRE(budget["bySource"].size() == 2);
    for (const auto& s : budget["bySource"]) {
        if (s["fund"] == "operating") {
            CHECK(s["amountCents"] == 1000000);
            CHECK(s["invoicedCents"] == 583335);
        } else {
            CHECK(s["fund"] == "contingency");
            CHECK(s["invoicedCents"] == 0);
        }
    }
    CHECK(fx.call("list_projects")["data"][0]["invoicedCents"] == 583335);
}

TEST_CASE("the self-insurance fund pays a claim's project from its own account, under the board's authorisation") {
    ProjectsFixture fx;
    const auto policy = fx.call("create_insurance_policy",
                                {{"kind", "property"}, {"insurer", "Assurances Mont-Royal"}, {"policyNumber", "CP-1"}, {"startDate", "2026-01-01"},
                                 {"endDate", "2027-01-01"},
                                 {"coverages", json::array({json{{"peril", "Dégât d'eau"}, {"amountCents", 1000000000}, {"deductibleCents", 2500000}}})}});
    const auto claim = fx.call("record_insurance_claim", {{"policyId", policy["id"]}, {"occurredOn", "2026-10-01"}, {"reportedOn", "2026-10-02"},
                                                          {"peril", "dégât d'eau"}, {"description", "Infiltration par le toit"}, {"location", "common"},
                                                          {"estimatedLossCents", 4000000}});
    const auto p = fx.approved_project({{"title", "Réparation après infiltration"}, {"category", "major-repair"}, {"componentIds", json::array()},
                                        {"budgetCents", 2500000}, {"fundingSources", sources("self-insurance", 2500000)},
                                        {"insuranceClaimId", claim["id"]}});
    CHECK(p["insuranceClaimId"] == claim["id"]);
    fx.opening("self-insurance", 3000000);
    const auto auth = fx.call("authorize_fund_use", {{"fund", "self-insurance"}, {"amountCents", 2500000}, {"use", "deductible"},
                                                     {"insuranceClaimId", claim["id"]}, {"purpose", "Franchise"}, {"resolutionId", fx.board()},
                                                     {"projectId", p["id"]}});
    json a = {{"projectId", p["id"]}, {"contractorId", fx.contractor["id"]}, {"invoiceNumber", "DE-1"}, {"invoiceDate", "2026-11-21"},
              {"amountCents", 1200000}, {"fund", "self-insurance"}};
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_project_expense", a);
    a["fundUseAuthorizationId"] = auth["id"];
    const auto inv = fx.call("record_project_expense", a);
    CHECK(inv["invoice"]["holdbackCents"] == 0);
    CHECK(fx.balance("self-insurance", "5100") == 1200000);
    CHECK(fx.balance("contingency", "5100") == 0);
}

TEST_CASE("a fiscal year closed is closed to a project's invoices too") {
    ProjectsFixture fx;
    const auto bank = fx.account("contingency", "1010");
    fx.call("record_journal_entry", {{"date", "2025-06-01"}, {"description", "Solde d'ouverture"}, {"source", "opening"},
                                     {"lines", json::array({json{{"accountId", bank}, {"debitCents", 6000000}},
                                                            json{{"accountId", fx.account("contingency", "3000")}, {"creditCents", 6000000}}})}});
    const auto trial = fx.call("reconcile_bank_account", {{"accountId", bank}, {"statementDate", "2025-12-31"}, {"statementBalanceCents", 6000000}});
    json ids = json::array();
    for (const auto& e : trial["unclearedEntries"]) ids.push_back(e["entryId"]);
    fx.call("reconcile_bank_account", {{"accountId", bank}, {"statementDate", "2025-12-31"}, {"statementBalanceCents", 6000000},
                                       {"clearedEntryIds", ids}, {"finalize", true}});
    fx.call("close_fiscal_year", {{"fiscalYear", 2025}});
    const auto p = fx.started_project();
    const auto auth = fx.authorization(p, 5000000);
    CHECK_REFUSED(fx, "PERIOD_LOCKED", "record_project_expense",
                  fx.bill(p, "B-1", 1000000, {{"invoiceDate", "2025-12-15"}, {"fundUseAuthorizationId", auth["id"]}}));
    CHECK(fx.call("record_project_expense", fx.bill(p, "B-1", 1000000, {{"fundUseAuthorizationId", auth["id"]}}))["invoice"]["amountCents"] == 1000000);
}

TEST_CASE("invoices only on an approved, in-progress or completed project; cancelling one in progress needs its invoices paid") {
    ProjectsFixture fx;
    const auto proposed = fx.project({{"fundingSources", sources("operating", 5000000)}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_project_expense",
                  (json{{"projectId", proposed["id"]}, {"contractorId", fx.roofer["id"]}, {"invoiceNumber", "B-0"}, {"invoiceDate", "2026-11-20"},
                        {"amountCents", 1000}, {"fund", "operating"}}));
    fx.opening("contingency", 6000000);
    const auto p = fx.started_project({{"title", "Drains"}});
    const auto auth = fx.authorization(p, 5000000);
    const auto inv = fx.call("record_project_expense", fx.bill(p, "B-1", 1000000, {{"holdbackCents", 0}, {"fundUseAuthorizationId", auth["id"]}}));
    CHECK(inv["invoice"]["holdbackExpenseId"].is_null());
    const auto unpaid = fx.error("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Entrepreneur en faillite"}});
    CHECK(unpaid.code() == "PROJECT_HAS_UNPAID_INVOICES");
    CHECK_REFUSED(fx, "PROJECT_HAS_UNPAID_INVOICES", "update_project",
                  (json{{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Entrepreneur en faillite"}}));
    fx.call("record_expense", {{"id", inv["invoice"]["expenseId"]}, {"paidOn", "2026-11-21"}});
    CHECK(fx.call("get_project_budget", {{"id", p["id"]}})["paidCents"] == 1000000);
    const auto cancelled = fx.call("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Entrepreneur en faillite"}});
    CHECK(cancelled["status"] == "cancelled");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_project_expense",
                  fx.bill(p, "B-2", 1000, {{"fundUseAuthorizationId", auth["id"]}}));
}

TEST_CASE("acceptance of the work: not before it started nor in the future; its warranties and the holdback's day run from it") {
    ProjectsFixture fx;
    const auto awarded = fx.awarded_project({{"title", "Pas commencé"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "complete_project", (json{{"id", awarded["id"]}, {"completedOn", "2026-11-20"}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "complete_project", (json{{"id", ghost}, {"completedOn", "2026-11-20"}}));
    const auto p = fx.started_project();  // begun 2026-11-16
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "complete_project", (json{{"id", p["id"]}, {"completedOn", "2026-11-15"}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "complete_project", (json{{"id", p["id"]}, {"completedOn", "2026-11-22"}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "complete_project", (json{{"id", p["id"]}, {"completedOn", "2026-11-20"}, {"documentId", ghost}}));
    const auto report = fx.document();
    const auto done = fx.call("complete_project", {{"id", p["id"]}, {"completedOn", "2026-11-20"}, {"deficiencies", deficiencies()},
                                                   {"documentId", report}});
    CHECK(done["status"] == "completed");
    CHECK(done["completedOn"] == "2026-11-20");
    CHECK(done["warrantyEndsOn"] == "2027-11-20");            // poor workmanship, 1 year (art. 2120)
    CHECK(done["structuralWarrantyEndsOn"] == "2031-11-20");  // loss of the work, 5 years (art. 2118)
    CHECK(done["holdbackReleasableOn"] == "2026-12-20");      // 30 days (art. 2727)
    REQUIRE(done["deficiencies"].size() == 2);
    CHECK(done["deficiencies"][0]["description"] == "Solin à recoller près du drain");
    CHECK(done["deficiencies"][0]["dueOn"] == "2026-12-15");
    CHECK(done["deficiencies"][0]["resolvedOn"].is_null());
    CHECK(done["deficiencies"][0]["waived"] == false);
    CHECK(done["deficiencies"][1]["dueOn"].is_null());
    CHECK(fx.has_event(p["id"], "project.completed"));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "complete_project", (json{{"id", p["id"]}, {"completedOn", "2026-11-21"}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_project_update", (json{{"projectId", p["id"]}, {"date", "2026-11-21"}, {"progressPercent", 100}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_project", (json{{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Trop tard"}}));
    // Still open to its tasks and invoices; its deficiencies are corrected one by one.
    CHECK(fx.call("add_project_task", {{"projectId", p["id"]}, {"title", "Inspection finale"}})["status"] == "todo");
    fx.opening("contingency", 1000000);
    const auto auth = fx.authorization(p, 1000000);
    CHECK(fx.call("record_project_expense", fx.bill(p, "B-1", 500000, {{"fundUseAuthorizationId", auth["id"]}}))["invoice"]["holdbackCents"] == 50000);
    auto fixed = fx.call("update_project", {{"id", p["id"]}, {"resolveDeficiencies", json::array({json{{"deficiencyId", done["deficiencies"][0]["id"]},
                                                                                                     {"resolvedOn", "2026-11-20"}}})}});
    CHECK(fixed["deficiencies"][0]["resolvedOn"] == "2026-11-20");
    CHECK(fixed["deficiencies"][1]["resolvedOn"].is_null());
    fixed = fx.call("update_project", {{"id", p["id"]}, {"resolveDeficiencies", json::array({json{{"deficiencyId", done["deficiencies"][1]["id"]}}})}});
    CHECK(fixed["deficiencies"][1]["resolvedOn"] == "2026-11-21");  // today by default
    CHECK(fixed["status"] == "completed");
}

TEST_CASE("closing: deficiencies corrected or waived, invoices paid, the holdback released from its day; the logbook gets the work and renews the components") {
    ProjectsFixture fx;
    fx.opening("contingency", 6000000);
    const auto flashing = fx.component({{"name", "Solins"}, {"installedYear", 2005}, {"expectedLifeYears", 30}});
    const auto p = fx.started_project({{"componentIds", json::array({fx.membrane["id"], flashing["id"]})}});
    fx.call("update_logbook_component", {{"id", fx.membrane["id"]}, {"replacementYear", 2029}});
    const auto auth = fx.authorization(p, 5000000);
    const auto b1 = fx.call("record_project_expense", fx.bill(p, "B-1", 3000000, {{"fundUseAuthorizationId", auth["id"]}, {"paidOn", "2026-11-21"}}))["invoice"];
    const auto b2 = fx.call("record_project_expense", fx.bill(p, "B-2", 1000000, {{"fundUseAuthorizationId", auth["id"]}}))["invoice"];
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "close_project", (json{{"id", p["id"]}}));  // in progress
    const auto report = fx.document();
    const auto done = fx.call("complete_project", {{"id", p["id"]}, {"completedOn", "2026-11-20"}, {"deficiencies", deficiencies()},
                                                   {"documentId", report}});
    const auto d0 = done["deficiencies"][0]["id"];
    const auto d1 = done["deficiencies"][1]["id"];
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "close_project", (json{{"id", ghost}}));
    CHECK_REFUSED(fx, "PROJECT_HAS_OPEN_DEFICIENCIES", "close_project", (json{{"id", p["id"]}}));
    fx.call("update_project", {{"id", p["id"]}, {"resolveDeficiencies", json::array({json{{"deficiencyId", d0}, {"resolvedOn", "2026-11-21"}}})}});
    CHECK_REFUSED(fx, "PROJECT_HAS_OPEN_DEFICIENCIES", "close_project", (json{{"id", p["id"]}}));
    const json waived = {{"id", p["id"]}, {"waiveDeficiencyIds", json::array({d1})}, {"waiverNote", "Débris ramassés par le concierge"}};
    // B-2 is not paid (its holdback aside).
    const auto unpaid = fx.error("close_project", waived);
    CHECK(unpaid.code() == "PROJECT_HAS_UNPAID_INVOICES");
    CHECK_REFUSED(fx, "PROJECT_HAS_UNPAID_INVOICES", "close_project", waived);
    fx.call("record_expense", {{"id", b2["expenseId"]}, {"paidOn", "2026-11-21"}});
    // The holdback waits 30 days after acceptance.
    auto release = waived;
    release["releaseHoldback"] = true;
    const auto early = fx.error("close_project", release);
    CHECK(early.code() == "HOLDBACK_NOT_RELEASABLE");
    CHECK(text_of(early, "holdbackReleasableOn") == "2026-12-20");
    CHECK_REFUSED(fx, "HOLDBACK_NOT_RELEASABLE", "close_project", release);
    auto stray = waived;
    stray["componentUpdates"] = json::array({json{{"componentId", ghost}, {"condition", "fair"}}});
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "close_project", stray);
    fx.clock.set(*syndic::parse_iso_instant("2026-12-19T15:00:00Z"));
    CHECK_REFUSED(fx, "HOLDBACK_NOT_RELEASABLE", "close_project", release);
    fx.clock.set(*syndic::parse_iso_instant("2026-12-21T15:00:00Z"));
    release["componentUpdates"] = json::array({json{{"componentId", flashing["id"]}, {"expectedLifeYears", 35}}});
    const auto closed = fx.call("close_project", release);
    CHECK(closed["status"] == "closed");
    CHECK(closed["closedOn"] == "2026-12-21");
    CHECK(closed["holdbackCents"] == 0);
    REQUIRE(closed["deficiencies"].size() == 2);
    CHECK(closed["deficiencies"][0]["resolvedOn"] == "2026-11-21");
    CHECK(closed["deficiencies"][0]["waived"] == false);
    CHECK(closed["deficiencies"][1]["waived"] == true);
    CHECK(fx.has_event(p["id"], "project.closed"));
    // The holdback paid from the fund: nothing owed, the whole invoiced paid.
    const auto budget = fx.call("get_project_budget", {{"id", p["id"]}});
    CHECK(budget["invoicedCents"] == 4000000);
    CHECK(budget["paidCents"] == 4000000);
    CHECK(budget["holdbackHeldCents"] == 0);
    CHECK(budget["holdbackReleasedCents"] == 400000);
    CHECK(budget["unpaidCents"] == 0);
    CHECK(fx.expense_status(b1["holdbackExpenseId"]) == "paid");
    CHECK(fx.expense_status(b2["holdbackExpenseId"]) == "paid");
    CHECK(fx.balance("contingency", "2100") == 0);
    CHECK(fx.balance("contingency", "1010") == 2000000);
    CHECK(fx.balance("contingency", "5100") == 4000000);
    const auto invoices = fx.call("get_project", {{"id", p["id"]}})["invoices"];
    for (const auto& i : invoices) CHECK(i["holdbackReleased"] == true);
    // Its authorisation is used: what it did not pay is no longer reserved in the fund.
    CHECK(fx.authorization_status(auth["id"]) == "used");
    const auto position = fx.call("get_fund_position");
    CHECK(position["funds"]["contingency"]["authorizedUnusedCents"] == 0);
    CHECK(position["funds"]["contingency"]["availableCents"] == 2000000);
    // Each component: a replacement in its history, the cost shared equally, and renewed the year of acceptance.
    for (const auto& c : {fx.membrane, flashing}) {
        const auto history = fx.call("list_maintenance_history", {{"componentId", c["id"]}});
        REQUIRE(history["pagination"]["total"] == 1);
        const auto record = history["data"][0];
        CHECK(record["kind"] == "replacement");
        CHECK(record["costCents"] == 2000000);
        CHECK(record["projectId"] == p["id"]);
        CHECK(record["contractorId"] == fx.roofer["id"]);
        CHECK(fx.has_event(record["id"], "maintenance.recorded"));
    }
    const auto membrane = fx.call("get_logbook_component", {{"id", fx.membrane["id"]}});
    CHECK(membrane["installedYear"] == 2026);
    CHECK(membrane["condition"] == "good");
    CHECK(membrane["replacementYearOverridden"] == false);
    CHECK(membrane["replacementYear"] == 2051);
    CHECK(membrane["expectedLifeYears"] == 25);
    const auto renewed = fx.call("get_logbook_component", {{"id", flashing["id"]}});
    CHECK(renewed["installedYear"] == 2026);
    CHECK(renewed["expectedLifeYears"] == 35);
    CHECK(renewed["replacementYear"] == 2061);
    CHECK(renewed["condition"] == "good");
    // Closed for good: no task, invoice nor second closing; its components are free to go.
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "close_project", (json{{"id", p["id"]}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_project_task", (json{{"projectId", p["id"]}, {"title", "Encore"}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_project_expense",
                  fx.bill(p, "B-9", 1000, {{"fundUseAuthorizationId", auth["id"]}, {"invoiceDate", "2026-12-21"}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_project", (json{{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "x"}}));
    CHECK(fx.call("delete_logbook_component", {{"id", fx.membrane["id"]}})["deletedAt"].is_string());
}

TEST_CASE("closed without releasing the holdback: a major repair is major work, the components renewed the year of acceptance; the holdback paid later") {
    ProjectsFixture fx;
    fx.opening("operating", 3000000);
    const auto drains = fx.component({{"name", "Drains de toit"}, {"category", "roofing"}, {"installedYear", 1998}, {"expectedLifeYears", 40}});
    const auto p = fx.started_project({{"category", "major-repair"}, {"componentIds", json::array({fx.membrane["id"], drains["id"]})},
                                       {"budgetCents", 2000000}, {"fundingSources", sources("operating", 2000000)}},
                                      {{"amountCents", 1500000}});
    const auto inv = fx.call("record_project_expense", fx.bill(p, "B-1", 1500000, {{"fund", "operating"}, {"paidOn", "2026-11-21"}}))["invoice"];
    CHECK(inv["holdbackCents"] == 150000);
    CHECK(fx.balance("operating", "5300") == 1500000);
    fx.call("complete_project", {{"id", p["id"]}, {"completedOn", "2026-11-20"}});
    // Closed in the new year: the components are still of the year of acceptance.
    fx.clock.set(*syndic::parse_iso_instant("2027-01-05T15:00:00Z"));
    const auto closed = fx.call("close_project", {{"id", p["id"]}, {"componentUpdates", json::array({json{{"componentId", drains["id"]},
                                                                                                        {"installedYear", 2025}, {"condition", "fair"}}})}});
    CHECK(closed["status"] == "closed");
    CHECK(closed["closedOn"] == "2027-01-05");
    CHECK(closed["holdbackCents"] == 150000);  // still held
    const auto history = fx.call("list_maintenance_history", {{"componentId", fx.membrane["id"]}});
    REQUIRE(history["data"].size() == 1);
    CHECK(history["data"][0]["kind"] == "major-work");
    CHECK(history["data"][0]["costCents"] == 750000);
    CHECK(history["data"][0]["projectId"] == p["id"]);
    CHECK(fx.call("list_maintenance_history", {{"kind", "major-work"}})["pagination"]["total"] == 2);
    const auto membrane = fx.call("get_logbook_component", {{"id", fx.membrane["id"]}});
    CHECK(membrane["installedYear"] == 2026);
    CHECK(membrane["condition"] == "good");
    const auto overridden = fx.call("get_logbook_component", {{"id", drains["id"]}});
    CHECK(overridden["installedYear"] == 2025);
    CHECK(overridden["condition"] == "fair");
    auto budget = fx.call("get_project_budget", {{"id", p["id"]}});
    CHECK(budget["holdbackHeldCents"] == 150000);
    CHECK(budget["paidCents"] == 1350000);
    // The holdback paid through accounting.
    fx.call("record_expense", {{"id", inv["holdbackExpenseId"]}, {"paidOn", "2027-01-05"}});
    budget = fx.call("get_project_budget", {{"id", p["id"]}});
    CHECK(budget["holdbackHeldCents"] == 0);
    CHECK(budget["holdbackReleasedCents"] == 150000);
    CHECK(budget["paidCents"] == 1500000);
    CHECK(fx.call("get_project", {{"id", p["id"]}})["invoices"][0]["holdbackReleased"] == true);
    CHECK(fx.balance("operating", "1010") == 1500000);
}

}  // TEST_SUITE

}  // namespace projects_money_test

// Link L17 with the projects: the logbook's plan counts an open project at what the contingency fund
// has still to pay for it, in the year it is to end, and its components next a life after it.
namespace projects_plan_test {
using namespace syndic::test;
TEST_SUITE("projects-money") {
TEST_CASE("the 25-year plan counts an open project at its contingency funding not yet invoiced, and renews its components") {
    ProjectsFixture fx;
    fx.opening("contingency", 6000000);
    const auto before = fx.call("get_major_works_plan", {{"years", 30}});
    bool planned_alone = false;
    for (const auto& w : before["years"][0]["works"]) planned_alone = planned_alone || w["componentId"] == fx.membrane["id"];
    CHECK(planned_alone);  // its life ends this year: planned this year on its own
    const auto p = fx.started_project();
    const auto auth = fx.authorization(p, 5000000);
    fx.call("record_project_expense", fx.bill(p, "B-1", 1000000, {{"fundUseAuthorizationId", auth["id"]}}));
    const auto plan = fx.call("get_major_works_plan", {{"years", 30}});
    const auto& first = plan["years"][0];
    REQUIRE(first["projects"].size() == 1);
    CHECK(first["projects"][0]["projectId"] == p["id"]);
    CHECK(first["projects"][0]["plannedCents"] == 4000000);  // 5,000,000 funded, 1,000,000 invoiced
    int renewals = 0;
    for (const auto& y : plan["years"])
        for (const auto& w : y["works"])
            if (w["componentId"] == fx.membrane["id"]) {
                ++renewals;
                CHECK(y["year"].get<int>() == 2026 + fx.membrane["expectedLifeYears"].get<int>());  // a life after the project
            }
    CHECK(renewals == 1);
}
}  // TEST_SUITE
}  // namespace projects_plan_test
