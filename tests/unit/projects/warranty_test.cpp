// Warranty claims (catalogue §4.8): a defect of accepted work reported to its contractor within
// the window of its basis (poor workmanship 1 year from acceptance, art. 2120; loss of the work 5
// years, art. 2118; or the contract's own date), the contractor told by e-mail when it has an
// address; then followed open, notified, repaired or refused, closed. The fixture's clock makes
// today 2026-11-21; the projects here were accepted on 2026-11-20.
#include "projects/projects_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace projects_warranty_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

json defect(const json& p, json extra = json::object()) {
    json a = {{"projectId", p["id"]}, {"discoveredOn", "2026-11-21"}, {"description", "Infiltration au solin nord"}, {"basis", "workmanship"}};
    a.update(extra);
    return a;
}

json to_status(const json& p, const json& c, const std::string& status) {
    return {{"projectId", p["id"]}, {"claimId", c["id"]}, {"status", status}};
}

}  // namespace

TEST_SUITE("projects-warranty") {

TEST_CASE("a defect is claimed within its basis's window, and the contractor told by e-mail") {
    ProjectsFixture fx;
    const auto started = fx.started_project({{"title", "En cours"}});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_warranty_claim", defect(started));
    const auto p = fx.completed_project();
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "add_warranty_claim", defect(p, {{"projectId", ghost}}));
    CHECK_REFUSED(fx, "DOCUMENT_NOT_FOUND", "add_warranty_claim", defect(p, {{"documentIds", json::array({ghost})}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_warranty_claim", defect(p, {{"basis", "contractual"}}));  // its date is needed
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_warranty_claim", defect(p, {{"basis", "cosmetic"}}));
    const auto photo = fx.document();
    const auto c = fx.call("add_warranty_claim", defect(p, {{"documentIds", json::array({photo})}}));
    CHECK(c["projectId"] == p["id"]);
    CHECK(c["contractorId"] == fx.roofer["id"]);
    CHECK(c["basis"] == "workmanship");
    CHECK(c["windowEndsOn"] == "2027-11-20");
    CHECK(c["status"] == "notified");
    CHECK(c["notifiedOn"] == "2026-11-21");
    CHECK(c["disputeId"].is_null());
    CHECK(c["documentIds"] == json::array({photo}));
    REQUIRE(c.contains("queued"));
    CHECK(c["queued"] == 1);
    CHECK(fx.outbox("soumissions@boreal.example.ca") == 1);
    CHECK(fx.events_of(c["id"]) == std::vector<std::string>{"warranty_claim.created"});
    // Not told: the claim stays open.
    const auto quiet = fx.call("add_warranty_claim", defect(p, {{"notify", false}, {"description", "Drain mal scellé"}}));
    CHECK(quiet["status"] == "open");
    CHECK(quiet["notifiedOn"].is_null());
    CHECK(fx.outbox("soumissions@boreal.example.ca") == 1);
    // Each basis its window.
    const auto structural = fx.call("add_warranty_claim", defect(p, {{"basis", "loss-of-work"}, {"notify", false}}));
    CHECK(structural["windowEndsOn"] == "2031-11-20");
    const auto contractual = fx.call("add_warranty_claim", defect(p, {{"basis", "contractual"}, {"contractualEndsOn", "2029-06-30"}, {"notify", false}}));
    CHECK(contractual["windowEndsOn"] == "2029-06-30");
    CHECK(fx.call("get_project", {{"id", p["id"]}})["warrantyClaims"].size() == 4);
    // A year after acceptance, poor workmanship is out of time; the loss of the work is not.
    fx.clock.set(*syndic::parse_iso_instant("2027-11-21T15:00:00Z"));
    const auto late = fx.error("add_warranty_claim", defect(p, {{"discoveredOn", "2027-11-21"}}));
    CHECK(late.code() == "WARRANTY_EXPIRED");
    CHECK(text_of(late, "windowEndsOn") == "2027-11-20");
    CHECK_REFUSED(fx, "WARRANTY_EXPIRED", "add_warranty_claim", defect(p, {{"discoveredOn", "2027-11-21"}}));
    CHECK(fx.call("add_warranty_claim", defect(p, {{"discoveredOn", "2027-11-20"}, {"notify", false}}))["windowEndsOn"] == "2027-11-20");
    CHECK(fx.call("add_warranty_claim", defect(p, {{"discoveredOn", "2027-11-21"}, {"basis", "loss-of-work"}, {"notify", false}}))["status"] == "open");
    CHECK_REFUSED(fx, "WARRANTY_EXPIRED", "add_warranty_claim",
                  defect(p, {{"discoveredOn", "2027-07-01"}, {"basis", "contractual"}, {"contractualEndsOn", "2027-06-30"}}));
}

TEST_CASE("a closed project's contractor is still answerable; one without e-mail is not told, and the claim stays open") {
    ProjectsFixture fx;
    const auto nomail = fx.insured("Toitures Sans Courriel");
    const auto p = fx.started_project(json::object(), {{"contractorId", nomail["id"]}});
    fx.call("complete_project", {{"id", p["id"]}, {"completedOn", "2026-11-20"}});
    CHECK(fx.call("close_project", {{"id", p["id"]}})["status"] == "closed");
    SQLite::Statement before(fx.db->sql(), "SELECT count(*) FROM outbox");
    before.executeStep();
    const auto queued_before = before.getColumn(0).getInt64();
    const auto c = fx.call("add_warranty_claim", defect(p));
    CHECK(c["contractorId"] == nomail["id"]);
    CHECK(c["status"] == "open");
    CHECK(c["notifiedOn"].is_null());
    REQUIRE(c.contains("queued"));
    CHECK(c["queued"] == 0);
    REQUIRE(c.contains("withoutEmail"));
    CHECK(c["withoutEmail"] == true);
    SQLite::Statement after(fx.db->sql(), "SELECT count(*) FROM outbox");
    after.executeStep();
    CHECK(after.getColumn(0).getInt64() == queued_before);
}

TEST_CASE("a claim moves open, notified, then repaired or refused, then closed") {
    ProjectsFixture fx;
    const auto p = fx.completed_project();
    const auto other = fx.completed_project({{"title", "Drains"}});
    const auto c = fx.call("add_warranty_claim", defect(p, {{"notify", false}}));
    const auto theirs = fx.call("add_warranty_claim", defect(other, {{"notify", false}}));
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "update_warranty_claim", (json{{"projectId", ghost}, {"claimId", c["id"]}, {"status", "notified"}}));
    CHECK_REFUSED(fx, "WARRANTY_CLAIM_NOT_FOUND", "update_warranty_claim", (json{{"projectId", p["id"]}, {"claimId", ghost}, {"status", "notified"}}));
    CHECK_REFUSED(fx, "WARRANTY_CLAIM_NOT_FOUND", "update_warranty_claim", to_status(p, theirs, "notified"));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_warranty_claim", to_status(p, c, "open"));
    const auto skipped = fx.error("update_warranty_claim", to_status(p, c, "repaired"));
    CHECK(skipped.code() == "INVALID_STATUS_TRANSITION");
    CHECK(text_of(skipped, "status") == "open");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, c, "repaired"));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, c, "refused"));
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, c, "closed"));
    CHECK(fx.call("update_warranty_claim", to_status(p, c, "notified"))["status"] == "notified");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, c, "closed"));
    auto refusal = to_status(p, c, "refused");
    refusal["note"] = "L'entrepreneur nie le défaut";
    const auto refused = fx.call("update_warranty_claim", refusal);
    CHECK(refused["status"] == "refused");
    CHECK(refused["note"] == "L'entrepreneur nie le défaut");
    CHECK(fx.call("update_warranty_claim", to_status(p, c, "closed"))["status"] == "closed");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, c, "notified"));
    CHECK(fx.events_of(c["id"]) ==
          std::vector<std::string>{"warranty_claim.created", "warranty_claim.updated", "warranty_claim.updated", "warranty_claim.updated"});
    // Told at once, then repaired and closed.
    const auto told = fx.call("add_warranty_claim", defect(p, {{"description", "Drain bouché"}}));
    CHECK(told["status"] == "notified");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, told, "notified"));
    CHECK(fx.call("update_warranty_claim", to_status(p, told, "repaired"))["status"] == "repaired");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_warranty_claim", to_status(p, told, "refused"));
    CHECK(fx.call("update_warranty_claim", to_status(p, told, "closed"))["status"] == "closed");
    // Another syndicate's project is none.
    CHECK(fx.error_as(fx.other_admin, "add_warranty_claim", defect(p)).code() == "PROJECT_NOT_FOUND");
    CHECK(fx.error_as(fx.other_admin, "update_warranty_claim", to_status(p, told, "closed")).code() == "PROJECT_NOT_FOUND");
}

}  // TEST_SUITE

}  // namespace projects_warranty_test
