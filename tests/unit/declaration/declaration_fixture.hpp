// What the declaration tests share: resolutions of a general or board meeting (its directors
// present) put to a majority,
// passed, rejected or still pending, on a meeting of 2026-12-15 (the fixture's clock is
// 2026-11-21, so the 21-day notice goes out), and the units of a small building.
#pragma once
#include "fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

namespace syndic::test {

struct DeclarationFixture : Fixture {
    // A meeting of `type` (aga, aga-special, board) on 2026-12-15, its notice sent.
    json meeting(const std::string& type = "aga") {
        const auto m = call("create_meeting", {{"title", "Assemblée"}, {"type", type},
                                               {"scheduledAt", "2026-12-15T19:00:00-05:00"},
                                               {"location", "Salle communautaire"}, {"agenda", json::array({"Point"})}});
        call("send_meeting_notice", {{"meetingId", m["id"]}});
        return m;
    }
    // Every active co-owner recorded present, so that votes can be recorded: they never exceed the
    // votes present. A building without co-owners gets one for each unit (one unit of all the votes
    // when it has none).
    void all_present(const json& m) {
        if (m["type"] == "board") return directors_present(m);
        auto owners = call("list_co_owners", {{"pageSize", 200}})["data"];
        if (owners.empty()) {
            auto units = call("list_units", {{"pageSize", 200}})["data"];
            if (units.empty())
                units.push_back(call("create_unit", {{"number", "Q-1"}, {"type", "apartment"}, {"fractionPercent", 100}}));
            for (const auto& u : units)
                call("create_co_owner", {{"unitId", u["id"]}, {"firstName", "Votant"}, {"lastName", u["number"]}});
            owners = call("list_co_owners", {{"pageSize", 200}})["data"];
        }
        json rows = json::array();
        for (const auto& o : owners) rows.push_back({{"coOwnerId", o["id"]}, {"attendance", "present"}});
        call("record_attendance", {{"meetingId", m["id"]}, {"attendees", rows}});
    }
    // A board meeting's attendance is its directors': every director in office on its day recorded
    // present; with none, one elected by the co-owners for the purpose (an outside director).
    void directors_present(const json& m) {
        auto seats = call("get_voting_roll", {{"meetingId", m["id"]}})["entries"];
        if (seats.empty()) {
            call("appoint_director", {{"name", "Administrateur Votant"}, {"role", "director"}, {"appointedBy", "meeting"},
                                      {"termStart", "2026-12-15"}, {"resolutionId", resolution_id()}});
            seats = call("get_voting_roll", {{"meetingId", m["id"]}})["entries"];
        }
        json rows = json::array();
        for (const auto& s : seats) rows.push_back({{"directorId", s["directorId"]}, {"attendance", "present"}});
        call("record_attendance", {{"meetingId", m["id"]}, {"attendees", rows}});
    }
    // A resolution put to `majority`: "passed" (every vote present for), "rejected" (all against),
    // or "pending" (its meeting not held); a decided one's votes are recorded and its meeting held
    // on its day (2026-12-15 20:00), after which the clock goes back to where it was.
    json resolution(const std::string& majority = "simple", const std::string& outcome = "passed",
                    const std::string& type = "aga") {
        const auto m = meeting(type);
        const auto r = call("add_resolution", {{"meetingId", m["id"]}, {"title", "Décision"}, {"majorityRequired", majority}});
        if (outcome == "pending") return r;
        all_present(m);
        const auto before = clock.now();
        const auto day = *parse_iso_instant("2026-12-15T20:00:00-05:00");
        if (before < day) clock.set(day);
        const double present = call("calculate_quorum", {{"meetingId", m["id"]}})["total"].get<double>();
        if (outcome == "passed")
            call("record_votes", {{"resolutionId", r["id"]}, {"votesFor", present}, {"votesAgainst", 0}, {"votesAbstain", 0}});
        else
            call("record_votes", {{"resolutionId", r["id"]}, {"votesFor", 0}, {"votesAgainst", present}, {"votesAbstain", 0}});
        call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
        clock.set(before);
        return call("get_meeting", {{"id", m["id"]}})["resolutions"].back();
    }
    // The events written for a record, oldest first (catalogue §6).
    std::vector<std::string> events_of(const std::string& record_id) {
        std::vector<std::string> out;
        SQLite::Statement q(db->sql(), "SELECT type FROM events WHERE record_id = ? ORDER BY seq");
        q.bind(1, record_id);
        while (q.executeStep()) out.push_back(q.getColumn(0).getString());
        return out;
    }
    std::string resolution_id(const std::string& majority = "simple", const std::string& outcome = "passed",
                              const std::string& type = "aga") {
        return resolution(majority, outcome, type)["id"];
    }
};

}  // namespace syndic::test
