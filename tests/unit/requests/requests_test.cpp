// Residents' requests (catalogue §4.9): opened for an active co-owner, due by the service delay of
// their priority, a leak urgent and alerting the directors, a private request on equipment the
// syndicate does not maintain flagged as the co-owner's; their states, replies to the requester,
// and their resolution recording the work in the logbook (link L18). The fixture's clock makes
// today 2026-11-21.
#include "logbook/logbook_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace requests_test {

using namespace syndic::test;

namespace {

const std::string ghost = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

struct Requests : LogbookFixture {
    json owner = co_owner(u101["id"], "Émilie", "Bélanger", {{"email", "emilie@example.ca"}, {"language", "fr"}});
    json tenant = co_owner(u102["id"], "Luc", "Côté", {{"email", "luc@example.ca"}, {"language", "en"}});
    json request(json extra = json::object()) {
        json a = {{"requesterCoOwnerId", owner["id"]}, {"category", "maintenance"}, {"location", "common"},
                  {"description", "La porte du garage grince"}};
        a.update(extra);
        return call("create_request", a);
    }
    std::int64_t outbox(const std::string& recipient) {
        SQLite::Statement q(db->sql(), "SELECT count(*) FROM outbox WHERE recipient = ?");
        q.bind(1, recipient);
        q.executeStep();
        return q.getColumn(0).getInt64();
    }
};

}  // namespace

TEST_SUITE("requests") {

TEST_CASE("a request is an active co-owner's, numbered, due by the service delay of its priority") {
    Requests fx;
    CHECK_REFUSED(fx, "REQUESTER_NOT_FOUND", "create_request",
                  (json{{"requesterOccupancyId", ghost}, {"category", "noise"}, {"location", "common"}, {"description", "Bruit"}}));
    CHECK_REFUSED(fx, "REQUESTER_NOT_FOUND", "create_request",
                  (json{{"requesterCoOwnerId", ghost}, {"category", "noise"}, {"location", "common"}, {"description", "Bruit"}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_request", (json{{"category", "noise"}, {"location", "common"}, {"description", "Bruit"}}));
    CHECK_REFUSED(fx, "COMPONENT_NOT_FOUND", "create_request", (json{{"requesterCoOwnerId", fx.owner["id"]}, {"category", "noise"},
                                                                      {"location", "common"}, {"componentId", ghost}, {"description", "Bruit"}}));
    const auto r = fx.request();
    CHECK(r["number"] == "R-2026-0001");
    CHECK(r["requesterName"] == "Émilie Bélanger");
    CHECK(r["unitNumber"] == "101");  // the co-owner's unit
    CHECK(r["priority"] == "normal");
    CHECK(r["dueOn"] == "2026-12-01");  // 10 days
    CHECK(r["status"] == "open");
    CHECK(r["queued"] == 0);
    CHECK(fx.events_of(r["id"]) == std::vector<std::string>{"request.created"});
    fx.call("update_settings", {{"requestSlaLowDays", 60}});
    const auto low = fx.request({{"priority", "low"}});
    CHECK(low["number"] == "R-2026-0002");
    CHECK(low["dueOn"] == "2027-01-20");
}

TEST_CASE("a leak is urgent and alerts the directors at once; private equipment the syndicate does not maintain is the co-owner's") {
    Requests fx;
    fx.call("appoint_director", {{"name", "Anne Gagnon"}, {"email", "anne@example.ca"}, {"role", "president"}, {"appointedBy", "meeting"},
                                 {"termStart", "2026-12-15"}, {"resolutionId", fx.resolution_id()}});
    fx.clock.set(*syndic::parse_iso_instant("2026-12-16T15:00:00Z"));
    const auto leak = fx.request({{"category", "leak"}, {"location", "private"}, {"description", "Eau au plafond de la salle de bain"}});
    CHECK(leak["priority"] == "urgent");
    CHECK(leak["dueOn"] == "2026-12-17");
    CHECK(leak["queued"] == 1);
    CHECK(fx.outbox("anne@example.ca") == 1);
    CHECK(leak["outsideSyndicateScope"] == true);  // no component of the syndicate in 101
    fx.component({{"name", "Échangeur d'air"}, {"category", "heating-ventilation"}, {"commonPortionId", nullptr}, {"privateUnitIds", {fx.u101["id"]}}});
    const auto fan = fx.request({{"location", "private"}, {"description", "L'échangeur d'air ne démarre plus"}});
    CHECK(fan["outsideSyndicateScope"] == false);
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_request", (json{{"requesterCoOwnerId", fx.owner["id"]}, {"unitId", nullptr}, {"category", "noise"},
                                                                   {"location", "private"}, {"description", "x"}}));
}

TEST_CASE("a request moves open, acknowledged, in progress; a rejection tells the requester why; a new priority moves its due day") {
    Requests fx;
    const auto r = fx.request();
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_request", (json{{"id", r["id"]}, {"status", "closed"}}));
    CHECK_REFUSED(fx, "COMMENT_REQUIRED", "update_request", (json{{"id", r["id"]}, {"status", "rejected"}}));
    CHECK_REFUSED(fx, "DIRECTOR_NOT_FOUND", "update_request", (json{{"id", r["id"]}, {"assigneeDirectorId", ghost}}));
    CHECK_REFUSED(fx, "CONTRACTOR_NOT_FOUND", "update_request", (json{{"id", r["id"]}, {"contractorId", ghost}}));
    auto u = fx.call("update_request", {{"id", r["id"]}, {"status", "acknowledged"}, {"priority", "high"}, {"contractorId", fx.contractor["id"]}});
    CHECK(u["status"] == "acknowledged");
    CHECK(u["dueOn"] == "2026-11-24");  // 3 days from the day it was made
    CHECK(u["contractorId"] == fx.contractor["id"]);
    CHECK(fx.events_of(r["id"]) == std::vector<std::string>{"request.created", "request.updated"});
    u = fx.call("update_request", {{"id", r["id"]}, {"status", "in-progress"}, {"dueOn", "2026-11-30"}});
    CHECK(u["dueOn"] == "2026-11-30");
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_request", (json{{"id", r["id"]}, {"status", "acknowledged"}}));
    const auto other = fx.request();
    const auto rejected = fx.call("update_request", {{"id", other["id"]}, {"status", "rejected"}, {"comment", "Déjà réglé la semaine dernière."}});
    CHECK(rejected["status"] == "rejected");
    CHECK(fx.outbox("emilie@example.ca") == 1);
    const auto got = fx.call("get_request", {{"id", other["id"]}});
    REQUIRE(got["comments"].size() == 1);
    CHECK(got["comments"][0]["visibility"] == "requester");
}

TEST_CASE("comments: an internal note stays, a reply goes to the requester in their language") {
    Requests fx;
    const auto r = fx.request({{"requesterCoOwnerId", fx.tenant["id"]}});
    CHECK_REFUSED(fx, "REQUEST_NOT_FOUND", "add_request_comment", (json{{"requestId", ghost}, {"body", "x"}, {"visibility", "internal"}}));
    const auto note = fx.call("add_request_comment", {{"requestId", r["id"]}, {"body", "Appeler le couvreur"}, {"visibility", "internal"}});
    CHECK(note["queued"] == 0);
    const auto reply = fx.call("add_request_comment", {{"requestId", r["id"]}, {"body", "We will come Thursday."}, {"visibility", "requester"}});
    CHECK(reply["queued"] == 1);
    SQLite::Statement q(fx.db->sql(), "SELECT language, subject FROM outbox WHERE recipient = 'luc@example.ca'");
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == "en");
    CHECK(q.getColumn(1).getString() == "Reply to your request R-2026-0001");
    CHECK(fx.call("get_request", {{"id", r["id"]}})["comments"].size() == 2);
}

TEST_CASE("resolving records the work in the logbook with the request, its rules applying; a renovation says the board's decision") {
    Requests fx;
    const auto c = fx.component();
    const auto r = fx.request({{"componentId", c["id"]}, {"category", "leak"}});
    json work = {{"componentId", c["id"]}, {"kind", "repair"}, {"performedOn", "2026-11-20"}, {"description", "Solin recollé"},
                 {"contractorId", fx.contractor["id"]}, {"costCents", 60000}, {"fund", "contingency"}, {"invoiceNumber", "TL-77"}};
    const auto refused = fx.error("resolve_request", {{"id", r["id"]}, {"resolution", "Réparé"}, {"recordMaintenance", work}});
    CHECK(refused.code() == "FUND_USE_NOT_ALLOWED");
    CHECK(refused.field() == "/recordMaintenance/fund");
    work["fund"] = "operating";
    const auto resolved = fx.call("resolve_request", {{"id", r["id"]}, {"resolution", "Solin recollé par le couvreur"}, {"recordMaintenance", work}});
    CHECK(resolved["status"] == "resolved");
    CHECK(resolved["resolvedOn"] == "2026-11-21");
    CHECK(resolved["queued"] == 1);
    REQUIRE(resolved["links"]["maintenanceRecordId"].is_string());
    const auto history = fx.call("list_maintenance_history", {{"componentId", c["id"]}});
    CHECK(history["data"][0]["requestId"] == r["id"]);
    CHECK(history["data"][0]["expenseId"].is_string());
    CHECK(fx.events_of(r["id"]) == std::vector<std::string>{"request.created", "request.resolved"});
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "resolve_request", (json{{"id", r["id"]}, {"resolution", "Encore"}}));
    const auto closed = fx.call("update_request", {{"id", r["id"]}, {"status", "closed"}});
    CHECK(closed["status"] == "closed");
    const auto reno = fx.request({{"category", "renovation-approval"}, {"location", "private"}, {"description", "Remplacer le plancher"}});
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "resolve_request", (json{{"id", reno["id"]}, {"resolution", "Accordé"}}));
    const auto plain = fx.request();
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "resolve_request", (json{{"id", plain["id"]}, {"resolution", "x"}, {"renovationDecision", "approved"}}));
    const auto approved = fx.call("resolve_request", {{"id", reno["id"]}, {"resolution", "Accordé avec membrane acoustique"}, {"renovationDecision", "approved"}});
    CHECK(approved["renovationDecision"] == "approved");
    // A request answered by a project names it.
    const auto roofing = fx.request({{"category", "leak"}, {"description", "Infiltration par la toiture"}});
    CHECK_REFUSED(fx, "PROJECT_NOT_FOUND", "resolve_request", (json{{"id", roofing["id"]}, {"resolution", "Projet"}, {"projectId", ghost}}));
    const auto project = fx.call("create_project", {{"title", "Réfection de la toiture"}, {"category", "replacement"}, {"componentIds", {c["id"]}},
                                                    {"requestId", roofing["id"]}, {"budgetCents", 100000}, {"fundingSources", {{{"fund", "contingency"}, {"amountCents", 100000}}}}});
    const auto answered = fx.call("resolve_request", {{"id", roofing["id"]}, {"resolution", "La toiture sera refaite (projet)"}, {"projectId", project["id"]}});
    CHECK(answered["links"]["projectId"] == project["id"]);
    // The work may also name its request from the logbook's side.
    const auto logged = fx.call("record_maintenance", {{"componentId", c["id"]}, {"performedOn", "2026-11-21"}, {"kind", "routine"},
                                                       {"description", "Graissage"}, {"requestId", plain["id"]}});
    CHECK(logged["requestId"] == plain["id"]);
    CHECK_REFUSED(fx, "REQUEST_NOT_FOUND", "record_maintenance",
                  (json{{"componentId", c["id"]}, {"performedOn", "2026-11-21"}, {"kind", "routine"}, {"description", "x"}, {"requestId", ghost}}));
}

TEST_CASE("the list: still open first, then the most urgent, then the oldest; overdue and words") {
    Requests fx;
    const auto a = fx.request({{"priority", "low"}, {"description", "Ampoule du hall"}});
    const auto b = fx.request({{"priority", "urgent"}, {"description", "Porte d'entrée bloquée"}});
    const auto c = fx.request({{"description", "Tache au tapis"}});
    fx.call("update_request", {{"id", c["id"]}, {"status", "rejected"}, {"comment", "Non"}});
    const auto page = fx.call("list_requests");
    REQUIRE(page["data"].size() == 3);
    CHECK(page["data"][0]["id"] == b["id"]);
    CHECK(page["data"][1]["id"] == a["id"]);
    CHECK(page["data"][2]["id"] == c["id"]);
    fx.clock.set(*syndic::parse_iso_instant("2026-11-23T15:00:00Z"));  // the urgent one was due on the 22nd
    const auto late = fx.call("list_requests", {{"overdue", true}});
    REQUIRE(late["data"].size() == 1);
    CHECK(late["data"][0]["id"] == b["id"]);
    CHECK(late["data"][0]["overdue"] == true);
    CHECK(fx.call("list_requests", {{"search", "ENTREE"}})["data"].size() == 1);
    CHECK(fx.call("list_requests", {{"search", "R-2026-0003"}})["data"][0]["id"] == c["id"]);
    CHECK(fx.call("list_requests", {{"status", "rejected"}})["data"].size() == 1);
}

}  // TEST_SUITE

}  // namespace requests_test
