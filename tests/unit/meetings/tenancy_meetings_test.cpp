// Tenancy (decisions 4) of the meetings module, what the catalogue sweep (tenancy_sweep_test.cpp)
// cannot express: list filters, and what B's own meetings, notices, attendance, resolutions, votes
// and minutes do beside A's, which B reaches for from there.
#include "tenancy_fixture.hpp"

#include "storage/settings.hpp"

#include <string>
#include <tuple>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace tenancy_meetings_test {

using namespace syndic::test;
using namespace syndic::test::tenancy_fixture;

namespace {

// A's meetings in each state, with what they bring (attendance, resolutions, votes, minutes, the
// outbox), and B's own small building and meeting: B reaches for A's meetings from there.
struct WithMeetings : TwoSyndicates {
    json draft;    // A's draft meeting
    json held;     // A's held meeting: notice sent, Marie present, a resolution voted, final minutes
    json open;     // A's board meeting whose notice was sent, with a pending resolution
    json voted, pending;  // A's resolutions of `held` and `open`
    json minutes;         // A's final minutes of `held`
    json b101, b_luc, b_meeting, b_resolution;

    json meeting_as(const syndic::CallerContext& who, const std::string& title, const std::string& when,
                    const std::string& type = "aga") {
        return call_as(who, "create_meeting",
                       {{"title", title}, {"type", type}, {"scheduledAt", when}, {"location", "Salle communautaire"},
                        {"agenda", json::array({"Ouverture", "Budget"})}});
    }

    WithMeetings() {
        syndic::set_setting(*db, syndicate, "requiredQuorumPercent", 60, "2026-11-21T15:00:00.000Z");
        draft = meeting_as(admin, "Brouillon de A", "2027-01-19T19:00:00-05:00");
        held = meeting_as(admin, "AGA de A", "2026-12-15T19:00:00-05:00");
        call("send_meeting_notice", {{"meetingId", held["id"]}});
        call("record_attendance", {{"meetingId", held["id"]},
                                   {"attendees", json::array({json{{"coOwnerId", marie["id"]}, {"attendance", "present"}}})}});
        voted = call("add_resolution", {{"meetingId", held["id"]}, {"title", "Budget de A"}, {"majorityRequired", "simple"}});
        clock.set(*syndic::parse_iso_instant("2026-12-15T20:00:00-05:00"));  // held on its day
        call("record_votes", {{"resolutionId", voted["id"]}, {"votesFor", 60}, {"votesAgainst", 0}, {"votesAbstain", 0}});
        call("update_meeting", {{"id", held["id"]}, {"status", "held"}});
        minutes = call("generate_minutes", {{"meetingId", held["id"]}});
        clock.set(fixed_now());
        held = call("get_meeting", {{"id", held["id"]}});
        open = meeting_as(admin, "Conseil de A", "2026-12-16T19:00:00-05:00", "board");
        call("send_meeting_notice", {{"meetingId", open["id"]}});
        pending = call("add_resolution", {{"meetingId", open["id"]}, {"title", "Toiture"}, {"majorityRequired", "absolute"}});
        open = call("get_meeting", {{"id", open["id"]}});
        draft = call("get_meeting", {{"id", draft["id"]}});

        b101 = as_b("create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 100}});
        b_luc = as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"},
                                         {"email", "luc@example.org"}, {"fractionPercent", 100}});
        b_meeting = meeting_as(other_admin, "AGA de B", "2026-12-15T19:00:00-05:00");
        as_b("send_meeting_notice", {{"meetingId", b_meeting["id"]}});
        b_resolution = as_b("add_resolution", {{"meetingId", b_meeting["id"]}, {"title", "Budget de B"},
                                               {"majorityRequired", "simple"}});
        REQUIRE(held["status"] == "held");
        REQUIRE(held["documents"].size() == 1);
        REQUIRE(exported_file_count() == 1);
    }
};

json present(const json& co_owner) { return {{"coOwnerId", co_owner["id"]}, {"attendance", "present"}}; }
json votes(const json& resolution, double yes) {
    return {{"resolutionId", resolution["id"]}, {"votesFor", yes}, {"votesAgainst", 0}, {"votesAbstain", 0}};
}

}  // namespace

TEST_SUITE("tenancy") {

TEST_CASE("list_meetings: B sees none of A's meetings, under any filter") {
    WithMeetings fx;
    REQUIRE(fx.call("list_meetings")["pagination"]["total"] == 3);
    const auto before = fx.state();
    for (const auto& args : {json::object(), json{{"status", "held"}}, json{{"status", "draft"}}, json{{"type", "board"}},
                             json{{"from", "2026-12-01"}, {"to", "2027-12-31"}}, json{{"from", "2027-01-19"}},
                             json{{"pageSize", 200}, {"page", 1}}}) {
        CAPTURE(args.dump());
        const auto list = fx.as_b("list_meetings", args);
        for (const auto& m : list["data"]) CHECK(m["id"] == fx.b_meeting["id"]);
        CHECK(list["pagination"]["total"] == list["data"].size());
    }
    CHECK(fx.as_b("list_meetings", {{"status", "held"}})["data"].empty());
    CHECK(fx.as_b("list_meetings", {{"type", "board"}})["data"].empty());
    const auto all_b = fx.as_b("list_meetings");
    REQUIRE(all_b["data"].size() == 1);
    CHECK(all_b["data"][0]["id"] == fx.b_meeting["id"]);
    CHECK(all_b["data"][0]["resolutionCount"] == 1);
    CHECK(fx.state() == before);
}

TEST_CASE("get_meeting, calculate_quorum: B's own meeting shows B's records and B's quorum alone") {
    WithMeetings fx;
    // B's own meeting shows B's alone; its quorum counts B's attendance against B's 51 %, not A's 60 %.
    const auto b = fx.as_b("get_meeting", {{"id", fx.b_meeting["id"]}});
    CHECK(b["attendees"].empty());
    CHECK(b["documents"].empty());
    REQUIRE(b["resolutions"].size() == 1);
    CHECK(b["resolutions"][0]["id"] == fx.b_resolution["id"]);
    const auto q = fx.as_b("calculate_quorum", {{"meetingId", fx.b_meeting["id"]}});
    CHECK(q["required"] == 51);
    CHECK(q["total"] == 0);
    CHECK(fx.call("calculate_quorum", {{"meetingId", fx.held["id"]}})["required"] == 60);
    CHECK(fx.call("get_meeting", {{"id", fx.held["id"]}}) == fx.held);
}

TEST_CASE("create_meeting: B's meeting is B's; A's list and rows stay as they were") {
    WithMeetings fx;
    const auto before = fx.rows_of_a();
    const auto a_list = fx.call("list_meetings");
    // The same title, type and time as A's held meeting.
    const auto m = fx.meeting_as(fx.other_admin, "AGA de A", "2026-12-15T19:00:00-05:00");
    CHECK(m["id"] != fx.held["id"]);
    CHECK(m["status"] == "draft");
    CHECK(m["attendees"].empty());
    CHECK(m["resolutions"].empty());
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("list_meetings") == a_list);
    CHECK(fx.error("get_meeting", {{"id", m["id"]}}).code() == "MEETING_NOT_FOUND");
}

TEST_CASE("update_meeting: B can change none of A's meetings, nor learn their status") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("update_meeting", {{"id", id}, {"title", "Piraté"}}, id, "MEETING_NOT_FOUND");
        fx.check_as_missing("update_meeting", {{"id", id}, {"scheduledAt", "2027-02-02T19:00:00-05:00"}}, id,
                            "MEETING_NOT_FOUND");
        fx.check_as_missing("update_meeting", {{"id", id}, {"agenda", json::array({"Piraté"})}}, id, "MEETING_NOT_FOUND");
        // For A these would be refused as INVALID_STATUS_TRANSITION (with the status) or done.
        for (const char* status : {"draft", "notice-sent", "held", "minutes-sent"})
            fx.check_as_missing("update_meeting", {{"id", id}, {"status", status}}, id, "MEETING_NOT_FOUND");
    }
    CHECK(fx.error("update_meeting", {{"id", fx.held["id"]}, {"status", "draft"}}).code() == "INVALID_STATUS_TRANSITION");
}

TEST_CASE("send_meeting_notice: B sends no notice for A's meetings, to anyone") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        // With the arguments that could shorten the notice period (the sweep sends only meetingId).
        fx.check_as_missing("send_meeting_notice",
                            {{"meetingId", id}, {"includeAgenda", false}, {"justification", "Urgence"}}, id,
                            "MEETING_NOT_FOUND");
    }
    // B's own notice goes to B's co-owners only.
    const auto a_before = fx.rows_of_a();
    const auto bm = fx.meeting_as(fx.other_admin, "Deuxième de B", "2027-01-19T19:00:00-05:00");
    const auto sent = fx.as_b("send_meeting_notice", {{"meetingId", bm["id"]}});
    CHECK(sent["queued"] == 1);
    CHECK(sent["withoutEmail"].empty());
    SQLite::Statement q(fx.db->sql(), "SELECT recipient, syndicate_id, co_owner_id FROM outbox WHERE meeting_id = ?");
    q.bind(1, bm["id"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == "luc@example.org");
    CHECK(q.getColumn(1).getString() == fx.other_syndicate);
    CHECK(q.getColumn(2).getString() == fx.b_luc["id"].get<std::string>());
    CHECK_FALSE(q.executeStep());
    CHECK(fx.rows_of_a() == a_before);
}

TEST_CASE("record_attendance: A's co-owners attend none of B's meetings, even after one of B's own") {
    WithMeetings fx;
    // A's co-owners, active or archived, at B's meeting: not found, as a missing co-owner, even
    // after one of B's own; and B's meeting keeps no attendance of the refused call.
    for (const auto* a : {&fx.marie, &fx.jean}) {
        fx.check_as_missing("record_attendance",
                            {{"meetingId", fx.b_meeting["id"]},
                             {"attendees", json::array({present(fx.b_luc),
                                                        json{{"coOwnerId", (*a)["id"]}, {"attendance", "proxy"},
                                                             {"proxyHolder", "Eve"}}})}},
                            (*a)["id"], "CO_OWNER_NOT_FOUND");
    }
    CHECK(fx.as_b("get_meeting", {{"id", fx.b_meeting["id"]}})["attendees"].empty());
    const auto r = fx.as_b("record_attendance", {{"meetingId", fx.b_meeting["id"]}, {"attendees", json::array({present(fx.b_luc)})}});
    REQUIRE(r["attendees"].size() == 1);
    CHECK(r["quorum"]["total"] == 100);
}

TEST_CASE("add_resolution: B's resolutions are numbered in B's meeting alone") {
    WithMeetings fx;
    // B's resolutions are numbered in B's meeting alone.
    const auto r = fx.as_b("add_resolution", {{"meetingId", fx.b_meeting["id"]}, {"title", "Deux"}, {"majorityRequired", "simple"}});
    CHECK(r["number"] == 2);
}

TEST_CASE("record_votes: B votes on its own resolution") {
    WithMeetings fx;
    fx.as_b("record_attendance", {{"meetingId", fx.b_meeting["id"]}, {"attendees", json::array({present(fx.b_luc)})}});
    fx.clock.set(*syndic::parse_iso_instant("2026-12-15T20:00:00-05:00"));
    const auto r = fx.as_b("record_votes", votes(fx.b_resolution, 60));
    CHECK(r["outcome"] == "passed");
    CHECK(r["quorum"]["votesPresent"] == 100);  // B's Luc alone, none of A's co-owners
}

TEST_CASE("generate_minutes: B's minutes are B's document, none of A's") {
    WithMeetings fx;
    CHECK(fx.exported_file_count() == 1);
    // B's own minutes: B's document, none of A's.
    const auto a_before = fx.rows_of_a();
    const auto doc = fx.as_b("generate_minutes", {{"meetingId", fx.b_meeting["id"]}, {"draft", true}});
    CHECK(fx.exported_file_count() == 2);
    const auto b = fx.as_b("get_meeting", {{"id", fx.b_meeting["id"]}});
    REQUIRE(b["documents"].size() == 1);
    CHECK(b["documents"][0]["documentId"] == doc["documentId"]);
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.call("get_meeting", {{"id", fx.held["id"]}})["documents"] == fx.held["documents"]);
}

TEST_CASE("A's own calls find nothing of B's either") {
    WithMeetings fx;
    const auto b_before = fx.rows_of(fx.other_syndicate);
    for (const auto& probe :
         std::vector<std::tuple<std::string, json, std::string>>{
             {"get_meeting", {{"id", fx.b_meeting["id"]}}, "MEETING_NOT_FOUND"},
             {"update_meeting", {{"id", fx.b_meeting["id"]}, {"title", "x"}}, "MEETING_NOT_FOUND"},
             {"calculate_quorum", {{"meetingId", fx.b_meeting["id"]}}, "MEETING_NOT_FOUND"},
             {"generate_minutes", {{"meetingId", fx.b_meeting["id"]}, {"draft", true}}, "MEETING_NOT_FOUND"},
             {"record_votes", votes(fx.b_resolution, 1), "RESOLUTION_NOT_FOUND"},
             {"record_attendance", {{"meetingId", fx.held["id"]}, {"attendees", json::array({present(fx.b_luc)})}}, "CO_OWNER_NOT_FOUND"},
             {"get_co_owner", {{"id", fx.b_luc["id"]}}, "CO_OWNER_NOT_FOUND"},
             {"get_unit", {{"id", fx.b101["id"]}}, "UNIT_NOT_FOUND"}}) {
        const auto& tool = std::get<0>(probe);
        CAPTURE(tool);
        CHECK(fx.error(tool, std::get<1>(probe)).code() == std::get<2>(probe));
    }
    CHECK(fx.rows_of(fx.other_syndicate) == b_before);
}

}  // TEST_SUITE

}  // namespace tenancy_meetings_test
