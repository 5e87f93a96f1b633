// Projects (catalogue §4.8): a project proposed with funding that adds up to its budget, the
// contingency fund only for a major repair or a replacement (art. 1071), the self-insurance fund
// only for an insurance claim (art. 1071.1); numbered P-<year>-<NNN>; its budget frozen once
// approved; cancelled, archived, listed active first; approved by the body and the majority its
// category needs (a board resolution, or a general meeting's absolute majority for an improvement,
// art. 1097), with a warning while the decision may be contested (90 days, art. 1103). The
// fixture's clock makes today 2026-11-21.
#include "projects/projects_fixture.hpp"

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace projects_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

json sources(const std::string& fund, std::int64_t cents) {
    return json::array({json{{"fund", fund}, {"amountCents", cents}}});
}

}  // namespace

TEST_SUITE("projects") {

TEST_CASE("a project is proposed, numbered by year, its funding adding up to its budget") {
    ProjectsFixture fx;
    const auto p = fx.project();
    CHECK(p["number"] == "P-2026-001");
    CHECK(p["status"] == "proposed");
    CHECK(p["category"] == "replacement");
    CHECK(p["componentIds"] == json::array({fx.membrane["id"]}));
    CHECK(p["commonPortionIds"] == json::array({fx.roof["id"]}));
    CHECK(p["budgetCents"] == 5000000);
    CHECK(p["fundingSources"] == sources("contingency", 5000000));
    CHECK(p["approval"].is_null());
    CHECK(p["contractorId"].is_null());
    CHECK(p["contractAmountCents"].is_null());
    CHECK(p["approvedChangesCents"] == 0);
    CHECK(p["actualStart"].is_null());
    CHECK(p["progressPercent"] == 0);
    CHECK(p["invoicedCents"] == 0);
    CHECK(p["paidCents"] == 0);
    CHECK(p["deficiencies"].empty());
    CHECK(fx.events_of(p["id"]) == std::vector<std::string>{"project.created"});
    // Several sources add up.
    const auto split = fx.project({{"title", "Drains de toit"}, {"budgetCents", 1500000},
                                   {"fundingSources", json::array({json{{"fund", "operating"}, {"amountCents", 500000}},
                                                                   json{{"fund", "contingency"}, {"amountCents", 1000000}}})}});
    CHECK(split["number"] == "P-2026-002");
    CHECK(split["fundingSources"].size() == 2);
    // A new year starts a new series.
    fx.clock.set(*syndic::parse_iso_instant("2027-01-05T15:00:00Z"));
    CHECK(fx.project()["number"] == "P-2027-001");
}

TEST_CASE("a project's funding, fund and references are checked before it is proposed") {
    ProjectsFixture fx;
    const auto mismatch = fx.error("create_project", {{"title", "Toit"}, {"category", "replacement"}, {"budgetCents", 5000000},
                                                      {"fundingSources", sources("contingency", 4000000)}});
    CHECK(mismatch.code() == "FUNDING_MISMATCH");
    CHECK(figure(mismatch, "fundingCents") == 4000000);
    CHECK(figure(mismatch, "budgetCents") == 5000000);
    CHECK_REFUSED(fx, "FUNDING_MISMATCH", "create_project",
                  (json{{"title", "Toit"}, {"category", "replacement"}, {"budgetCents", 5000000},
                        {"fundingSources", json::array({json{{"fund", "operating"}, {"amountCents", 3000000}},
                                                        json{{"fund", "contingency"}, {"amountCents", 2500000}}})}}));
    // Art. 1071: the contingency fund never pays maintenance, an improvement or a study.
    for (const auto* category : {"maintenance", "improvement", "study"})
        CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "create_project",
                      (json{{"title", "Travaux"}, {"category", category}, {"budgetCents", 100000}, {"fundingSources", sources("contingency", 100000)}}));
    CHECK(fx.project({{"category", "major-repair"}})["status"] == "proposed");
    // An emergency says what its works are, and only a major repair or a replacement draws on the contingency fund.
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_project",
                  (json{{"title", "Fuite"}, {"category", "emergency"}, {"budgetCents", 100000}, {"fundingSources", sources("operating", 100000)}}));
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "create_project",
                  (json{{"title", "Fuite"}, {"category", "emergency"}, {"emergencyWorks", "maintenance"}, {"budgetCents", 100000},
                        {"fundingSources", sources("contingency", 100000)}}));
    const auto emergency = fx.project({{"category", "emergency"}, {"emergencyWorks", "replacement"}});
    CHECK(emergency["emergencyWorks"] == "replacement");
    // Art. 1071.1: the self-insurance fund answers an insurance claim.
    CHECK_REFUSED(fx, "FUND_USE_NOT_ALLOWED", "create_project",
                  (json{{"title", "Dégât d'eau"}, {"category", "major-repair"}, {"budgetCents", 100000}, {"fundingSources", sources("self-insurance", 100000)}}));
    // Every record named exists.
    json base = {{"title", "Travaux"}, {"category", "replacement"}, {"budgetCents", 100000}, {"fundingSources", sources("operating", 100000)}};
    auto with = [&](json extra) {
        auto a = base;
        a.update(extra);
        return a;
    };
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "create_project", with({{"componentIds", json::array({fx.membrane["id"], ghost})}}));
    CHECK_REFUSED(fx, "COMMON_PORTION_NOT_FOUND", "create_project", with({{"commonPortionIds", json::array({ghost})}}));
    CHECK_REFUSED(fx, "REQUEST_NOT_FOUND", "create_project", with({{"requestId", ghost}}));
    CHECK_REFUSED(fx, "INSURANCE_CLAIM_NOT_FOUND", "create_project", with({{"insuranceClaimId", ghost}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_project", with({{"category", "renovation"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_project", with({{"fundingSources", json::array()}}));
}

TEST_CASE("a proposed project changes freely; approved, its budget and funding are locked; cancelled, it keeps its reason") {
    ProjectsFixture fx;
    const auto p = fx.project();
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "update_project", (json{{"id", ghost}, {"title", "Toit"}}));
    CHECK_REFUSED(fx, "FUNDING_MISMATCH", "update_project", (json{{"id", p["id"]}, {"budgetCents", 6000000}}));
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "update_project", (json{{"id", p["id"]}, {"componentIds", json::array({ghost})}}));
    auto u = fx.call("update_project", {{"id", p["id"]}, {"budgetCents", 6000000}, {"fundingSources", sources("contingency", 6000000)},
                                        {"title", "Réfection complète de la toiture"}, {"plannedEnd", nullptr}});
    CHECK(u["budgetCents"] == 6000000);
    CHECK(u["title"] == "Réfection complète de la toiture");
    CHECK(u["plannedEnd"].is_null());
    CHECK(u["plannedStart"] == "2026-11-15");  // what is not given stays
    CHECK(fx.events_of(p["id"]) == std::vector<std::string>{"project.created", "project.updated"});
    fx.approve(p);
    CHECK_REFUSED(fx, "PROJECT_LOCKED", "update_project", (json{{"id", p["id"]}, {"budgetCents", 7000000}, {"fundingSources", sources("contingency", 7000000)}}));
    CHECK_REFUSED(fx, "PROJECT_LOCKED", "update_project",
                  (json{{"id", p["id"]}, {"fundingSources", json::array({json{{"fund", "operating"}, {"amountCents", 1000000}},
                                                                        json{{"fund", "contingency"}, {"amountCents", 5000000}}})}}));
    u = fx.call("update_project", {{"id", p["id"]}, {"description", "Membrane, solins et drains"}, {"plannedStart", "2026-12-01"}});
    CHECK(u["description"] == "Membrane, solins et drains");
    CHECK(u["budgetCents"] == 6000000);
    // An approved project is cancelled, with its reason; a cancelled one stays cancelled.
    const auto cancelled = fx.call("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté à 2028"}});
    CHECK(cancelled["status"] == "cancelled");
    CHECK(cancelled["cancelReason"] == "Reporté à 2028");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_project", (json{{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Encore"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_project", (json{{"id", p["id"]}, {"status", "closed"}}));
    // Another syndicate's project is none.
    CHECK(fx.error_as(fx.other_admin, "update_project", {{"id", p["id"]}, {"title", "x"}}).code() == "PROJECT_NOT_FOUND");
    CHECK(fx.error_as(fx.other_admin, "get_project", {{"id", p["id"]}}).code() == "PROJECT_NOT_FOUND");
    CHECK(fx.call_as(fx.other_admin, "list_projects")["pagination"]["total"] == 0);
}

TEST_CASE("only a proposed or cancelled project is archived; archived, it is found by id but refused to writes") {
    ProjectsFixture fx;
    const auto approved = fx.approved_project();
    const auto refused = fx.error("delete_project", {{"id", approved["id"]}});
    CHECK(refused.code() == "PROJECT_NOT_DELETABLE");
    CHECK(text_of(refused, "status") == "approved");
    CHECK_REFUSED(fx, "PROJECT_NOT_DELETABLE", "delete_project", (json{{"id", approved["id"]}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "delete_project", (json{{"id", ghost}}));
    const auto proposed = fx.project({{"title", "Étude de la toiture"}});
    const auto archived = fx.call("delete_project", {{"id", proposed["id"]}});
    REQUIRE(archived.contains("deletedAt"));
    CHECK(archived["deletedAt"].is_string());
    CHECK(fx.has_event(proposed["id"], "project.archived"));
    const auto got = fx.call("get_project", {{"id", proposed["id"]}});
    REQUIRE(got.contains("deletedAt"));
    CHECK(got["deletedAt"].is_string());
    CHECK(fx.numbers() == std::vector<std::string>{"P-2026-001"});
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "update_project", (json{{"id", proposed["id"]}, {"title", "x"}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "approve_project", (json{{"id", proposed["id"]}, {"resolutionId", approved["approval"]["resolutionId"]}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "delete_project", (json{{"id", proposed["id"]}}));
    // Cancelled, the approved one may go too.
    fx.call("update_project", {{"id", approved["id"]}, {"status", "cancelled"}, {"cancelReason", "Abandonné"}});
    CHECK(fx.call("delete_project", {{"id", approved["id"]}})["status"] == "cancelled");
    CHECK(fx.call("list_projects")["pagination"]["total"] == 0);
}

TEST_CASE("the list: active projects first, then closed and cancelled, newest first; by status, category, component, contractor or words") {
    ProjectsFixture fx;
    const auto roof = fx.project();
    fx.clock.set(*syndic::parse_iso_instant("2026-11-21T15:05:00Z"));
    const auto study = fx.project({{"title", "Étude de l'enveloppe du bâtiment"}, {"category", "study"}, {"componentIds", json::array()},
                                   {"budgetCents", 800000}, {"fundingSources", sources("operating", 800000)}});
    fx.clock.set(*syndic::parse_iso_instant("2026-11-21T15:10:00Z"));
    const auto dropped = fx.project({{"title", "Terrasse sur le toit"}, {"category", "improvement"}, {"componentIds", json::array()},
                                     {"fundingSources", sources("operating", 5000000)}});
    fx.call("update_project", {{"id", dropped["id"]}, {"status", "cancelled"}, {"cancelReason", "Trop cher"}});
    fx.clock.set(*syndic::parse_iso_instant("2026-11-21T15:15:00Z"));
    CHECK(fx.numbers() == std::vector<std::string>{"P-2026-002", "P-2026-001", "P-2026-003"});
    CHECK(fx.numbers({{"status", "cancelled"}}) == std::vector<std::string>{"P-2026-003"});
    CHECK(fx.numbers({{"category", "study"}}) == std::vector<std::string>{"P-2026-002"});
    CHECK(fx.numbers({{"componentId", fx.membrane["id"]}}) == std::vector<std::string>{"P-2026-001"});
    CHECK(fx.numbers({{"search", "ETUDE"}}) == std::vector<std::string>{"P-2026-002"});
    CHECK(fx.numbers({{"search", "p-2026-003"}}) == std::vector<std::string>{"P-2026-003"});
    CHECK(fx.numbers({{"contractorId", fx.roofer["id"]}}).empty());
    const auto approved = fx.approve(roof);
    fx.award(approved, fx.quote(approved));
    CHECK(fx.numbers({{"contractorId", fx.roofer["id"]}}) == std::vector<std::string>{"P-2026-001"});
    const auto page = fx.call("list_projects", {{"status", "approved"}});
    REQUIRE(page["data"].size() == 1);
    CHECK(page["data"][0]["budgetCents"] == 5000000);
    CHECK(page["data"][0]["contractAmountCents"] == 4000000);
    CHECK(page["data"][0]["invoicedCents"] == 0);
    CHECK(fx.call("list_projects", {{"pageSize", 1}})["pagination"]["total"] == 3);
    (void)study;
}

TEST_CASE("a replacement is approved by the board; the result warns while the decision may be contested") {
    ProjectsFixture fx;
    const auto p = fx.project();
    const auto general = fx.resolution_id("simple", "passed", "aga");
    const auto rejected = fx.resolution_id("simple", "rejected", "board");
    const auto pending = fx.resolution_id("simple", "pending", "board");
    const auto board = fx.board();
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "approve_project", (json{{"id", ghost}, {"resolutionId", board}}));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "approve_project", (json{{"id", p["id"]}, {"resolutionId", ghost}}));
    CHECK_REFUSED(fx, "MEETING_NOT_HELD", "approve_project", (json{{"id", p["id"]}, {"resolutionId", pending}}));
    CHECK_REFUSED(fx, "RESOLUTION_NOT_PASSED", "approve_project", (json{{"id", p["id"]}, {"resolutionId", rejected}}));
    // The co-owners do not decide what the board decides.
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "approve_project", (json{{"id", p["id"]}, {"resolutionId", general}}));
    const auto a = fx.call("approve_project", {{"id", p["id"]}, {"resolutionId", board}});
    CHECK(a["status"] == "approved");
    REQUIRE(a["approval"].is_object());
    CHECK(a["approval"]["resolutionId"] == board);
    CHECK(a["approval"]["body"] == "board");
    CHECK(a["approval"]["majority"] == "simple");
    CHECK(a["approval"]["contestableUntil"] == "2027-03-15");  // decided 2026-12-15, + 90 days (art. 1103)
    REQUIRE(a.contains("warnings"));
    CHECK_FALSE(a["warnings"].empty());
    CHECK(fx.events_of(p["id"]) == std::vector<std::string>{"project.created", "project.approved"});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "approve_project", (json{{"id", p["id"]}, {"resolutionId", board}}));
    CHECK(fx.call("get_project", {{"id", p["id"]}})["approval"]["resolutionId"] == board);
    // Past the 90 days, nothing to warn of.
    const auto later = fx.project({{"title", "Remplacement des drains"}});
    const auto old = fx.board();
    fx.clock.set(*syndic::parse_iso_instant("2027-04-01T15:00:00Z"));
    const auto settled = fx.call("approve_project", {{"id", later["id"]}, {"resolutionId", old}});
    CHECK(settled["status"] == "approved");
    REQUIRE(settled.contains("warnings"));
    CHECK(settled["warnings"].empty());
}

TEST_CASE("an improvement needs the co-owners' absolute majority (art. 1097); maintenance, a study and an emergency the board's") {
    ProjectsFixture fx;
    const auto terrace = fx.project({{"title", "Terrasse sur le toit"}, {"category", "improvement"}, {"componentIds", json::array()},
                                     {"fundingSources", sources("operating", 5000000)}});
    const auto board = fx.board();
    const auto simple = fx.resolution_id("simple", "passed", "aga");
    const auto absolute = fx.resolution_id("absolute", "passed", "aga");
    CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "approve_project", (json{{"id", terrace["id"]}, {"resolutionId", board}}));
    const auto weak = fx.error("approve_project", {{"id", terrace["id"]}, {"resolutionId", simple}});
    CHECK(weak.code() == "MAJORITY_INSUFFICIENT");
    CHECK_REFUSED(fx, "MAJORITY_INSUFFICIENT", "approve_project", (json{{"id", terrace["id"]}, {"resolutionId", simple}}));
    const auto a = fx.call("approve_project", {{"id", terrace["id"]}, {"resolutionId", absolute}});
    CHECK(a["status"] == "approved");
    CHECK(a["approval"]["body"] == "general");
    CHECK(a["approval"]["majority"] == "absolute");
    // The board's categories: a general meeting's resolution is the wrong body for them.
    for (const auto* category : {"maintenance", "study"}) {
        const auto p = fx.project({{"title", std::string("Travaux ") + category}, {"category", category}, {"componentIds", json::array()},
                                   {"budgetCents", 100000}, {"fundingSources", sources("operating", 100000)}});
        CHECK_REFUSED(fx, "WRONG_DECISION_BODY", "approve_project", (json{{"id", p["id"]}, {"resolutionId", absolute}}));
        CHECK(fx.call("approve_project", {{"id", p["id"]}, {"resolutionId", fx.board()}})["status"] == "approved");
    }
    const auto emergency = fx.project({{"category", "emergency"}, {"emergencyWorks", "major-repair"}});
    CHECK(fx.call("approve_project", {{"id", emergency["id"]}, {"resolutionId", fx.board()}})["approval"]["body"] == "board");
}

TEST_CASE("a component an open project works on is not archived; once the project is cancelled it may be") {
    ProjectsFixture fx;
    const auto p = fx.project();
    CHECK_REFUSED(fx, "COMPONENT_IN_USE", "delete_logbook_component", (json{{"id", fx.membrane["id"]}}));
    fx.approve(p);
    CHECK_REFUSED(fx, "COMPONENT_IN_USE", "delete_logbook_component", (json{{"id", fx.membrane["id"]}}));
    fx.call("update_project", {{"id", p["id"]}, {"status", "cancelled"}, {"cancelReason", "Reporté"}});
    CHECK(fx.call("delete_logbook_component", {{"id", fx.membrane["id"]}})["deletedAt"].is_string());
    // An archived component is no longer one a project can name.
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "create_project",
                  (json{{"title", "Toit"}, {"category", "replacement"}, {"componentIds", json::array({fx.membrane["id"]})}, {"budgetCents", 100000},
                        {"fundingSources", sources("contingency", 100000)}}));
}

TEST_CASE("a project shows its quotes, tasks, change orders, updates, invoices, warranty claims and documents") {
    ProjectsFixture fx;
    const auto p = fx.project();
    const auto got = fx.call("get_project", {{"id", p["id"]}});
    for (const auto* key : {"quotes", "tasks", "changeOrders", "updates", "invoices", "warrantyClaims", "documentIds"}) {
        REQUIRE(got.contains(key));
        CHECK(got[key].is_array());
        CHECK(got[key].empty());
    }
    CHECK(got["number"] == "P-2026-001");
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "get_project", (json{{"id", ghost}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "get_project_budget", (json{{"id", ghost}}));
    CHECK(fx.error_as(fx.other_admin, "get_project_budget", {{"id", p["id"]}}).code() == "PROJECT_NOT_FOUND");
    CHECK(fx.error_as(fx.other_admin, "delete_project", {{"id", p["id"]}}).code() == "PROJECT_NOT_FOUND");
}

}  // TEST_SUITE

}  // namespace projects_test
