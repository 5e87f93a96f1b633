// Budgets and funds (catalogue §4.6): a budget drafted, its contributions and checks, consulted at a
// held general meeting (art. 1072) and adopted by the board, the contingency minimum (5 % or the
// fund study, art. 1071), the self-insurance formula (r. 4.1 s. 2), the per-unit preview shared by
// relative value with largest-remainder cents, fund studies and their preparers, authorisations
// to use the protected funds and what the ledger then lets out. The fixture's clock makes today
// 2026-11-21 in Montreal; decisions are taken on 2026-12-15.
#include "declaration/declaration_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace funds_budgets_test {

using namespace syndic::test;

namespace {

struct Funds : DeclarationFixture {
    json u101 = unit("101", 33.333333);
    json u102 = unit("102", 33.333333);
    json u201 = unit("201", 33.333334);
    std::map<std::pair<std::string, std::string>, std::string> accounts;

    Funds() {
        co_owner(u101["id"], "Émilie", "Bélanger");
        co_owner(u102["id"], "Luc", "Côté");
        co_owner(u201["id"], "Sophie", "Lavoie");
        const auto all = call("list_accounts", {{"pageSize", 200}});
        for (const auto& a : all["data"]) accounts[{a["fund"].get<std::string>(), a["code"].get<std::string>()}] = a["id"].get<std::string>();
    }
    std::string account(const std::string& fund, const std::string& code) { return accounts.at({fund, code}); }

    json line(const std::string& fund, const std::string& kind, const std::string& label, std::int64_t cents, const std::string& code = "") {
        json l = {{"fund", fund}, {"kind", kind}, {"label", label}, {"amountCents", cents}};
        if (!code.empty()) l["accountId"] = account(fund, code);
        return l;
    }
    // 2027: insurance 10,000.00 and maintenance 5,000.01, other income 1,000.00 (operating 14,000.01);
    // contingency 700.01 (5 % rounded up); self-insurance as given.
    json budget(std::int64_t self_insurance = 0, std::int64_t contingency = 70001) {
        const auto b = call("create_budget", {{"fiscalYear", 2027}});
        json lines = json::array({line("operating", "expense", "Assurances", 1000000, "5100"),
                                  line("operating", "expense", "Entretien", 500001, "5300"),
                                  line("operating", "income", "Réservations", 100000, "4300"),
                                  line("contingency", "contribution", "Fonds de prévoyance", contingency)});
        if (self_insurance) lines.push_back(line("self-insurance", "contribution", "Fonds d'autoassurance", self_insurance));
        return call("update_budget", {{"id", b["id"]}, {"lines", lines}});
    }
    // A held annual meeting (on `day`, 2026-12-15 by default) whose agenda names the budget of `year`.
    json consulted_meeting(const std::string& year = "2027", const std::string& day = "2026-12-15") {
        const auto m = call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", day + "T19:00:00-05:00"},
                                               {"location", "Salle communautaire"},
                                               {"agenda", json::array({"Ouverture", "Consultation sur le budget " + year})}});
        call("send_meeting_notice", {{"meetingId", m["id"]}});
        const auto before = clock.now();
        clock.set(*syndic::parse_iso_instant(day + "T21:00:00-05:00"));
        call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
        clock.set(before);
        return m;
    }
};

}  // namespace

TEST_SUITE("funds-budgets") {

TEST_CASE("a budget's contributions by fund and its checks: 5 % of the operating contribution, rounded up, until a study") {
    Funds fx;
    const auto b = fx.budget();
    CHECK(b["status"] == "draft");
    CHECK(b["contributionsCents"]["operating"] == 1400001);
    CHECK(b["contributionsCents"]["contingency"] == 70001);
    CHECK(b["contributionsCents"]["total"] == 1470002);
    CHECK(b["checks"]["contingencyMinimumCents"] == 70001);  // 70,000.05 up to the cent
    CHECK(b["checks"]["contingencyBasis"] == "five-percent");
    CHECK(b["checks"]["contingencyOk"] == true);
    CHECK(b["checks"]["selfInsuranceMinimumCents"] == 0);  // no policy: F is 0
    CHECK_REFUSED(fx, "DUPLICATE_BUDGET", "create_budget", (json{{"fiscalYear", 2027}}));
    // An account of another fund, an expense line on an income account, a contribution line of the operating fund.
    CHECK(fx.error("update_budget", {{"id", b["id"]}, {"lines", {{{"fund", "operating"}, {"kind", "expense"}, {"label", "x"}, {"amountCents", 1},
                                                                  {"accountId", fx.account("contingency", "5100")}}}}})
              .code() == "VALIDATION_FAILED");
    CHECK(fx.error("update_budget", {{"id", b["id"]}, {"lines", {fx.line("operating", "expense", "x", 1, "4300")}}}).code() == "VALIDATION_FAILED");
    CHECK(fx.error("update_budget", {{"id", b["id"]}, {"lines", {fx.line("operating", "contribution", "x", 1)}}}).code() == "VALIDATION_FAILED");
    // The preview shares each fund by relative value; the cents add up to the budget exactly.
    const auto preview = fx.call("get_budget", {{"id", b["id"]}, {"previewUnits", true}})["preview"];
    CHECK(preview["instalmentsPerYear"] == 12);
    REQUIRE(preview["units"].size() == 3);
    std::int64_t operating = 0, contingency = 0;
    for (const auto& u : preview["units"]) {
        operating += u["byFund"]["operating"].get<std::int64_t>();
        contingency += u["byFund"]["contingency"].get<std::int64_t>();
        std::int64_t monthly = 0;
        for (const auto& i : u["instalments"]["operating"]) monthly += i.get<std::int64_t>();
        CHECK(monthly == u["byFund"]["operating"]);
    }
    CHECK(operating == 1400001);
    CHECK(contingency == 70001);
    // 1,400,001 by thirds of 33.333333 %, 33.333333 % and 33.333334 %: 466,666.99, 466,666.99 and
    // 466,667.33 rounded down leave 2 cents, which go to the two largest remainders.
    for (const auto& u : preview["units"]) CHECK(u["byFund"]["operating"] == 466667);
}

TEST_CASE("consultation at a held general meeting (art. 1072), then adoption by the board's passed resolution") {
    Funds fx;
    const auto b = fx.budget();
    const auto board = fx.resolution_id("simple", "passed", "board");
    CHECK_REFUSED(fx, "BUDGET_NOT_CONSULTED", "adopt_budget", (json{{"id", b["id"]}, {"resolutionId", board}}));
    // A board meeting is not the consultation; a meeting not held is not yet.
    const auto board_meeting = fx.meeting("board");
    CHECK_REFUSED(fx, "NOT_A_GENERAL_MEETING", "record_budget_consultation", (json{{"id", b["id"]}, {"meetingId", board_meeting["id"]}}));
    const auto pending = fx.meeting("aga");
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "record_budget_consultation", (json{{"id", b["id"]}, {"meetingId", pending["id"]}}));
    const auto m = fx.consulted_meeting();
    const auto consulted = fx.call("record_budget_consultation", {{"id", b["id"]}, {"meetingId", m["id"]}});
    CHECK(consulted["status"] == "consulted");
    CHECK(consulted["consultation"]["consultedOn"] == "2026-12-15");
    // A general meeting's resolution is not the board's decision.
    const auto general = fx.resolution_id();
    const auto rejected = fx.resolution_id("simple", "rejected", "board");
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "adopt_budget", (json{{"id", b["id"]}, {"resolutionId", general}}));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "adopt_budget", (json{{"id", b["id"]}, {"resolutionId", rejected}}));
    const auto adopted = fx.call("adopt_budget", {{"id", b["id"]}, {"resolutionId", board}});
    CHECK(adopted["status"] == "adopted");
    CHECK(adopted["adoptedOn"] == "2026-12-15");
    CHECK(adopted["resolutionId"] == board);
    CHECK_REFUSED(fx, "BUDGET_LOCKED", "update_budget", (json{{"id", b["id"]}, {"notes", "x"}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "adopt_budget", (json{{"id", b["id"]}, {"resolutionId", board}}));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_budget_consultation", (json{{"id", b["id"]}, {"meetingId", m["id"]}}));
    // One decision adopts one budget.
    const auto next = fx.call("create_budget", {{"fiscalYear", 2028}, {"copyFrom", "previous-budget"}});
    const auto m2028 = fx.consulted_meeting("2028");
    fx.call("record_budget_consultation", {{"id", next["id"]}, {"meetingId", m2028["id"]}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "adopt_budget", (json{{"id", next["id"]}, {"resolutionId", board}}));
    // A board decision taken before the meeting was consulted does not fix the contributions (art. 1072).
    const auto later = fx.call("create_budget", {{"fiscalYear", 2029}, {"copyFrom", "previous-budget"}});
    const auto m2029 = fx.consulted_meeting("2029", "2026-12-16");
    fx.call("record_budget_consultation", {{"id", later["id"]}, {"meetingId", m2029["id"]}});
    const auto e = fx.error("adopt_budget", {{"id", later["id"]}, {"resolutionId", fx.resolution_id("simple", "passed", "board")}});
    CHECK(e.code() == "BUDGET_NOT_CONSULTED");
    CHECK(text_of(e, "consultedOn") == "2026-12-16");
    CHECK(fx.call("list_budgets", {{"status", "adopted"}})["pagination"]["total"] == 1);
    CHECK(fx.call_as(fx.other_admin, "list_budgets")["data"].empty());
}

TEST_CASE("the consultation is on this budget: its year on the agenda, held after its lines last changed") {
    Funds fx;
    const auto b = fx.budget();
    const auto other_year = fx.consulted_meeting("2028");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_budget_consultation", (json{{"id", b["id"]}, {"meetingId", other_year["id"]}}));
    const auto m = fx.consulted_meeting();
    fx.call("record_budget_consultation", {{"id", b["id"]}, {"meetingId", m["id"]}});
    // Changed after the meeting (the clock after it): a draft again, and that meeting no longer consults it.
    fx.clock.set(*syndic::parse_iso_instant("2026-12-17T10:00:00-05:00"));
    json lines = fx.call("get_budget", {{"id", b["id"]}})["lines"];
    for (auto& l : lines) {
        l.erase("id");
        if (l["accountId"].is_null()) l.erase("accountId");
        if (l["commonPortionId"].is_null()) l.erase("commonPortionId");
    }
    lines[0]["amountCents"] = 9000000;
    CHECK(fx.call("update_budget", {{"id", b["id"]}, {"lines", lines}})["status"] == "draft");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_budget_consultation", (json{{"id", b["id"]}, {"meetingId", m["id"]}}));
}

TEST_CASE("contributions are what the notices bill: a restricted portion's costs apart, other income never below zero") {
    Funds fx;
    const auto garage = fx.call("set_common_portion", {{"name", "Garage"}, {"kind", "restricted"}, {"initial", true},
                                                       {"majorCostsTo", "users"}, {"unitIds", {fx.u101["id"], fx.u102["id"]}}});
    const auto b = fx.call("create_budget", {{"fiscalYear", 2027}});
    auto garage_line = fx.line("operating", "expense", "Entretien du garage", 500000, "5300");
    garage_line["commonPortionId"] = garage["id"];
    const auto u = fx.call("update_budget", {{"id", b["id"]}, {"lines", {fx.line("operating", "expense", "Assurances", 100000, "5100"),
                                                                         fx.line("operating", "income", "Réservations", 300000, "4300"), garage_line}}});
    CHECK(u["contributionsCents"]["operating"] == 500000);  // the garage alone: the general income exceeds the general expenses
    bool warned = false;
    for (const auto& w : u["warnings"]) warned = warned || w.get<std::string>().find("exceeds its expenses") != std::string::npos;
    CHECK(warned);
    const auto preview = fx.call("get_budget", {{"id", b["id"]}, {"previewUnits", true}})["preview"];
    std::int64_t billed = 0;
    for (const auto& unit : preview["units"]) billed += unit["yearlyCents"].get<std::int64_t>();
    CHECK(billed == 500000);
    CHECK(preview["units"][2]["yearlyCents"] == 0);  // 201 uses no garage
    CHECK(u["checks"]["contingencyMinimumCents"] == 25000);
}

TEST_CASE("a consulted budget that changes is a draft again, unless the change is minor and noted") {
    Funds fx;
    const auto b = fx.budget();
    const auto m = fx.consulted_meeting();
    fx.call("record_budget_consultation", {{"id", b["id"]}, {"meetingId", m["id"]}});
    json lines = b["lines"];
    for (auto& l : lines) {
        l.erase("id");
        if (l["accountId"].is_null()) l.erase("accountId");
        if (l["commonPortionId"].is_null()) l.erase("commonPortionId");
    }
    lines[1]["amountCents"] = 500100;
    CHECK(fx.error("update_budget", {{"id", b["id"]}, {"lines", lines}, {"minorChange", true}}).code() == "VALIDATION_FAILED");
    const auto minor = fx.call("update_budget", {{"id", b["id"]}, {"lines", lines}, {"minorChange", true}, {"notes", "Entretien arrondi"}});
    CHECK(minor["status"] == "consulted");
    lines[0]["amountCents"] = 1200000;
    const auto changed = fx.call("update_budget", {{"id", b["id"]}, {"lines", lines}});
    CHECK(changed["status"] == "draft");
    CHECK(changed["consultation"].is_null());
    CHECK(changed["warnings"].back().get<std::string>().find("draft again") != std::string::npos);
}

TEST_CASE("fund studies: a qualified and independent preparer, recommendations by year, the next due in 5 years") {
    Funds fx;
    const auto doc = fx.call("attach_document", {{"recordType", "unit"}, {"recordId", fx.u101["id"]}, {"contentBase64", "ZXR1ZGU="},
                                                 {"fileName", "etude.txt"}, {"mimeType", "text/plain"}, {"kind", "fund-study"},
                                                 {"title", "Étude du fonds de prévoyance 2026"}});
    const json study = {{"receivedOn", "2026-10-01"},
                        {"preparer", {{"name", "Julie Fortin"}, {"firm", "Fortin ingénierie"}, {"order", "OIQ"}, {"memberNumber", "5012345"}}},
                        {"independenceAttested", true},
                        {"recommendations", {{{"fiscalYear", 2027}, {"contributionCents", 150000}}, {{"fiscalYear", 2028}, {"contributionCents", 160000}}}},
                        {"documentId", doc["id"]}};
    auto wrong = study;
    wrong["preparer"]["order"] = "OACIQ";
    CHECK_REFUSED(fx, "PREPARER_NOT_QUALIFIED", "record_fund_study", wrong);
    wrong = study;
    wrong["independenceAttested"] = false;
    CHECK_REFUSED(fx, "PREPARER_NOT_INDEPENDENT", "record_fund_study", wrong);
    wrong = study;
    wrong["preparer"]["name"] = "Emilie  BELANGER";
    CHECK_REFUSED(fx, "PREPARER_NOT_INDEPENDENT", "record_fund_study", wrong);  // a co-owner, however written
    // Nor of the manager's firm.
    fx.call("set_management_mandate", {{"managerName", "Paul Riverin"}, {"firm", "Gestion Riverin inc."}, {"startOn", "2026-01-01"},
                                       {"delegatedPowers", json::array()}, {"resolutionId", fx.resolution_id("simple", "passed", "board")}});
    wrong = study;
    wrong["preparer"]["firm"] = "Gestion Riverin inc.";
    CHECK_REFUSED(fx, "PREPARER_NOT_INDEPENDENT", "record_fund_study", wrong);
    const auto recorded = fx.call("record_fund_study", study);
    CHECK(recorded["nextDueOn"] == "2031-10-01");
    CHECK(recorded["recommendations"].size() == 2);
    // The budget now answers to the study: 700.01 is below 1,500.00.
    const auto b = fx.budget();
    CHECK(b["checks"]["contingencyBasis"] == "fund-study");
    CHECK(b["checks"]["contingencyMinimumCents"] == 150000);
    CHECK(b["checks"]["contingencyOk"] == false);
    const auto m = fx.consulted_meeting();
    fx.call("record_budget_consultation", {{"id", b["id"]}, {"meetingId", m["id"]}});
    const auto board = fx.resolution_id("simple", "passed", "board");
    const auto refused = fx.error("adopt_budget", {{"id", b["id"]}, {"resolutionId", board}});
    CHECK(refused.code() == "CONTINGENCY_BELOW_MINIMUM");
    CHECK(figure(refused, "minimumCents") == 150000);
    const auto adopted = fx.call("adopt_budget", {{"id", b["id"]}, {"resolutionId", board},
                                                  {"contingencyJustification", "Travaux de toiture reportés à 2028"}});
    CHECK(adopted["status"] == "adopted");
    CHECK(adopted["warnings"].size() >= 1);
    const auto position = fx.call("get_fund_position", {{"asOf", "2027-01-15"}});
    CHECK(position["funds"]["contingency"]["recommendationCents"] == 150000);
    CHECK(position["funds"]["contingency"]["adoptedContributionCents"] == 70001);
    CHECK(position["funds"]["contingency"]["shortfallCents"] == 79999);
    CHECK(position["funds"]["contingency"]["nextStudyDueOn"] == "2031-10-01");
}

TEST_CASE("the self-insurance minimum: F from the policies in force on the year's first day, earthquake and flood excluded") {
    Funds fx;
    fx.call("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "P-1"}, {"startDate", "2026-06-01"},
                                        {"endDate", "2027-06-01"},
                                        {"coverages", {{{"peril", "Tous risques"}, {"amountCents", 1000000000}, {"deductibleCents", 2500000}},
                                                       {{"peril", "Tremblement de terre"}, {"amountCents", 1000000000}, {"deductibleCents", 9000000}},
                                                       {{"peril", "Flood"}, {"amountCents", 1000000000}, {"deductibleCents", 8000000}}}}});
    auto r = fx.call("get_self_insurance_requirement", {{"fiscalYear", 2027}});
    CHECK(r["deductibleCents"] == 2500000);
    CHECK(r["deductibleSource"]["peril"] == "Tous risques");
    CHECK(r["formula"] == "half");
    CHECK(r["requiredCents"] == 1250000);
    // F/2 < capitalisation < F: F less the capitalisation; at F or more, nothing.
    r = fx.call("get_self_insurance_requirement", {{"fiscalYear", 2027}, {"hypotheticalBalanceCents", 2000000}});
    CHECK(r["formula"] == "difference");
    CHECK(r["requiredCents"] == 500000);
    CHECK(fx.call("get_self_insurance_requirement", {{"fiscalYear", 2027}, {"hypotheticalBalanceCents", 2500000}})["requiredCents"] == 0);
    // F/2 compared exactly: F 10.01, a capitalisation of 5.01 is above F/2, so F less it: 5.00.
    r = fx.call("get_self_insurance_requirement", {{"hypotheticalDeductibleCents", 1001}, {"hypotheticalBalanceCents", 501}});
    CHECK(r["formula"] == "difference");
    CHECK(r["requiredCents"] == 500);
    // The $100,000 floor: a formula above what keeps the capitalisation at $100,000 is lowered to it.
    r = fx.call("get_self_insurance_requirement", {{"hypotheticalDeductibleCents", 30000000}, {"hypotheticalBalanceCents", 9000000}});
    CHECK(r["formulaCents"] == 15000000);
    CHECK(r["requiredCents"] == 1000000);
    CHECK(r["capitalisationFloorApplied"] == true);
    // Adoption below the minimum is refused with the figure.
    const auto b = fx.budget(1000000);
    CHECK(b["checks"]["selfInsuranceMinimumCents"] == 1250000);
    const auto m = fx.consulted_meeting();
    fx.call("record_budget_consultation", {{"id", b["id"]}, {"meetingId", m["id"]}});
    const auto e = fx.error("adopt_budget", {{"id", b["id"]}, {"resolutionId", fx.resolution_id("simple", "passed", "board")}});
    CHECK(e.code() == "SELF_INSURANCE_BELOW_MINIMUM");
    CHECK(figure(e, "requiredCents") == 1250000);
}

TEST_CASE("authorize_fund_use: the right use of the right fund, within what it holds; the ledger lets out no more") {
    Funds fx;
    const auto board = fx.resolution_id("simple", "passed", "board");
    // The contingency fund holds 50,000.00 (an opening balance).
    fx.call("record_journal_entry", {{"date", "2026-01-01"}, {"description", "Solde d'ouverture"}, {"source", "opening"},
                                     {"lines", {{{"accountId", fx.account("contingency", "1010")}, {"debitCents", 5000000}},
                                                {{"accountId", fx.account("contingency", "3000")}, {"creditCents", 5000000}}}}});
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "authorize_fund_use",
                  (json{{"fund", "contingency"}, {"amountCents", 100000}, {"use", "deductible"}, {"purpose", "Franchise"}, {"resolutionId", board}}));
    CHECK_REFUSED(fx, "FUND_INSUFFICIENT", "authorize_fund_use",
                  (json{{"fund", "contingency"}, {"amountCents", 5000001}, {"use", "replacement"}, {"purpose", "Toiture"}, {"resolutionId", board}}));
    const auto general = fx.resolution_id();
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "authorize_fund_use",
                  (json{{"fund", "contingency"}, {"amountCents", 100}, {"use", "replacement"}, {"purpose", "Toiture"}, {"resolutionId", general}}));
    const auto roof = fx.call("authorize_fund_use", {{"fund", "contingency"}, {"amountCents", 3000000}, {"use", "replacement"},
                                                     {"purpose", "Réfection de la toiture"}, {"resolutionId", board}});
    CHECK(roof["status"] == "authorized");
    CHECK(roof["remainingCents"] == 3000000);
    // What is left to authorise: 20,000.00.
    CHECK_REFUSED(fx, "FUND_INSUFFICIENT", "authorize_fund_use",
                  (json{{"fund", "contingency"}, {"amountCents", 2000001}, {"use", "major-repair"}, {"purpose", "Balcons"}, {"resolutionId", board}}));
    const auto position = fx.call("get_fund_position");
    CHECK(position["funds"]["contingency"]["authorizedUnusedCents"] == 3000000);
    CHECK(position["funds"]["contingency"]["availableCents"] == 2000000);
    // The ledger lets out up to the authorisation, no more.
    const json spend = {{"date", "2026-11-20"}, {"description", "Toiture, premier versement"}, {"source", "adjustment"},
                        {"fundUseAuthorizationId", roof["id"]},
                        {"lines", {{{"accountId", fx.account("contingency", "5100")}, {"debitCents", 3000001}},
                                   {{"accountId", fx.account("contingency", "2100")}, {"creditCents", 3000001}}}}};
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_journal_entry", spend);
    auto ok = spend;
    ok["lines"][0]["debitCents"] = 3000000;
    ok["lines"][1]["creditCents"] = 3000000;
    fx.call("record_journal_entry", ok);
    CHECK(fx.call("get_fund_position")["funds"]["contingency"]["authorizedUnusedCents"] == 0);
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_journal_entry", ok);  // used up
    CHECK_REFUSED(fx, "FUND_USE_AUTHORIZATION_NOT_FOUND", "record_journal_entry",
                  (json{{"date", "2026-11-20"}, {"description", "x"}, {"source", "adjustment"}, {"fundUseAuthorizationId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"},
                        {"lines", ok["lines"]}}));
}

TEST_CASE("get_budget_variance: each line against the ledger, and the year elapsed") {
    Funds fx;
    const auto b = fx.call("create_budget", {{"fiscalYear", 2026}});
    fx.call("update_budget", {{"id", b["id"]}, {"lines", {fx.line("operating", "expense", "Entretien", 1000000, "5300")}}});
    fx.call("record_journal_entry", {{"date", "2026-03-01"}, {"description", "Entretien"}, {"source", "adjustment"},
                                     {"lines", {{{"accountId", fx.account("operating", "5300")}, {"debitCents", 250000}},
                                                {{"accountId", fx.account("operating", "2100")}, {"creditCents", 250000}}}}});
    auto v = fx.call("get_budget_variance", {{"budgetId", b["id"]}, {"asOf", "2026-07-02"}});
    CHECK(v["lines"][0]["actualCents"] == 250000);
    CHECK(v["lines"][0]["varianceCents"] == -750000);
    CHECK(v["lines"][0]["percentUsed"] == 25);
    CHECK(v["percentOfYearElapsed"] == 50.1);  // 183 of 365 days
    // Two lines on one account share its actual by their budgets: counted once.
    fx.call("update_budget", {{"id", b["id"]}, {"lines", {fx.line("operating", "expense", "Entretien", 750000, "5300"),
                                                          fx.line("operating", "expense", "Peinture", 250000, "5300")}}});
    v = fx.call("get_budget_variance", {{"budgetId", b["id"]}, {"asOf", "2026-07-02"}});
    CHECK(v["lines"][0]["actualCents"] == 187500);
    CHECK(v["lines"][1]["actualCents"] == 62500);
    CHECK(v["totals"]["operating"]["expenseActualCents"] == 250000);
    CHECK_REFUSED(fx, "BUDGET_NOT_FOUND", "get_budget_variance", (json{{"budgetId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}));
}

}  // TEST_SUITE

}  // namespace funds_budgets_test
