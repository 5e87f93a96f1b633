// A convened meeting that grows or fails (catalogue §3.2): add_agenda_item (a co-owner's question
// within 5 days of the notice, and the supplementary notice to everyone, art. 1088) and
// adjourn_meeting (a meeting without quorum reconvened, where those present form the quorum and
// absolute decisions need a majority of all votes, art. 1089).
#include "meetings/meetings_fixture.hpp"

#include <chrono>
#include <string>

#include "modules/governance/authorisation.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_convened_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;
using namespace std::chrono_literals;

namespace {

json agenda_item(Building& fx, const json& m, json extra) {
    json args = {{"meetingId", m["id"]}, {"text", "Installation de bornes de recharge"}};
    args.update(extra);
    return fx.call("add_agenda_item", args);
}

std::int64_t events_of(Building& fx, const std::string& type, const json& record) {
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM events WHERE type = ? AND record_id = ?");
    q.bind(1, type);
    q.bind(2, record.get<std::string>());
    q.executeStep();
    return q.getColumn(0).getInt64();
}

std::int64_t whole_figure(const syndic::DomainError& e, const std::string& key) {
    for (const auto& [k, v] : e.figures())
        if (k == key && std::holds_alternative<std::int64_t>(v)) return std::get<std::int64_t>(v);
    return -1;
}

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("add_agenda_item: the question goes on the agenda and every co-owner is told (art. 1088)") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);  // sent on 2026-11-21, Montreal
    const auto outbox_before = fx.count("SELECT count(*) FROM outbox WHERE meeting_id = ?", m["id"]);
    const auto r = agenda_item(fx, m, {{"requestedByCoOwnerId", fx.john["id"]}});
    const auto& meeting = r["meeting"];
    CHECK(meeting["agenda"].size() == 4);
    CHECK(meeting["agenda"][3] == "Installation de bornes de recharge");
    REQUIRE(meeting["agendaAdditions"].size() == 1);
    CHECK(meeting["agendaAdditions"][0] == json{{"text", "Installation de bornes de recharge"},
                                                {"requestedByCoOwnerId", fx.john["id"]},
                                                {"requestedOn", "2026-11-21"},
                                                {"supplementaryNoticeQueuedAt", shown_now}});
    CHECK(r["queued"] == 3);
    REQUIRE(r["withoutEmail"].size() == 1);
    CHECK(r["withoutEmail"][0]["coOwnerId"] == fx.marc["id"]);
    CHECK(fx.count("SELECT count(*) FROM outbox WHERE meeting_id = ?", m["id"]) == outbox_before + 3);
    // In each one's language, naming the question and the agenda as it stands.
    SQLite::Statement q(fx.db->sql(), "SELECT subject, body FROM outbox WHERE co_owner_id = ? AND subject LIKE 'Supplementary%'");
    q.bind(1, fx.john["id"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(contains(q.getColumn(0).getString(), meeting_title));
    CHECK(contains(q.getColumn(1).getString(), "Installation de bornes de recharge"));
    CHECK(contains(q.getColumn(1).getString(), "4. Installation de bornes de recharge"));
    CHECK(fx.count("SELECT count(*) FROM outbox WHERE co_owner_id = ? AND subject LIKE 'Avis supplémentaire%'",
                   fx.emilie["id"]) == 1);
    CHECK(events_of(fx, "meeting.agenda_item_added", m["id"]) == 1);
    CHECK(fx.get(m)["agenda"] == meeting["agenda"]);
}

TEST_CASE("add_agenda_item: a co-owner's request within 5 days of the notice, day 5 included") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);  // 2026-11-21 at 10:00 in Montreal
    SUBCASE("on the fifth day, late in the evening in Montreal: in time") {
        fx.clock.set(*syndic::parse_iso_instant("2026-11-26T23:30:00-05:00"));
        CHECK(agenda_item(fx, m, {{"requestedByCoOwnerId", fx.john["id"]}})["meeting"]["agendaAdditions"][0]["requestedOn"] ==
              "2026-11-26");
    }
    SUBCASE("on the sixth day, just after midnight in Montreal: too late") {
        fx.clock.set(*syndic::parse_iso_instant("2026-11-27T00:00:00-05:00"));
        const json args = {{"meetingId", m["id"]}, {"text", "Question"}, {"requestedByCoOwnerId", fx.john["id"]}};
        CHECK_REFUSED(fx, "AGENDA_REQUEST_TOO_LATE", "add_agenda_item", args);
        const auto e = fx.error("add_agenda_item", args);
        CHECK(whole_figure(e, "daysSinceNotice") == 6);
        CHECK(whole_figure(e, "maximumDays") == 5);
        // The board may still add it.
        CHECK(fx.call("add_agenda_item", {{"meetingId", m["id"]}, {"text", "Question"}})["meeting"]["agendaAdditions"][0]
                  ["requestedByCoOwnerId"]
                  .is_null());
    }
    SUBCASE("requestedOn says when the request came: day 5 in time, day 6 not") {
        fx.clock.set(*syndic::parse_iso_instant("2026-12-01T12:00:00-05:00"));
        CHECK_NOTHROW(agenda_item(fx, m, {{"requestedByCoOwnerId", fx.john["id"]}, {"requestedOn", "2026-11-26"}}));
        const json late = {{"meetingId", m["id"]}, {"text", "Q"}, {"requestedByCoOwnerId", fx.john["id"]},
                           {"requestedOn", "2026-11-27"}};
        CHECK_REFUSED(fx, "AGENDA_REQUEST_TOO_LATE", "add_agenda_item", late);
        // Not before the notice, not after today.
        CHECK(fx.error("add_agenda_item", {{"meetingId", m["id"]}, {"text", "Q"}, {"requestedOn", "2026-11-20"}}).code() ==
              "VALIDATION_FAILED");
        CHECK(fx.error("add_agenda_item", {{"meetingId", m["id"]}, {"text", "Q"}, {"requestedOn", "2026-12-02"}}).code() ==
              "VALIDATION_FAILED");
    }
    SUBCASE("counted from receipt: a notice by mail (no e-mail) is received 3 days after it was sent") {
        fx.clock.set(*syndic::parse_iso_instant("2026-11-29T12:00:00-05:00"));
        // Marc has no e-mail: received on 11-24, so 11-29 is his fifth day; John's e-mail came on 11-21.
        CHECK_NOTHROW(agenda_item(fx, m, {{"requestedByCoOwnerId", fx.marc["id"]}}));
        const json john = {{"meetingId", m["id"]}, {"text", "Q"}, {"requestedByCoOwnerId", fx.john["id"]}};
        CHECK_REFUSED(fx, "AGENDA_REQUEST_TOO_LATE", "add_agenda_item", john);
        CHECK(whole_figure(fx.error("add_agenda_item", john), "daysSinceNotice") == 8);
        fx.clock.set(*syndic::parse_iso_instant("2026-11-30T12:00:00-05:00"));
        const json marc = {{"meetingId", m["id"]}, {"text", "Q"}, {"requestedByCoOwnerId", fx.marc["id"]}};
        CHECK_REFUSED(fx, "AGENDA_REQUEST_TOO_LATE", "add_agenda_item", marc);
        // noticeReceivedOn overrides both (John's e-mail read on the 26th), never before the sending.
        json read_late = john;
        read_late["noticeReceivedOn"] = "2026-11-26";
        CHECK_NOTHROW(fx.call("add_agenda_item", read_late));
        read_late["noticeReceivedOn"] = "2026-11-20";
        CHECK(fx.error("add_agenda_item", read_late).field() == "/noticeReceivedOn");
    }
}

TEST_CASE("add_agenda_item: refusals") {
    Building fx;
    const auto m = fx.meeting();
    const json args = {{"meetingId", m["id"]}, {"text", "Question"}};
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_agenda_item", args);  // a draft: no notice yet
    fx.notice(m);
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "add_agenda_item",
                  (json{{"meetingId", m["id"]}, {"text", "Q"}, {"requestedByCoOwnerId", unknown_id}}));
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "add_agenda_item",
                  (json{{"meetingId", m["id"]}, {"text", "Q"}, {"requestedByCoOwnerId", fx.zoe["id"]}}));  // archived
    CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "add_agenda_item", (json{{"meetingId", unknown_id}, {"text", "Q"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "MEETING_NOT_FOUND", "add_agenda_item", args);
    CHECK(fx.error("add_agenda_item", {{"meetingId", m["id"]}}).code() == "VALIDATION_FAILED");
    CHECK(fx.error("add_agenda_item", {{"meetingId", m["id"]}, {"text", "   "}}).code() == "VALIDATION_FAILED");
    fx.held(m);
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_agenda_item", args);
    const auto board = fx.meeting({{"type", "board"}, {"scheduledAt", "2027-01-20T19:00:00-05:00"}});
    fx.notice(board);
    CHECK_REFUSED(fx, "NOT_A_GENERAL_MEETING", "add_agenda_item", (json{{"meetingId", board["id"]}, {"text", "Q"}}));
}

TEST_CASE("adjourn_meeting: for want of quorum, the reconvened meeting copies the agenda and what is undecided") {
    Building fx;
    const auto m = fx.meeting();
    const auto decided = fx.resolution(m, "États financiers", "simple");
    const auto pending = fx.resolution(m, "Toiture", "absolute", "Texte");
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), absent(fx.john)}));  // 30 of 51
    fx.votes(decided, 30, 0, 0);
    const json args = {{"meetingId", m["id"]}, {"reason", "no-quorum"}, {"reconveneAt", "2027-01-12T19:00:00-05:00"},
                       {"location", "Salle B"}};
    const auto r = fx.call("adjourn_meeting", args);
    const auto& original = r["adjourned"];
    const auto& again = r["reconvened"];
    CHECK(original["status"] == "held");
    CHECK(original["reconvenedMeetingId"] == again["id"]);
    CHECK(original["adjournment"] == json{{"reason", "no-quorum"}, {"justification", nullptr}});
    CHECK(again["status"] == "draft");
    CHECK(again["quorumRule"] == "adjourned");
    CHECK(again["adjournedFromMeetingId"] == m["id"]);
    CHECK(again["title"] == meeting_title);
    CHECK(again["location"] == "Salle B");
    CHECK(again["scheduledAt"] == "2027-01-12T19:00:00-05:00");
    CHECK(again["agenda"] == m["agenda"]);
    REQUIRE(again["resolutions"].size() == 1);
    CHECK(again["resolutions"][0]["title"] == "Toiture");
    CHECK(again["resolutions"][0]["majorityRequired"] == "absolute");
    CHECK(again["resolutions"][0]["description"] == "Texte");
    CHECK(again["resolutions"][0]["number"] == 1);
    CHECK(again["resolutions"][0]["id"] != pending["id"]);
    CHECK(events_of(fx, "meeting.adjourned", m["id"]) == 1);
    CHECK(events_of(fx, "meeting.created", again["id"]) == 1);
    CHECK(fx.get(m)["reconvenedMeetingId"] == again["id"]);
    // Once is enough.
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "adjourn_meeting", args);
}

TEST_CASE("adjourn_meeting: refusals") {
    Building fx;
    const auto m = fx.meeting();
    json args = {{"meetingId", m["id"]}, {"reason", "no-quorum"}, {"reconveneAt", "2027-01-12T19:00:00-05:00"},
                 {"location", "Salle B"}};
    CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "adjourn_meeting", args);  // a draft
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Émilie Bélanger")}));  // 51 of 51
    CHECK_REFUSED(fx, "MEETING_NOT_YET_HELD", "adjourn_meeting", args);  // adjourning holds it: on its day
    fx.on_meeting_day(m);
    CHECK_REFUSED(fx, "QUORUM_REACHED", "adjourn_meeting", args);
    CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "adjourn_meeting", (json{{"meetingId", unknown_id}, {"reason", "other"},
                                                                   {"reconveneAt", "2027-01-12T19:00:00-05:00"},
                                                                   {"location", "x"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "MEETING_NOT_FOUND", "adjourn_meeting", args);
    args["reason"] = "other";
    CHECK(fx.error("adjourn_meeting", args).code() == "VALIDATION_FAILED");  // a justification is needed
    args["justification"] = "Panne d'électricité";
    args["reconveneAt"] = "2026-12-15T18:00:00-05:00";
    CHECK(fx.error("adjourn_meeting", args).code() == "VALIDATION_FAILED");  // before the meeting itself
    args["reason"] = "adjourned";
    CHECK(fx.error("adjourn_meeting", args).code() == "VALIDATION_FAILED");  // the schema's enum
    // A quorum lost is checked as a quorum never reached: the departures are recorded first (absent),
    // then the quorum must be short. Another reason keeps the ordinary quorum at the reconvened meeting.
    args["reason"] = "quorum-lost";
    args["reconveneAt"] = "2027-01-12T19:00:00-05:00";
    CHECK_REFUSED(fx, "QUORUM_REACHED", "adjourn_meeting", args);
    fx.attend(m, json::array({absent(fx.francois)}));  // François leaves: 30 of 51
    CHECK(fx.call("adjourn_meeting", args)["reconvened"]["quorumRule"] == "adjourned");
    fx.clock.set(fixed_now());
    const auto other = fx.meeting();
    fx.notice(other);
    fx.on_meeting_day(other);
    const auto r = fx.call("adjourn_meeting", {{"meetingId", other["id"]}, {"reason", "other"}, {"justification", "Panne"},
                                               {"reconveneAt", "2027-01-12T19:00:00-05:00"}, {"location", "x"}});
    CHECK(r["reconvened"]["quorumRule"] == "standard");
    CHECK(r["adjourned"]["adjournment"]["justification"] == "Panne");
}

TEST_CASE("the reconvened meeting: those present form the quorum; absolute decisions need a majority of all votes") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.on_meeting_day(m);
    const auto again = fx.call("adjourn_meeting", {{"meetingId", m["id"]}, {"reason", "no-quorum"},
                                                   {"reconveneAt", "2027-01-12T19:00:00-05:00"}, {"location", "Salle B"}})["reconvened"];
    fx.notice(again);
    const auto simple = fx.resolution(again, "Entretien", "simple");
    const auto absolute = fx.resolution(again, "Toiture", "absolute");
    CHECK(fx.quorum(again)["quorumReached"] == false);  // nobody present or represented yet
    fx.attend(again, json::array({present(fx.john)}));  // 25 of 100
    auto q = fx.quorum(again);
    CHECK(q["rule"] == "adjourned");
    CHECK(q["quorumReached"] == true);
    CHECK(q["required"] == 0);
    CHECK(q["total"] == 25);
    CHECK(q["majorityOfAllVotes"] == false);
    CHECK(fx.votes(simple, 25, 0, 0)["outcome"] == "passed");
    CHECK(fx.votes(absolute, 25, 0, 0)["outcome"] == "rejected");  // all for, but 25 is no majority of all votes
    // 49 of 100 is no majority; 70 is.
    fx.attend(again, json::array({present(fx.marc), absent(fx.emilie)}));  // 25 + 24 = 49
    CHECK(fx.quorum(again)["majorityOfAllVotes"] == false);
    fx.attend(again, json::array({present(fx.francois)}));  // 70
    CHECK(fx.quorum(again)["majorityOfAllVotes"] == true);
    CHECK(fx.votes(absolute, 70, 0, 0)["outcome"] == "passed");
    fx.held(again);
    // Those present held the majority of all votes: the absolute resolution authorises an absolute act.
    const json none = json::object();
    const syndic::CallControl control;
    const syndic::ToolCall call{none, fx.admin, *fx.db, fx.clock, fx.registry, control};
    const auto a = syndic::governance::require_passed_resolution(
        call, absolute["id"], syndic::governance::DecisionBody::general, "absolute", "/resolutionId");
    CHECK(a.resolution_id == absolute["id"].get<std::string>());
    CHECK(a.meeting_id == again["id"].get<std::string>());
}

}  // TEST_SUITE

}  // namespace meetings_convened_test
