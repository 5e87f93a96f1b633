// What the projects tests share (catalogue §4.8): the logbook's building (units 101, 102, 201, P-1,
// the roof, a roofer without insurance known, the chart of accounts), and besides: an insured,
// licensed roofer with an e-mail address, the roof membrane as a logbook component, a director in
// office (so a board meeting has someone to vote), and the steps of a project: proposed (a
// replacement of the membrane paid by the contingency fund), approved by the board, its contract
// awarded, started, completed. The fixture's clock makes today 2026-11-21; the board's
// resolutions are of a meeting of 2026-12-15, so every one is made before the clock moves past it.
#pragma once
#include "logbook/logbook_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace syndic::test {

struct ProjectsFixture : LogbookFixture {
    // Insured until the end of 2027, licensed by the RBQ, reachable by e-mail.
    json roofer = call("create_contractor", {{"name", "Couvertures Boréal inc."}, {"trade", "Couvreur"}, {"rbqLicence", "1234-5678-90"},
                                             {"insuranceExpiry", "2027-12-31"}, {"email", "soumissions@boreal.example.ca"}});
    json membrane = component();
    // In office since January (appointed before the co-owners' first meeting), so today too.
    json director = call("appoint_director", {{"name", "Marc Tremblay"}, {"role", "president"}, {"appointedBy", "developer"},
                                              {"termStart", "2026-01-01"}, {"termEnd", "2028-12-31"}});

    // Another contractor, insured and licensed unless `extra` says otherwise.
    json insured(const std::string& name, json extra = json::object()) {
        json a = {{"name", name}, {"trade", "Entrepreneur général"}, {"rbqLicence", "2233-4455-66"}, {"insuranceExpiry", "2027-12-31"}};
        a.update(extra);
        return call("create_contractor", a);
    }
    // A replacement of the roof membrane, 50,000.00 from the contingency fund; `extra` overrides.
    json project(json extra = json::object()) {
        json a = {{"title", "Réfection de la toiture"}, {"description", "Remplacer la membrane du toit"}, {"category", "replacement"},
                  {"commonPortionIds", json::array({roof["id"]})}, {"componentIds", json::array({membrane["id"]})},
                  {"budgetCents", 5000000}, {"fundingSources", json::array({json{{"fund", "contingency"}, {"amountCents", 5000000}}})},
                  {"plannedStart", "2026-11-15"}, {"plannedEnd", "2026-12-15"}};
        a.update(extra);
        return call("create_project", a);
    }
    // A passed resolution of the board (its directors' vote at a board meeting).
    std::string board() { return resolution_id("simple", "passed", "board"); }
    json approve(const json& p) { return call("approve_project", {{"id", p["id"]}, {"resolutionId", board()}}); }
    json approved_project(json extra = json::object()) { return approve(project(extra)); }
    // The roofer's quote: 40,000.00, received on November 1, valid until the end of January.
    json quote(const json& p, json extra = json::object()) {
        json a = {{"projectId", p["id"]}, {"contractorId", roofer["id"]}, {"amountCents", 4000000}, {"receivedOn", "2026-11-01"},
                  {"validUntil", "2027-01-31"}, {"scope", "Membrane élastomère, solins et drains"}};
        a.update(extra);
        return call("add_project_quote", a);
    }
    json award(const json& p, const json& q, json extra = json::object()) {
        json a = {{"projectId", p["id"]}, {"quoteId", q["id"]}, {"resolutionId", board()}};
        a.update(extra);
        return call("award_project_contract", a);
    }
    // Approved, its contract (the roofer's 40,000.00) awarded.
    json awarded_project(json extra = json::object(), json quote_extra = json::object()) {
        const auto p = approved_project(extra);
        return award(p, quote(p, quote_extra));
    }
    // Awarded, and the work begun on November 16 (its first progress update).
    json started_project(json extra = json::object(), json quote_extra = json::object()) {
        const auto p = awarded_project(extra, quote_extra);
        call("add_project_update", {{"projectId", p["id"]}, {"date", "2026-11-16"}, {"progressPercent", 10}, {"note", "Chantier ouvert"}});
        return call("get_project", {{"id", p["id"]}});
    }
    // Started, and the work accepted on November 20.
    json completed_project(json extra = json::object(), json deficiencies = json::array()) {
        const auto p = started_project(extra);
        json a = {{"id", p["id"]}, {"completedOn", "2026-11-20"}};
        if (!deficiencies.empty()) a["deficiencies"] = deficiencies;
        return call("complete_project", a);
    }
    // The board's authorisation to spend from the contingency fund on the project (its cash first: opening()).
    json authorization(const json& p, std::int64_t cents, const std::string& use = "replacement") {
        return call("authorize_fund_use", {{"fund", "contingency"}, {"amountCents", cents}, {"use", use}, {"purpose", "Travaux du projet"},
                                           {"resolutionId", board()}, {"projectId", p["id"]}});
    }
    // The arguments of an invoice of the project from the contingency fund; `extra` overrides.
    json bill(const json& p, const std::string& number, std::int64_t cents, json extra = json::object()) {
        json a = {{"projectId", p["id"]}, {"invoiceNumber", number}, {"invoiceDate", "2026-11-21"}, {"amountCents", cents},
                  {"fund", "contingency"}};
        a.update(extra);
        return a;
    }
    // Messages queued for `recipient`.
    std::int64_t outbox(const std::string& recipient) {
        SQLite::Statement q(db->sql(), "SELECT count(*) FROM outbox WHERE recipient = ?");
        q.bind(1, recipient);
        q.executeStep();
        return q.getColumn(0).getInt64();
    }
    // An expense's status (unpaid, paid, void) and amount, as accounting keeps it.
    std::string expense_status(const json& id) {
        SQLite::Statement q(db->sql(), "SELECT status FROM expenses WHERE id = ?");
        q.bind(1, id.get<std::string>());
        return q.executeStep() ? q.getColumn(0).getString() : "";
    }
    std::int64_t expense_amount(const json& id) {
        SQLite::Statement q(db->sql(), "SELECT amount_cents FROM expenses WHERE id = ?");
        q.bind(1, id.get<std::string>());
        return q.executeStep() ? q.getColumn(0).getInt64() : -1;
    }
    std::string authorization_status(const json& id) {
        SQLite::Statement q(db->sql(), "SELECT status FROM fund_use_authorizations WHERE id = ?");
        q.bind(1, id.get<std::string>());
        return q.executeStep() ? q.getColumn(0).getString() : "";
    }
    // Whether the record has had an event of this type (catalogue §6).
    bool has_event(const json& record_id, const std::string& type) {
        const auto events = events_of(record_id.get<std::string>());
        return std::find(events.begin(), events.end(), type) != events.end();
    }
    // The numbers of the projects of a list, in its order.
    std::vector<std::string> numbers(const json& args = json::object()) {
        const auto page = call("list_projects", args);  // kept: a loop over a temporary's member dangles
        std::vector<std::string> out;
        for (const auto& p : page["data"]) out.push_back(p["number"]);
        return out;
    }
};

}  // namespace syndic::test
