// Assessment notices (catalogue §4.5): the year's notices drafted from the adopted budget, one per
// lot, adding up to the budget to the cent; issued as charges of the ledger (the lot's credit taking
// them), as PDFs kept and e-mailed. The fixture's clock makes today 2026-11-21 in Montreal; the
// budget of 2027 is consulted and adopted on 2026-12-15.
#include "declaration/declaration_fixture.hpp"

#include "modules/assessment_notices/notice_pdf.hpp"
#include "storage/settings.hpp"

#include <SQLiteCpp/Statement.h>

#include <filesystem>
#include <stdlib.h>  // mkdtemp
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace assessment_notices_test {

using namespace syndic::test;

namespace {

struct Notices : DeclarationFixture {
    std::string data_dir;
    json u101 = unit("101", 40);
    json p1 = unit("P-1", 5, "parking", {{"linkedUnits", {u101["id"]}}});
    json u102 = unit("102", 30);
    json u201 = unit("201", 25);  // no co-owner
    json emilie, luc;

    Notices() {
        char pattern[] = "/tmp/syndic-notices-test-XXXXXX";
        data_dir = mkdtemp(pattern);
        db->set_data_dir(data_dir);
        emilie = co_owner(u101["id"], "Émilie", "Bélanger", {{"email", "emilie@example.ca"}});
        luc = co_owner(u102["id"], "Luc", "Côté", {{"language", "en"}, {"email", "luc@example.ca"}});
    }
    ~Notices() {
        std::error_code ignored;
        std::filesystem::remove_all(data_dir, ignored);
    }
    Notices(const Notices&) = delete;
    Notices& operator=(const Notices&) = delete;

    std::string account(const std::string& fund, const std::string& code) {
        const auto all = call("list_accounts", {{"fund", fund}, {"pageSize", 200}});
        for (const auto& a : all["data"])
            if (a["code"] == code) return a["id"];
        return "";
    }
    // The 2027 budget, consulted at a held AGA and adopted by the board: operating 12,000.01,
    // contingency 600.01.
    json adopted_budget() {
        const auto b = call("create_budget", {{"fiscalYear", 2027}});
        call("update_budget", {{"id", b["id"]}, {"lines", {{{"fund", "operating"}, {"kind", "expense"}, {"label", "Assurances"}, {"amountCents", 1200001},
                                                             {"accountId", account("operating", "5100")}},
                                                            {{"fund", "contingency"}, {"kind", "contribution"}, {"label", "Prévoyance"}, {"amountCents", 60001}}}}});
        const auto m = call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"},
                                               {"location", "Salle"}, {"agenda", json::array({"Consultation sur le budget 2027"})}});
        call("send_meeting_notice", {{"meetingId", m["id"]}});
        const auto before = clock.now();
        clock.set(*syndic::parse_iso_instant("2026-12-15T21:00:00-05:00"));
        call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
        clock.set(before);
        call("record_budget_consultation", {{"id", b["id"]}, {"meetingId", m["id"]}});
        return call("adopt_budget", {{"id", b["id"]}, {"resolutionId", resolution_id("simple", "passed", "board")}});
    }
};

}  // namespace

TEST_SUITE("assessment-notices") {

TEST_CASE("notices drafted from the adopted budget only, one per lot, adding up to the budget to the cent") {
    Notices fx;
    CHECK_REFUSED(fx, "BUDGET_NOT_ADOPTED", "generate_assessment_notices", (json{{"fiscalYear", 2027}}));
    fx.adopted_budget();
    // The statements of the running year carry the next year's forecast (art. 1087).
    const auto statements = fx.call("get_financial_statements");
    CHECK(statements["budgetForecast"]["fiscalYear"] == 2027);
    CHECK(statements["budgetForecast"]["contributionsCents"]["total"] == 1260002);
    CHECK(statements["budgetComparison"].is_null());  // no budget for 2026
    const auto g = fx.call("generate_assessment_notices", {{"fiscalYear", 2027}});
    CHECK(g["generated"] == 3);  // 101 with its parking, 102, 201
    CHECK(g["totalCents"] == 1260002);
    CHECK(g["installments"] == 12);
    CHECK(g["dueDates"][0] == "2027-01-01");
    CHECK(g["dueDates"][11] == "2027-12-01");
    REQUIRE(g["warnings"].size() == 1);  // 201 has no co-owner
    const auto all = fx.call("list_assessment_notices", {{"fiscalYear", 2027}});
    std::int64_t sum = 0;
    for (const auto& n : all["data"]) {
        sum += n["totalCents"].get<std::int64_t>();
        std::int64_t by_instalments = 0;
        for (const auto& i : n["installments"]) by_instalments += i["amountCents"].get<std::int64_t>();
        CHECK(by_instalments == n["totalCents"]);
    }
    CHECK(sum == 1260002);
    const auto first = all["data"][0];
    CHECK(first["number"] == "2027-001");
    CHECK(first["unitNumber"] == "101");
    CHECK(first["lines"].size() == 4);  // 101 and P-1, operating and contingency each
    CHECK(first["addressees"][0]["name"] == "Émilie Bélanger");
    CHECK(first["status"] == "draft");
    // Regenerating replaces the drafts.
    CHECK(fx.call("generate_assessment_notices", {{"fiscalYear", 2027}, {"installments", 4}})["replacedDrafts"] == 3);
    CHECK(fx.call("list_assessment_notices", {{"fiscalYear", 2027}})["pagination"]["total"] == 3);
    // No year closes while notices of it are drafts (asked of this module by the accounts).
    fx.clock.set(*syndic::parse_iso_instant("2028-01-15T15:00:00Z"));
    CHECK_REFUSED(fx, "DRAFT_NOTICES_REMAIN", "close_fiscal_year", (json{{"fiscalYear", 2027}}));
}

TEST_CASE("issuing posts a charge per instalment and unit, files a PDF per language and e-mails it; the lot's credit pays at once") {
    Notices fx;
    fx.adopted_budget();
    fx.call("record_payment", {{"unitId", fx.u101["id"]}, {"amountCents", 50000}, {"receivedOn", "2026-11-20"}, {"method", "cheque"}});
    fx.call("generate_assessment_notices", {{"fiscalYear", 2027}});
    const auto issued = fx.call("issue_assessment_notices", {{"fiscalYear", 2027}});
    CHECK(issued["issued"] == 3);
    CHECK(issued["charges"] == 48);  // 12 instalments × 4 units
    CHECK(issued["queued"] == 2);
    CHECK(issued["withoutAddressee"].size() == 1);
    const auto notices = fx.call("list_assessment_notices", {{"fiscalYear", 2027}, {"status", "issued"}});
    const auto& n101 = notices["data"][0];
    CHECK(n101["documentIds"].size() == 1);
    CHECK(n101["installments"][0]["chargeIds"].size() == 2);  // 101 and its parking
    // The 500.00 paid before the notice took the first instalments (credit applied on their days).
    CHECK(n101["paidCents"] == 50000);
    const auto n102 = notices["data"][1];
    CHECK(n102["language"] == "en");
    // Issued notices are left alone; a second issue of them is refused.
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "issue_assessment_notices", (json{{"ids", {n101["id"]}}}));
    CHECK(fx.call("generate_assessment_notices", {{"fiscalYear", 2027}})["generated"] == 0);
    // The ledger: receivables of the whole year, posted on each due date.
    CHECK(fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}, {"asOf", "2027-12-31"}})["closingBalanceCents"] == n102["totalCents"]);
    CHECK(fx.call("get_owner_statement", {{"unitId", fx.u102["id"]}})["closingBalanceCents"] == 0);  // nothing posted yet today
    // The e-mail carries the PDF.
    SQLite::Statement q(fx.db->sql(), "SELECT recipient, subject, attachments FROM outbox WHERE related_type = 'assessment-notice' ORDER BY recipient");
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == "emilie@example.ca");
    CHECK(q.getColumn(1).getString().find("Avis de cotisation 2027-001") == 0);
    CHECK(json::parse(q.getColumn(2).getString()) == json::array({n101["documentIds"][0]}));
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(1).getString().find("Notice of assessment") == 0);
    CHECK_REFUSED(fx, "ASSESSMENT_NOTICE_NOT_FOUND", "get_assessment_notice", (json{{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "ASSESSMENT_NOTICE_NOT_FOUND", "get_assessment_notice", (json{{"id", n101["id"]}}));
}

TEST_CASE("a notice says how to pay: the syndicate's paymentInstructions line by line, else to ask; and the notice number to quote") {
    Notices fx;
    fx.adopted_budget();
    fx.call("generate_assessment_notices", {{"fiscalYear", 2027}});
    fx.call("issue_assessment_notices", {{"fiscalYear", 2027}});
    const auto notice = fx.call("list_assessment_notices", {{"fiscalYear", 2027}})["data"][0];
    const auto text_of = [](const syndic::PdfDocument& doc) {
        std::string all;
        for (const auto& b : doc.blocks) all += b.text + "\n";
        return all;
    };
    const auto asked = text_of(syndic::assessment_notices::notice_document(notice, "Syndicat", "", "fr", "2026-12-16", "5 %", ""));
    CHECK(asked.find("Comment payer") != std::string::npos);
    CHECK(asked.find("Demandez au conseil d’administration ou au gestionnaire comment payer.") != std::string::npos);
    CHECK(asked.find("Indiquez l’avis nº 2027-001 avec chaque paiement.") != std::string::npos);
    fx.call("update_settings", {{"paymentInstructions", "Virement : Caisse Desjardins, transit 81592, folio 0471234\r\nChèque à l’ordre du syndicat"}});
    const auto instructions = syndic::get_setting(*fx.db, fx.syndicate, "paymentInstructions").get<std::string>();
    const auto doc = syndic::assessment_notices::notice_document(notice, "Syndicat", "", "en", "2026-12-16", "5%", instructions);
    const auto told = text_of(doc);
    CHECK(told.find("How to pay") != std::string::npos);
    CHECK(told.find("transit 81592, folio 0471234") != std::string::npos);
    CHECK(told.find("Chèque à l’ordre du syndicat") != std::string::npos);
    CHECK(told.find("\r") == std::string::npos);  // a line as written, without the Windows line end
    CHECK(told.find("Quote notice no. 2027-001 with each payment.") != std::string::npos);
    CHECK(told.find("Ask the syndicate") == std::string::npos);
}

TEST_CASE("what is issued is what holds on the day: addressees then, shares unchanged, nothing already due; per unit on regenerating") {
    Notices fx;
    fx.adopted_budget();
    // Instalments outside the fiscal year are refused.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_assessment_notices", (json{{"fiscalYear", 2027}, {"firstDueOn", "2027-12-01"}}));
    fx.call("generate_assessment_notices", {{"fiscalYear", 2027}});
    // 102 changes hands before the issue: the new co-owner gets the notice, not the seller.
    fx.call("delete_co_owner", {{"id", fx.luc["id"]}});
    const auto buyer = fx.co_owner(fx.u102["id"], "Paul", "Nouveau", {{"email", "paul@example.ca"}});
    // A notice whose instalments have come due is not issued: nobody is late for what no notice said.
    fx.clock.set(*syndic::parse_iso_instant("2027-01-02T15:00:00Z"));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "issue_assessment_notices", (json{{"fiscalYear", 2027}}));
    fx.clock.set(*syndic::parse_iso_instant("2026-12-20T15:00:00Z"));
    // The fractions changed since the draft: draft again.
    fx.call("update_unit", {{"id", fx.u102["id"]}, {"fractionPercent", 30.4}});
    fx.call("update_unit", {{"id", fx.u201["id"]}, {"fractionPercent", 24.6}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "issue_assessment_notices", (json{{"fiscalYear", 2027}}));
    fx.call("generate_assessment_notices", {{"fiscalYear", 2027}});
    const auto issued = fx.call("issue_assessment_notices", {{"fiscalYear", 2027}});
    CHECK(issued["issued"] == 3);
    const auto n102 = fx.call("list_assessment_notices", {{"unitId", fx.u102["id"]}})["data"][0];
    CHECK(n102["addressees"].size() == 1);
    CHECK(n102["addressees"][0]["coOwnerId"] == buyer["id"]);
    CHECK(n102["language"] == "fr");
    SQLite::Statement events(fx.db->sql(), "SELECT count(*) FROM events WHERE type = 'charge.created'");
    events.executeStep();
    CHECK(events.getColumn(0).getInt64() == issued["charges"]);
    // P-1 gets a co-owner of its own: it is a lot of its own, but already billed on 101's issued
    // notice, so regenerating bills it no second time.
    fx.co_owner(fx.p1["id"], "Pierre", "Garage");
    const auto again = fx.call("generate_assessment_notices", {{"fiscalYear", 2027}});
    CHECK(again["generated"] == 0);
    CHECK(again["warnings"].size() >= 1);
}

}  // TEST_SUITE

}  // namespace assessment_notices_test
