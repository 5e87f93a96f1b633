// What the declaration tests share: resolutions of a general or board meeting put to a majority,
// passed, rejected or still pending, on a meeting of 2026-12-15 (the fixture's clock is
// 2026-11-21, so the 21-day notice goes out), and the units of a small building.
#pragma once
#include "fixture.hpp"

#include <string>

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
    // A resolution put to `majority`: "passed" (every vote for), "rejected" or "pending".
    json resolution(const std::string& majority = "simple", const std::string& outcome = "passed",
                    const std::string& type = "aga") {
        const auto m = meeting(type);
        const auto r = call("add_resolution", {{"meetingId", m["id"]}, {"title", "Décision"}, {"majorityRequired", majority}});
        if (outcome == "passed")
            call("record_votes", {{"resolutionId", r["id"]}, {"votesFor", 90}, {"votesAgainst", 0}, {"votesAbstain", 0}});
        else if (outcome == "rejected")
            call("record_votes", {{"resolutionId", r["id"]}, {"votesFor", 10}, {"votesAgainst", 80}, {"votesAbstain", 0}});
        return r;
    }
    std::string resolution_id(const std::string& majority = "simple", const std::string& outcome = "passed",
                              const std::string& type = "aga") {
        return resolution(majority, outcome, type)["id"];
    }
};

}  // namespace syndic::test
