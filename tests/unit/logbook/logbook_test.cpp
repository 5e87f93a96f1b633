// The maintenance logbook's inventory, schedules, work and inspections (catalogue §4.7): where a
// component is, its replacement year and remaining life against today, the maintenance due and
// overdue, the work that moves a schedule on and renews a replaced component, its cost booked from
// the right fund (art. 1071: never maintenance from the contingency fund), and inspections that
// reset a component's condition and life. The fixture's clock makes today 2026-11-21.
#include "logbook/logbook_fixture.hpp"

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace logbook_test {

using namespace syndic::test;

namespace {
const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
}

TEST_SUITE("logbook") {

TEST_CASE("a component is in a common portion or in units the syndicate maintains; its replacement year and remaining life follow today") {
    LogbookFixture fx;
    CHECK_REFUSED(fx, "COMPONENT_LOCATION_REQUIRED", "create_logbook_component", (json{{"name", "Toit"}, {"category", "roofing"}}));
    CHECK_REFUSED(fx, "COMMON_PORTION_NOT_FOUND", "create_logbook_component", (json{{"name", "Toit"}, {"category", "roofing"}, {"commonPortionId", ghost}}));
    CHECK_REFUSED(fx, "UNIT_NOT_FOUND", "create_logbook_component",
                  (json{{"name", "Échangeur"}, {"category", "heating-ventilation"}, {"privateUnitIds", {fx.u101["id"], ghost}}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "create_logbook_component", (json{{"name", "Toit"}, {"category", "roofing"}, {"commonPortionId", fx.roof["id"]}, {"documentIds", {ghost}}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_logbook_component",
                  (json{{"name", "Toit"}, {"category", "roofing"}, {"commonPortionId", fx.roof["id"]}, {"installedYear", 2027}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_logbook_component",
                  (json{{"name", "Toit"}, {"category", "roofing"}, {"commonPortionId", fx.roof["id"]}, {"replacementYear", 2025}}));
    const auto c = fx.component();
    CHECK(c["replacementYear"] == 2026);
    CHECK(c["remainingLifeYears"] == 0);
    CHECK(c["replacementYearOverridden"] == false);
    CHECK(c["condition"] == "unknown");
    CHECK(fx.events_of(c["id"]) == std::vector<std::string>{"logbook_component.created"});
    const auto moved = fx.call("update_logbook_component", {{"id", c["id"]}, {"replacementYear", 2029}, {"condition", "fair"}});
    CHECK(moved["replacementYear"] == 2029);
    CHECK(moved["remainingLifeYears"] == 3);
    CHECK(moved["replacementYearOverridden"] == true);
    const auto back = fx.call("update_logbook_component", {{"id", c["id"]}, {"replacementYear", nullptr}});
    CHECK(back["replacementYear"] == 2026);
    // Taken out of its common portion without units to go to, it would be nowhere.
    CHECK_REFUSED(fx, "COMPONENT_LOCATION_REQUIRED", "update_logbook_component", (json{{"id", c["id"]}, {"commonPortionId", nullptr}}));
    const auto moved_to_units = fx.call("update_logbook_component", {{"id", c["id"]}, {"commonPortionId", nullptr}, {"privateUnitIds", {fx.u101["id"]}}});
    CHECK(moved_to_units["privateUnitIds"] == json::array({fx.u101["id"]}));
}

TEST_CASE("the inventory lists the next replacement first, by category, unit, year or words") {
    LogbookFixture fx;
    const auto roof = fx.component();
    const auto boiler = fx.component({{"name", "Chaudière"}, {"category", "heating-ventilation"}, {"installedYear", 2010}, {"expectedLifeYears", 30}});
    const auto fan = fx.component({{"name", "Échangeur d'air"}, {"category", "heating-ventilation"}, {"commonPortionId", nullptr},
                                   {"privateUnitIds", {fx.u102["id"]}}, {"installedYear", 2020}, {"expectedLifeYears", 15}});
    const auto bare = fx.component({{"name", "Clôture"}, {"category", "site"}, {"installedYear", nullptr}});
    auto names = [&](const json& args) {
        std::vector<std::string> out;
        const auto page = fx.call("list_logbook_components", args);  // kept: a loop over a temporary's member dangles
        for (const auto& c : page["data"]) out.push_back(c["name"]);
        return out;
    };
    CHECK(names(json::object()) == std::vector<std::string>{"Membrane de toiture", "Échangeur d'air", "Chaudière", "Clôture"});
    CHECK(names({{"category", "heating-ventilation"}}) == std::vector<std::string>{"Échangeur d'air", "Chaudière"});
    CHECK(names({{"unitId", fx.u102["id"]}}) == std::vector<std::string>{"Échangeur d'air"});
    CHECK(names({{"replacementBefore", 2035}}) == std::vector<std::string>{"Membrane de toiture"});
    CHECK(names({{"search", "ECHANGEUR"}}) == std::vector<std::string>{"Échangeur d'air"});
    CHECK(names({{"commonPortionId", fx.roof["id"]}, {"condition", "unknown"}}).size() == 3);
    (void)roof, (void)boiler, (void)fan, (void)bare;
}

TEST_CASE("a schedule is due its frequency after it was last done; what is due lists the overdue first") {
    LogbookFixture fx;
    const auto c = fx.component();
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "set_maintenance_schedule", (json{{"componentId", c["id"]}, {"task", "Inspection"}}));
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "set_maintenance_schedule", (json{{"componentId", ghost}, {"task", "Inspection"}, {"frequencyMonths", 12}}));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "set_maintenance_schedule",
                  (json{{"componentId", c["id"]}, {"task", "Inspection"}, {"frequencyMonths", 12}, {"responsibleContractorId", ghost}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "set_maintenance_schedule",
                  (json{{"componentId", c["id"]}, {"task", "Inspection"}, {"frequencyMonths", 12}, {"lastDoneOn", "2026-11-22"}}));
    // A month's end stays the month's end: January 31 + 1 month is February 28.
    const auto drains = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"task", "Nettoyage des drains"}, {"frequencyMonths", 1},
                                                             {"startOn", "2026-01-31"}});
    CHECK(drains["nextDueOn"] == "2026-02-28");
    CHECK(drains["status"] == "overdue");
    CHECK(fx.events_of(drains["id"]) == std::vector<std::string>{"maintenance_schedule.changed"});
    const auto yearly = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"task", "Inspection annuelle"}, {"frequencyMonths", 12},
                                                             {"lastDoneOn", "2025-12-10"}, {"legalBasis", "Code de sécurité"}});
    CHECK(yearly["nextDueOn"] == "2026-12-10");
    CHECK(yearly["status"] == "due");
    CHECK(yearly["daysUntilDue"] == 19);
    const auto later = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"task", "Réfection des solins"}, {"frequencyMonths", 60}});
    CHECK(later["status"] == "scheduled");
    const auto due = fx.call("list_maintenance_due");
    REQUIRE(due["data"].size() == 2);
    CHECK(due["data"][0]["id"] == drains["id"]);
    CHECK(due["data"][1]["id"] == yearly["id"]);
    CHECK(due["overdueCount"] == 1);
    CHECK(fx.call("list_maintenance_due", {{"legalOnly", true}})["data"].size() == 1);
    CHECK(fx.call("list_maintenance_due", {{"withinDays", 0}})["data"].size() == 1);
    CHECK(fx.call("list_maintenance_due", {{"withinDays", 2000}})["data"].size() == 3);
    // Another component's schedule is not this one's; a stopped one is due no more.
    const auto other = fx.component({{"name", "Chaudière"}, {"category", "heating-ventilation"}});
    CHECK_REFUSED(fx, "SCHEDULE_NOT_FOUND", "set_maintenance_schedule", (json{{"componentId", other["id"]}, {"scheduleId", drains["id"]}, {"active", false}}));
    const auto stopped = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"scheduleId", drains["id"]}, {"active", false}});
    CHECK(stopped["status"] == "stopped");
    CHECK(fx.call("list_maintenance_due")["overdueCount"] == 0);
    const auto faster = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"scheduleId", yearly["id"]}, {"frequencyMonths", 6}});
    CHECK(faster["nextDueOn"] == "2026-06-10");
    CHECK(faster["legalBasis"] == "Code de sécurité");  // what is not given stays
}

TEST_CASE("work done moves its schedule on; a replacement renews the component; an older entry leaves the schedule") {
    LogbookFixture fx;
    const auto c = fx.component({{"condition", "poor"}});
    const auto s = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"task", "Inspection"}, {"frequencyMonths", 12}, {"startOn", "2025-01-15"}});
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "record_maintenance",
                  (json{{"componentId", c["id"]}, {"performedOn", "2026-11-22"}, {"kind", "inspection"}, {"description", "Demain"}}));
    CHECK_REFUSED(fx, "SCHEDULE_NOT_FOUND", "record_maintenance",
                  (json{{"componentId", c["id"]}, {"scheduleId", ghost}, {"performedOn", "2026-11-20"}, {"kind", "inspection"}, {"description", "x"}}));
    const auto done = fx.call("record_maintenance", {{"componentId", c["id"]}, {"scheduleId", s["id"]}, {"performedOn", "2026-11-01"},
                                                     {"kind", "inspection"}, {"description", "Inspection de la membrane"}, {"conditionAfter", "poor"}});
    CHECK(done["componentName"] == "Membrane de toiture");
    CHECK(fx.events_of(done["id"]) == std::vector<std::string>{"maintenance.recorded"});
    auto got = fx.call("get_logbook_component", {{"id", c["id"]}});
    CHECK(got["schedules"][0]["lastDoneOn"] == "2026-11-01");
    CHECK(got["schedules"][0]["nextDueOn"] == "2027-11-01");
    fx.call("record_maintenance", {{"componentId", c["id"]}, {"scheduleId", s["id"]}, {"performedOn", "2026-03-01"}, {"kind", "inspection"},
                                   {"description", "Inscrite en retard"}});
    got = fx.call("get_logbook_component", {{"id", c["id"]}});
    CHECK(got["schedules"][0]["lastDoneOn"] == "2026-11-01");
    CHECK(got["recentMaintenance"].size() == 2);
    CHECK(got["recentMaintenance"][0]["performedOn"] == "2026-11-01");
    fx.call("record_maintenance", {{"componentId", c["id"]}, {"performedOn", "2026-11-15"}, {"kind", "replacement"}, {"description", "Nouvelle membrane"}});
    got = fx.call("get_logbook_component", {{"id", c["id"]}});
    CHECK(got["installedYear"] == 2026);
    CHECK(got["condition"] == "good");
    CHECK(got["replacementYear"] == 2051);
    const auto history = fx.call("list_maintenance_history", {{"componentId", c["id"]}, {"from", "2026-10-01"}});
    CHECK(history["pagination"]["total"] == 2);
    CHECK(history["data"][0]["kind"] == "replacement");
    CHECK(fx.call("list_maintenance_history", {{"kind", "inspection"}})["pagination"]["total"] == 2);
}

TEST_CASE("a cost is booked from its fund: maintenance never from the contingency fund, a replacement under an authorisation") {
    LogbookFixture fx;
    const auto c = fx.component();
    json work = {{"componentId", c["id"]}, {"performedOn", "2026-11-10"}, {"kind", "repair"}, {"description", "Réparation d'une fuite"},
                 {"contractorId", fx.contractor["id"]}, {"costCents", 85000}, {"fund", "operating"}, {"invoiceNumber", "TL-1001"}};
    auto no_invoice = work;
    no_invoice.erase("invoiceNumber");
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_maintenance", no_invoice);
    auto contingency = work;
    contingency["fund"] = "contingency";
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_maintenance", contingency);
    const auto repaired = fx.call("record_maintenance", work);
    REQUIRE(repaired["expenseId"].is_string());
    CHECK(fx.balance("operating", "5300") == 85000);
    CHECK(fx.balance("operating", "2100") == -85000);
    CHECK(fx.events_of(repaired["expenseId"]) == std::vector<std::string>{"expense.recorded"});
    CHECK_REFUSED(fx, "DUPLICATE_INVOICE", "record_maintenance", work);
    // A replacement from the contingency fund needs the board's authorisation, and pays within it.
    auto replacement = work;
    replacement.update({{"kind", "replacement"}, {"fund", "contingency"}, {"invoiceNumber", "TL-1002"}, {"costCents", 1500000}});
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "record_maintenance", replacement);
    fx.opening("contingency", 5000000);
    const auto board = fx.resolution_id("simple", "passed", "board");
    const auto roof = fx.call("authorize_fund_use", {{"fund", "contingency"}, {"amountCents", 1000000}, {"use", "replacement"},
                                                     {"purpose", "Membrane"}, {"resolutionId", board}});
    // The ledger's side says the same: an invoice for the repair is not the contingency fund's, authorised or not.
    const auto refused = fx.error("record_expense", {{"contractorId", fx.contractor["id"]}, {"invoiceNumber", "TL-1001b"}, {"invoiceDate", "2026-11-21"},
                                                     {"fund", "contingency"}, {"accountId", fx.account("contingency", "5100")}, {"amountCents", 1000},
                                                     {"maintenanceRecordId", repaired["id"]}, {"fundUseAuthorizationId", roof["id"]}});
    CHECK(refused.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(refused.field() == "/fund");
    replacement["fundUseAuthorizationId"] = roof["id"];
    replacement["performedOn"] = "2026-11-21";
    CHECK_REFUSED(fx, "FUND_USE_EXCEEDED", "record_maintenance", replacement);
    replacement["costCents"] = 1000000;
    replacement["paidOn"] = "2026-11-21";
    const auto replaced = fx.call("record_maintenance", replacement);
    CHECK(fx.balance("contingency", "5100") == 1000000);
    CHECK(fx.balance("contingency", "1010") == 4000000);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_expense", (json{{"id", replaced["expenseId"]}, {"paidOn", "2026-11-21"}}));
    SQLite::Statement q(fx.db->sql(), "SELECT maintenance_record_id, fund_use_authorization_id FROM expenses WHERE id = ?");
    q.bind(1, replaced["expenseId"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == replaced["id"].get<std::string>());
    CHECK(q.getColumn(1).getString() == roof["id"].get<std::string>());
}

TEST_CASE("an inspection sets each component's condition, replacement year and cost; an older one entered late does not") {
    LogbookFixture fx;
    const auto c = fx.component();
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "record_inspection",
                  (json{{"performedOn", "2026-10-01"}, {"inspector", {{"name", "Hélène Roy"}}}, {"scope", "general"},
                        {"findings", {{{"componentId", ghost}, {"condition", "poor"}}}}}));
    CHECK_REFUSED(fx, "INVALID_DATE_RANGE", "record_inspection",
                  (json{{"performedOn", "2026-12-01"}, {"inspector", {{"name", "Hélène Roy"}}}, {"scope", "general"},
                        {"findings", {{{"componentId", c["id"]}, {"condition", "poor"}}}}}));
    const auto i = fx.call("record_inspection", {{"performedOn", "2026-10-01"}, {"inspector", {{"name", "Hélène Roy"}, {"order", "OIQ"}}},
                                                 {"scope", "general"},
                                                 {"findings", {{{"componentId", c["id"]}, {"condition", "fair"}, {"remainingLifeYears", 4},
                                                                {"estimatedCostCents", 21000000}, {"recommendation", "Remplacer d'ici 2030"}}}}});
    CHECK(i["findings"][0]["componentName"] == "Membrane de toiture");
    CHECK(fx.events_of(i["id"]) == std::vector<std::string>{"inspection.recorded"});
    CHECK(fx.events_of(c["id"]) == std::vector<std::string>{"logbook_component.created", "logbook_component.updated"});
    auto got = fx.call("get_logbook_component", {{"id", c["id"]}});
    CHECK(got["condition"] == "fair");
    CHECK(got["replacementYear"] == 2030);
    CHECK(got["remainingLifeYears"] == 4);
    CHECK(got["replacementCostCents"] == 21000000);
    CHECK(got["lastInspectedOn"] == "2026-10-01");
    CHECK(got["inspectionFindings"][0]["recommendation"] == "Remplacer d'ici 2030");
    fx.call("record_inspection", {{"performedOn", "2025-05-01"}, {"inspector", {{"name", "Paul Ng"}}}, {"scope", "component"},
                                  {"findings", {{{"componentId", c["id"]}, {"condition", "critical"}, {"recommendedYear", 2027}}}}});
    got = fx.call("get_logbook_component", {{"id", c["id"]}});
    CHECK(got["condition"] == "fair");
    CHECK(got["replacementYear"] == 2030);
    CHECK(got["inspectionFindings"].size() == 2);
}

TEST_CASE("a component with an active schedule stays; archived, it is found by id but refused to writes") {
    LogbookFixture fx;
    const auto c = fx.component();
    const auto s = fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"task", "Inspection"}, {"frequencyMonths", 12}});
    CHECK_REFUSED(fx, "COMPONENT_IN_USE", "delete_logbook_component", (json{{"id", c["id"]}}));
    fx.call("set_maintenance_schedule", {{"componentId", c["id"]}, {"scheduleId", s["id"]}, {"active", false}});
    const auto archived = fx.call("delete_logbook_component", {{"id", c["id"]}});
    CHECK(archived["deletedAt"].is_string());
    CHECK(fx.call("get_logbook_component", {{"id", c["id"]}})["deletedAt"].is_string());
    CHECK(fx.call("list_logbook_components")["pagination"]["total"] == 0);
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "update_logbook_component", (json{{"id", c["id"]}, {"condition", "good"}}));
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "record_maintenance",
                  (json{{"componentId", c["id"]}, {"performedOn", "2026-11-20"}, {"kind", "routine"}, {"description", "x"}}));
    // Another syndicate's component is none.
    const auto theirs = fx.error_as(fx.other_admin, "get_logbook_component", {{"id", c["id"]}});
    CHECK(theirs.code() == "COMPONENT_NOT_FOUND");
}

}  // TEST_SUITE

}  // namespace logbook_test
