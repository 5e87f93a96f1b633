// The logbook's status and revisions, and the 25-year plan (catalogue §4.7; art. 1070.2, Reg.
// 991-2025): established by a professional's initial preparation, revised by an independent member
// of the OIQ, OAQ, OTPQ or OEAQ every 5 years (10 for a small, horizontal or low building), updated
// by the board each year with the reasons for the works not done; the plan of major works against
// the contingency fund, inflated, with its shortfalls. The fixture's clock makes today 2026-11-21.
#include "logbook/logbook_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <filesystem>
#include <fstream>
#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace logbook_revisions_test {

using namespace syndic::test;

namespace {

json revision(const std::string& kind, const std::string& on, json extra = json::object()) {
    json a = {{"kind", kind}, {"performedOn", on}};
    a.update(extra);
    return a;
}

}  // namespace

TEST_SUITE("logbook-revisions") {

TEST_CASE("the logbook is established by a qualified, independent professional, then revised and updated") {
    LogbookFixture fx;
    auto status = fx.call("get_logbook");
    CHECK(status["compliance"]["established"] == false);
    CHECK(status["preparedOn"].is_null());
    CHECK(status["deadline"] == "2028-08-14");
    CHECK(status["revisionIntervalYears"] == 10);  // 3 apartments, the parking space aside
    const auto report = fx.document();
    const json ok = {{"preparer", fx.preparer()}, {"independenceAttested", true}, {"documentId", report}};
    CHECK_REFUSED(fx, "LOGBOOK_NOT_ESTABLISHED", "record_logbook_revision", revision("annual-update", "2026-11-01"));
    CHECK_REFUSED(fx, "LOGBOOK_NOT_ESTABLISHED", "record_logbook_revision", revision("professional-revision", "2026-11-01", ok));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_logbook_revision", revision("initial-preparation", "2026-06-01", {{"preparer", fx.preparer()}, {"independenceAttested", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_logbook_revision", revision("initial-preparation", "2026-06-01", {{"documentId", report}, {"independenceAttested", true}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "record_logbook_revision",
                  revision("initial-preparation", "2026-06-01", {{"preparer", fx.preparer()}, {"independenceAttested", true}, {"documentId", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}}));
    auto cpa = fx.preparer();
    cpa["order"] = "CPA";  // a fund study's preparer may be; the logbook's may not
    CHECK_REFUSED(fx, "PREPARER_NOT_QUALIFIED", "record_logbook_revision",
                  revision("initial-preparation", "2026-06-01", {{"preparer", cpa}, {"independenceAttested", true}, {"documentId", report}}));
    CHECK_REFUSED(fx, "PREPARER_NOT_INDEPENDENT", "record_logbook_revision",
                  revision("initial-preparation", "2026-06-01", {{"preparer", fx.preparer()}, {"independenceAttested", false}, {"documentId", report}}));
    fx.co_owner(fx.u101["id"], "Luc", "Côté");
    CHECK_REFUSED(fx, "PREPARER_NOT_INDEPENDENT", "record_logbook_revision",
                  revision("initial-preparation", "2026-06-01", {{"preparer", fx.preparer("LUC COTE")}, {"independenceAttested", true}, {"documentId", report}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "record_logbook_revision", revision("initial-preparation", "2026-11-22", ok));
    const auto initial = fx.call("record_logbook_revision", revision("initial-preparation", "2026-06-01", ok));
    CHECK(initial["preparer"]["order"] == "OIQ");
    CHECK(fx.events_of(initial["id"]) == std::vector<std::string>{"logbook.revised"});
    status = initial["logbook"];
    CHECK(status["compliance"]["established"] == true);
    CHECK(status["preparedOn"] == "2026-06-01");
    CHECK(status["nextProfessionalRevisionDue"] == "2036-06-01");
    CHECK(status["nextAnnualUpdateDue"] == "2027-06-01");
    CHECK(status["documentId"] == report);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_logbook_revision", revision("initial-preparation", "2026-07-01", ok));
    CHECK_REFUSED(fx, "LOGBOOK_NOT_ESTABLISHED", "record_logbook_revision", revision("annual-update", "2026-05-01"));
    // A year on, the update is due.
    fx.clock.set(*syndic::parse_iso_instant("2027-06-02T15:00:00Z"));
    CHECK(fx.call("get_logbook")["compliance"]["annualUpdateDue"] == true);
    CHECK(fx.call("get_logbook")["compliance"]["revisionDue"] == false);
}

TEST_CASE("the revision interval is 5 years, or 10 for 8 private portions or fewer, a horizontal building or 3 storeys or fewer") {
    LogbookFixture fx;
    for (int n = 1; n <= 6; ++n) fx.unit("30" + std::to_string(n), 0);
    CHECK(fx.call("get_logbook")["revisionIntervalYears"] == 5);  // 9 apartments
    fx.call("update_declaration", {{"storeysAboveGround", 3}});
    CHECK(fx.call("get_logbook")["revisionIntervalYears"] == 10);
    fx.call("update_declaration", {{"storeysAboveGround", 6}});
    CHECK(fx.call("get_logbook")["revisionIntervalYears"] == 5);
    fx.call("update_declaration", {{"horizontal", true}});
    const auto status = fx.call("get_logbook");
    CHECK(status["revisionIntervalYears"] == 10);
    CHECK(status["revisionIntervalReason"].get<std::string>().find("horizontal") != std::string::npos);
}

TEST_CASE("the yearly update gives a reason for each work not done, and is written with the 25-year plan") {
    LogbookFixture fx;
    fx.call("record_logbook_revision", revision("initial-preparation", "2026-06-01",
                                                {{"preparer", fx.preparer()}, {"independenceAttested", true}, {"documentId", fx.document()}}));
    const auto roof = fx.component({{"installedYear", 1999}});  // its life ended in 2024
    const auto boiler = fx.component({{"name", "Chaudière"}, {"category", "heating-ventilation"}, {"installedYear", 2015}, {"expectedLifeYears", 30}});
    fx.call("set_maintenance_schedule", {{"componentId", boiler["id"]}, {"task", "Entretien annuel"}, {"frequencyMonths", 12}, {"lastDoneOn", "2025-09-01"}});
    const auto refused = fx.error("record_logbook_revision", revision("annual-update", "2026-11-15"));
    CHECK(refused.code() == "LOGBOOK_REASONS_MISSING");
    const auto listed = std::get<std::string>(refused.figures().at(0).second);
    CHECK(listed.find(roof["id"].get<std::string>()) != std::string::npos);
    CHECK(listed.find(boiler["id"].get<std::string>()) != std::string::npos);
    CHECK_REFUSED(fx, "LOGBOOK_REASONS_MISSING", "record_logbook_revision",
                  revision("annual-update", "2026-11-15", {{"worksNotDone", {{{"componentId", roof["id"]}, {"reason", "Soumissions en cours"}}}}}));
    const auto update = fx.call("record_logbook_revision",
                                revision("annual-update", "2026-11-15", {{"worksNotDone", {{{"componentId", roof["id"]}, {"reason", "Soumissions en cours"}},
                                                                                           {{"componentId", boiler["id"]}, {"reason", "Technicien reporté à décembre"}}}}}));
    REQUIRE(update["documentId"].is_string());
    CHECK(update["logbook"]["lastAnnualUpdateOn"] == "2026-11-15");
    CHECK(update["logbook"]["nextAnnualUpdateDue"] == "2027-11-15");
    SQLite::Statement q(fx.db->sql(), "SELECT path, kind, register_item FROM documents WHERE id = ?");
    q.bind(1, update["documentId"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(1).getString() == "logbook");
    CHECK(q.getColumn(2).getString() == "maintenance-logbook");
    std::ifstream pdf(std::filesystem::path(fx.data_dir) / q.getColumn(0).getString(), std::ios::binary);
    std::string head(4, '\0');
    pdf.read(head.data(), 4);
    CHECK(head == "%PDF");
}

TEST_CASE("the 25-year plan inflates today's costs to each year, plans past-life components first, and projects the contingency fund") {
    LogbookFixture fx;
    CHECK(fx.call("get_fund_position")["funds"]["contingency"]["majorWorksPlanTotalCents"].is_null());  // nothing in the logbook
    fx.component();  // 2001 + 25: replaced this year, 185,000 $
    fx.component({{"name", "Chaudière"}, {"category", "heating-ventilation"}, {"installedYear", 1995}, {"replacementCostCents", 4000000}});  // 2020: past
    fx.component({{"name", "Échangeur d'air"}, {"category", "heating-ventilation"}, {"installedYear", 2020}, {"expectedLifeYears", 10},
                  {"replacementCostCents", 100000}});  // 2030, 2040, 2050
    fx.component({{"name", "Clôture"}, {"category", "site"}, {"replacementCostCents", nullptr}});
    CHECK(fx.call("get_fund_position")["funds"]["contingency"]["majorWorksPlanTotalCents"].is_number());
    fx.opening("contingency", 20000000);
    fx.call("record_fund_study", {{"receivedOn", "2026-09-01"}, {"preparer", {{"name", "Marc Dubé"}, {"order", "OEAQ"}, {"memberNumber", "88"}}},
                                  {"independenceAttested", true}, {"documentId", fx.document()},
                                  {"recommendations", {{{"fiscalYear", 2026}, {"contributionCents", 1200000}}, {{"fiscalYear", 2027}, {"contributionCents", 1300000}}}}});
    const auto plan = fx.call("get_major_works_plan");
    CHECK(plan["fromYear"] == 2026);
    CHECK(plan["toYear"] == 2050);
    CHECK(plan["inflationPercent"] == 3.0);
    CHECK(plan["contributionBasis"] == "fund-study");
    CHECK(plan["openingBalanceCents"] == 20000000);
    const auto& years = plan["years"];
    REQUIRE(years.size() == 25);
    CHECK(years[0]["works"].size() == 2);
    CHECK(years[0]["plannedCents"] == 22500000);
    CHECK(years[0]["contributionCents"] == 200000);  // November and December of this year's 1,200,000
    CHECK(years[0]["closingBalanceCents"] == -2300000);
    bool boiler_overdue = false;
    for (const auto& w : years[0]["works"])
        if (w["name"] == "Chaudière") boiler_overdue = w["overdue"].get<bool>();
    CHECK(boiler_overdue);
    CHECK(years[1]["contributionCents"] == 1300000);
    CHECK(years[1]["closingBalanceCents"] == -1000000);
    CHECK(years[2]["contributionCents"] == 1300000);  // the study's last year carries on
    CHECK(years[2]["shortfall"] == false);
    CHECK(plan["shortfallYears"] == json::array({2026, 2027}));
    CHECK(years[4]["works"][0]["plannedCents"] == 112551);   // 100,000 × 1.03^4
    CHECK(years[14]["works"][0]["plannedCents"] == 151259);  // × 1.03^14
    CHECK(years[24]["works"][0]["plannedCents"] == 203279);  // × 1.03^24
    CHECK(plan["totalPlannedCents"] == 22500000 + 112551 + 151259 + 203279);
    // The funds show the plan's total beside the contingency fund (link L17).
    CHECK(fx.call("get_fund_position")["funds"]["contingency"]["majorWorksPlanTotalCents"] == plan["totalPlannedCents"]);
    REQUIRE(plan["unplanned"].size() == 1);
    CHECK(plan["unplanned"][0]["missing"] == json::array({"replacementCostCents"}));
    // The inflation given, and the setting.
    CHECK(fx.call("get_major_works_plan", {{"inflationPercent", 0}, {"years", 5}})["years"][4]["works"][0]["plannedCents"] == 100000);
    fx.call("update_settings", {{"constructionInflationPercent", 5}});
    CHECK(fx.call("get_major_works_plan", {{"years", 5}})["years"][4]["works"][0]["plannedCents"] == 121551);  // × 1.05^4
}

}  // TEST_SUITE

}  // namespace logbook_revisions_test
