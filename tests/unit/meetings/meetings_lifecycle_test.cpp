// The meetings module (interface 2.3-2.5; decisions 3): a meeting's record from create_meeting to
// get_meeting, list_meetings and update_meeting, the status that only moves forward, and another
// syndicate that sees none of it. Every call goes through the registry, as a client's would.
#include "meetings/meetings_fixture.hpp"

#include <chrono>
#include <initializer_list>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_lifecycle_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

std::vector<std::string> ids_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& m : list["data"]) out.push_back(m["id"].get<std::string>());
    return out;
}
std::vector<std::string> ids(std::initializer_list<json> records) {
    std::vector<std::string> out;
    for (const auto& r : records) out.push_back(r["id"].get<std::string>());
    return out;
}

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("create_meeting") {
    MeetingFixture fx;

    SUBCASE("a draft with every field, shown in Montreal time") {
        const auto m = fx.meeting({{"scheduledAt", "2026-12-16T00:00:00Z"}});
        CHECK(m["id"].get<std::string>().size() == 36);
        CHECK(m["title"] == meeting_title);
        CHECK(m["type"] == "aga");
        CHECK(m["status"] == "draft");
        CHECK(m["scheduledAt"] == "2026-12-15T19:00:00-05:00");
        CHECK(m["location"] == meeting_place);
        CHECK(m["agenda"] == json::array({"Ouverture de l'assemblée", "Adoption des états financiers",
                                          "Élection des administrateurs"}));
        CHECK(m["quorumPercent"] == 0);
        CHECK(m["notice"].is_null());
        CHECK(m["attendees"] == json::array());
        CHECK(m["resolutions"] == json::array());
        CHECK(m["documents"] == json::array());
        CHECK(m["createdAt"] == shown_now);
        CHECK(m["updatedAt"] == shown_now);
        CHECK(fx.get(m) == m);
    }
    SUBCASE("the agenda is optional; texts are trimmed") {
        const auto m = fx.call("create_meeting", {{"title", "  Conseil de décembre  "},
                                                  {"type", "board"},
                                                  {"scheduledAt", "2026-12-03T18:30:00-05:00"},
                                                  {"location", "https://meet.example.ca/conseil"}});
        CHECK(m["title"] == "Conseil de décembre");
        CHECK(m["type"] == "board");
        CHECK(m["agenda"] == json::array());
        CHECK(m["location"] == "https://meet.example.ca/conseil");
        CHECK(fx.meeting({{"type", "aga-special"}})["type"] == "aga-special");
    }
    SUBCASE("any offset is one instant, shown with Montreal's offset of that date") {
        CHECK(fx.meeting({{"scheduledAt", "2026-12-15T19:00:00-05:00"}})["scheduledAt"] == "2026-12-15T19:00:00-05:00");
        CHECK(fx.meeting({{"scheduledAt", "2026-12-16T01:00:00+01:00"}})["scheduledAt"] == "2026-12-15T19:00:00-05:00");
        // Summer: daylight saving time, -04:00.
        CHECK(fx.meeting({{"scheduledAt", "2027-07-15T23:00:00Z"}})["scheduledAt"] == "2027-07-15T19:00:00-04:00");
        CHECK(fx.meeting({{"scheduledAt", "2027-07-15T19:00:00-04:00"}})["scheduledAt"] == "2027-07-15T19:00:00-04:00");
        // Around the changes of 2027: 14 March (02:00 -> 03:00) and 7 November (02:00 -> 01:00).
        CHECK(fx.meeting({{"scheduledAt", "2027-03-14T06:30:00Z"}})["scheduledAt"] == "2027-03-14T01:30:00-05:00");
        CHECK(fx.meeting({{"scheduledAt", "2027-03-14T07:30:00Z"}})["scheduledAt"] == "2027-03-14T03:30:00-04:00");
        CHECK(fx.meeting({{"scheduledAt", "2027-11-07T05:30:00Z"}})["scheduledAt"] == "2027-11-07T01:30:00-04:00");
        CHECK(fx.meeting({{"scheduledAt", "2027-11-07T06:30:00Z"}})["scheduledAt"] == "2027-11-07T01:30:00-05:00");
    }
    SUBCASE("scheduledAt without an offset, or not a date-time, is VALIDATION_FAILED at /scheduledAt") {
        for (const char* when : {"2026-12-15T19:00:00", "2026-12-15", "15/12/2026 19:00", "tomorrow evening",
                                 "2026-02-30T19:00:00-05:00", "2026-12-15T25:00:00-05:00"}) {
            CAPTURE(when);
            json args = {{"title", meeting_title}, {"type", "aga"}, {"scheduledAt", when}, {"location", meeting_place}};
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", args);
            CHECK(has_error_on(fx.error("create_meeting", args), "/scheduledAt"));
        }
        CHECK(fx.count("SELECT count(*) FROM meetings WHERE syndicate_id = ?", fx.syndicate) == 0);
    }
    SUBCASE("schema rejection") {
        const json good = {{"title", meeting_title}, {"type", "aga"}, {"scheduledAt", meeting_time}, {"location", meeting_place}};
        auto with = [&](const char* key, json value) {
            json a = good;
            a[key] = std::move(value);
            return a;
        };
        auto without = [&](const char* key) {
            json a = good;
            a.erase(key);
            return a;
        };
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("type", "agm"));
        CHECK(has_error_on(fx.error("create_meeting", with("type", "agm")), "/type"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("title", "   "));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("title", ""));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("location", 12));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("agenda", json::array({"Ouverture", ""})));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("agenda", "Ouverture"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", with("status", "held"));
        for (const char* key : {"title", "type", "scheduledAt", "location"}) {
            CAPTURE(key);
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "create_meeting", without(key));
        }
    }
    SUBCASE("needs write:meetings") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:meetings"}, syndic::Role::admin};
        const syndic::CallerContext co_owners{fx.syndicate, "key-co", {"read:co-owners", "write:co-owners"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "create_meeting",
                         (json{{"title", "x"}, {"type", "aga"}, {"scheduledAt", meeting_time}, {"location", "y"}}));
        CHECK_REFUSED_AS(fx, co_owners, "INSUFFICIENT_SCOPE", "create_meeting",
                         (json{{"title", "x"}, {"type", "aga"}, {"scheduledAt", meeting_time}, {"location", "y"}}));
        const syndic::CallerContext writer{fx.syndicate, "key-writer", {"write:meetings"}, syndic::Role::member};
        CHECK(fx.meeting({}, &writer)["status"] == "draft");
    }
}

TEST_CASE("get_meeting") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("the full record: notice, attendees, resolutions, documents, quorumPercent") {
        fx.clock.advance(std::chrono::hours(1));
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Hélène Dubé"), absent(fx.marc)}));
        const auto r1 = fx.resolution(m, "Approbation des états financiers", "simple", "Il est résolu d'approuver.");
        const auto r2 = fx.resolution(m, "Travaux de toiture", "absolute");
        fx.votes(r1, 40, 11, 0);
        const auto doc = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});

        const auto g = fx.get(m);
        CHECK(g["id"] == m["id"]);
        CHECK(g["status"] == "notice-sent");
        CHECK(g["scheduledAt"] == meeting_time);
        CHECK(g["quorumPercent"] == 51);
        CHECK(g["createdAt"] == shown_now);
        CHECK(g["updatedAt"] == "2026-12-15T20:00:00-05:00");  // its votes, recorded on its day
        CHECK(g["notice"] == json{{"sentAt", "2026-11-21T11:00:00-05:00"},
                                  {"channel", "email"},
                                  {"includeAgenda", true},
                                  {"justification", nullptr}});
        // Attendees in register order (Bélanger, Côté, Gagnon), with their fractions.
        REQUIRE(g["attendees"].size() == 3);
        CHECK(g["attendees"][0] == json{{"coOwnerId", fx.emilie["id"]}, {"name", "Émilie Bélanger"},
                                        {"fractionPercent", 30}, {"attendance", "present"}, {"proxyHolder", nullptr}, {"votingSuspended", false}});
        CHECK(g["attendees"][1] == json{{"coOwnerId", fx.francois["id"]}, {"name", "François Côté"},
                                        {"fractionPercent", 21}, {"attendance", "proxy"}, {"proxyHolder", "Hélène Dubé"}, {"votingSuspended", false}});
        CHECK(g["attendees"][2] == json{{"coOwnerId", fx.marc["id"]}, {"name", "Marc Gagnon"},
                                        {"fractionPercent", 24}, {"attendance", "absent"}, {"proxyHolder", nullptr}, {"votingSuspended", false}});
        REQUIRE(g["resolutions"].size() == 2);
        CHECK(g["resolutions"][0]["id"] == r1["id"]);
        CHECK(g["resolutions"][0]["number"] == 1);
        CHECK(g["resolutions"][0]["description"] == "Il est résolu d'approuver.");
        CHECK(g["resolutions"][0]["votesFor"] == 40);
        CHECK(g["resolutions"][0]["votesAgainst"] == 11);
        CHECK(g["resolutions"][0]["votesRecorded"] == true);
        CHECK(g["resolutions"][0]["outcome"] == "passed");
        CHECK(g["resolutions"][1]["id"] == r2["id"]);
        CHECK(g["resolutions"][1]["outcome"] == "pending");
        REQUIRE(g["documents"].size() == 1);
        CHECK(g["documents"][0]["documentId"] == doc["documentId"]);
        CHECK(g["documents"][0]["kind"] == "minutes");
        CHECK(g["documents"][0]["draft"] == true);
        CHECK(g["documents"][0]["path"] == doc["path"]);
        CHECK(g["documents"][0]["sha256"] == doc["sha256"]);
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "get_meeting", (json{{"id", unknown_id}}));
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "get_meeting", (json{{"id", "not-a-uuid"}}));
        // A co-owner's id is not a meeting's.
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "get_meeting", (json{{"id", fx.emilie["id"]}}));
        CHECK(has_error_on(fx.error("get_meeting", {{"id", unknown_id}}), "/id"));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_meeting", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_meeting", (json{{"id", 7}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "get_meeting", (json{{"id", m["id"]}, {"full", true}}));
    }
    SUBCASE("read:meetings is enough, read:co-owners is not") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:meetings"}, syndic::Role::member};
        CHECK(fx.call_as(reader, "get_meeting", {{"id", m["id"]}})["id"] == m["id"]);
        const syndic::CallerContext other{fx.syndicate, "key-co", {"read:co-owners"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, other, "INSUFFICIENT_SCOPE", "get_meeting", (json{{"id", m["id"]}}));
    }
}

TEST_CASE("list_meetings") {
    Building fx;
    const auto aga = fx.meeting({{"title", "AGA 2026"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"}});
    const auto board_jan = fx.meeting({{"title", "Conseil de janvier"}, {"type", "board"}, {"scheduledAt", "2027-01-20T19:00:00-05:00"}});
    const auto special = fx.meeting({{"title", "AGE toiture"}, {"type", "aga-special"}, {"scheduledAt", "2027-02-10T19:00:00-05:00"}});
    const auto board_dec = fx.meeting({{"title", "Conseil de décembre"}, {"type", "board"}, {"scheduledAt", "2026-12-20T18:30:00-05:00"}});
    fx.notice(aga);
    fx.attend(aga, json::array({present(fx.emilie), absent(fx.marc)}));
    fx.resolution(aga, "Budget", "simple");
    fx.resolution(aga, "Toiture", "absolute");
    fx.resolution(aga, "Déclaration", "special");
    // Syndicate B's meeting never shows.
    fx.meeting({{"title", "Réunion de B"}, {"scheduledAt", "2027-01-01T12:00:00-05:00"}}, &fx.other_admin);

    SUBCASE("latest first, summaries with counts, the pagination envelope") {
        const auto list = fx.call("list_meetings");
        CHECK(ids_of(list) == ids({special, board_jan, board_dec, aga}));
        CHECK(list["pagination"] == json{{"page", 1}, {"pageSize", 50}, {"total", 4}});
        const auto& first_aga = list["data"][3];
        CHECK(first_aga["title"] == "AGA 2026");
        CHECK(first_aga["status"] == "notice-sent");
        CHECK(first_aga["scheduledAt"] == "2026-12-15T19:00:00-05:00");
        CHECK(first_aga["attendeeCount"] == 2);
        CHECK(first_aga["resolutionCount"] == 3);
        CHECK(first_aga["quorumPercent"] == 30);
        CHECK_FALSE(first_aga.contains("attendees"));
        CHECK(list["data"][0]["attendeeCount"] == 0);
        CHECK(list["data"][0]["resolutionCount"] == 0);
    }
    SUBCASE("filter on status and type") {
        CHECK(ids_of(fx.call("list_meetings", {{"status", "notice-sent"}})) == ids({aga}));
        CHECK(ids_of(fx.call("list_meetings", {{"status", "draft"}})) == ids({special, board_jan, board_dec}));
        CHECK(fx.call("list_meetings", {{"status", "held"}})["data"].empty());
        CHECK(fx.call("list_meetings", {{"status", "held"}})["pagination"]["total"] == 0);
        CHECK(ids_of(fx.call("list_meetings", {{"type", "board"}})) == ids({board_jan, board_dec}));
        CHECK(ids_of(fx.call("list_meetings", {{"type", "aga-special"}})) == ids({special}));
        CHECK(fx.call("list_meetings", {{"type", "board"}})["pagination"]["total"] == 2);
    }
    SUBCASE("a plain date filters whole days of Montreal's calendar") {
        // board_dec is at 18:30 in Montreal on December 20 (23:30 UTC).
        CHECK(ids_of(fx.call("list_meetings", {{"from", "2026-12-20"}, {"to", "2026-12-20"}})) == ids({board_dec}));
        CHECK(ids_of(fx.call("list_meetings", {{"from", "2026-12-21"}, {"to", "2026-12-31"}})).size() <
              ids_of(fx.call("list_meetings", {{"from", "2026-12-20"}})).size());
        CHECK(fx.call("list_meetings", {{"to", "2026-12-19"}, {"from", "2026-12-16"}})["data"].empty());
    }
    SUBCASE("filter on a range of dates, both ends included, any offset") {
        CHECK(ids_of(fx.call("list_meetings", {{"from", "2026-12-20T18:30:00-05:00"}})) ==
              ids({special, board_jan, board_dec}));
        CHECK(ids_of(fx.call("list_meetings", {{"from", "2026-12-20T23:30:00Z"}})) == ids({special, board_jan, board_dec}));
        CHECK(ids_of(fx.call("list_meetings", {{"from", "2026-12-20T18:30:01-05:00"}})) == ids({special, board_jan}));
        CHECK(ids_of(fx.call("list_meetings", {{"to", "2026-12-20T18:30:00-05:00"}})) == ids({board_dec, aga}));
        CHECK(ids_of(fx.call("list_meetings", {{"to", "2026-12-20T18:29:59-05:00"}})) == ids({aga}));
        const auto range = fx.call("list_meetings", {{"from", "2026-12-16T00:00:00-05:00"}, {"to", "2027-01-31T23:59:59-05:00"}});
        CHECK(ids_of(range) == ids({board_jan, board_dec}));
        CHECK(range["pagination"]["total"] == 2);
        CHECK(ids_of(fx.call("list_meetings", {{"type", "board"}, {"status", "draft"}, {"from", "2027-01-01T00:00:00-05:00"}})) ==
              ids({board_jan}));
        CHECK(fx.call("list_meetings", {{"from", "2027-03-01T00:00:00-05:00"}})["data"].empty());
    }
    SUBCASE("pagination") {
        const auto p1 = fx.call("list_meetings", {{"pageSize", 3}});
        CHECK(ids_of(p1) == ids({special, board_jan, board_dec}));
        CHECK(p1["pagination"] == json{{"page", 1}, {"pageSize", 3}, {"total", 4}});
        const auto p2 = fx.call("list_meetings", {{"pageSize", 3}, {"page", 2}});
        CHECK(ids_of(p2) == ids({aga}));
        CHECK(p2["pagination"] == json{{"page", 2}, {"pageSize", 3}, {"total", 4}});
        const auto p3 = fx.call("list_meetings", {{"pageSize", 3}, {"page", 3}});
        CHECK(p3["data"].empty());
        CHECK(p3["pagination"]["total"] == 4);
        const auto filtered = fx.call("list_meetings", {{"status", "draft"}, {"pageSize", 2}, {"page", 2}});
        CHECK(ids_of(filtered) == ids({board_dec}));
        CHECK(filtered["pagination"]["total"] == 3);
    }
    SUBCASE("a date without an offset is VALIDATION_FAILED") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"from", "2026-12-01T00:00:00"}}));
        CHECK(has_error_on(fx.error("list_meetings", {{"from", "2026-13-01"}}), "/from"));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"to", "December"}}));
        CHECK(has_error_on(fx.error("list_meetings", {{"to", "2026-12-01T00:00:00"}}), "/to"));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"status", "cancelled"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"type", "agm"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"pageSize", 0}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"pageSize", 201}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"page", 0}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_meetings", (json{{"search", "AGA"}}));
    }
}

TEST_CASE("update_meeting") {
    Building fx;
    const auto m = fx.meeting();
    auto set_status = [&](const json& meeting, const std::string& status) {
        return fx.call("update_meeting", {{"id", meeting["id"]}, {"status", status}});
    };
    auto refused_status = [&](const json& meeting, const std::string& status) {
        const json args = {{"id", meeting["id"]}, {"status", status}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", args);
        CHECK(has_error_on(fx.error("update_meeting", args), "/status"));
    };

    SUBCASE("a draft: title, location, agenda, type and scheduledAt change") {
        fx.clock.advance(std::chrono::hours(2));
        const auto u = fx.call("update_meeting", {{"id", m["id"]},
                                                  {"title", "AGA 2026 (reportée)"},
                                                  {"location", "https://meet.example.ca/aga"},
                                                  {"agenda", json::array({"Ouverture", "Budget"})},
                                                  {"type", "aga-special"},
                                                  {"scheduledAt", "2027-01-12T00:30:00Z"}});
        CHECK(u["title"] == "AGA 2026 (reportée)");
        CHECK(u["location"] == "https://meet.example.ca/aga");
        CHECK(u["agenda"] == json::array({"Ouverture", "Budget"}));
        CHECK(u["type"] == "aga-special");
        CHECK(u["scheduledAt"] == "2027-01-11T19:30:00-05:00");
        CHECK(u["status"] == "draft");
        CHECK(u["createdAt"] == shown_now);
        CHECK(u["updatedAt"] == "2026-11-21T12:00:00-05:00");
        CHECK(fx.get(m) == u);
        // Only what is given changes.
        const auto v = fx.call("update_meeting", {{"id", m["id"]}, {"title", "AGA 2026"}});
        CHECK(v["title"] == "AGA 2026");
        CHECK(v["location"] == "https://meet.example.ca/aga");
        CHECK(v["scheduledAt"] == "2027-01-11T19:30:00-05:00");
    }
    SUBCASE("scheduledAt without an offset is VALIDATION_FAILED") {
        const json args = {{"id", m["id"]}, {"scheduledAt", "2027-01-11T19:30:00"}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", args);
        CHECK(has_error_on(fx.error("update_meeting", args), "/scheduledAt"));
    }
    SUBCASE("draft -> notice-sent only through send_meeting_notice") {
        refused_status(m, "notice-sent");
        CHECK(fx.get(m)["status"] == "draft");
        CHECK(fx.count("SELECT count(*) FROM outbox WHERE meeting_id = ?", m["id"]) == 0);
    }
    SUBCASE("draft -> held and draft -> minutes-sent are refused") {
        refused_status(m, "held");
        refused_status(m, "minutes-sent");
        CHECK(fx.get(m)["status"] == "draft");
    }
    SUBCASE("notice-sent: title, location and agenda change; type and scheduledAt do not") {
        fx.notice(m);
        const auto u = fx.call("update_meeting", {{"id", m["id"]}, {"title", "AGA 2026 — salle B"},
                                                  {"location", "Salle B"}, {"agenda", json::array({"Ouverture"})}});
        CHECK(u["title"] == "AGA 2026 — salle B");
        CHECK(u["location"] == "Salle B");
        CHECK(u["agenda"] == json::array({"Ouverture"}));
        CHECK(u["status"] == "notice-sent");
        for (const auto& args : {json{{"id", m["id"]}, {"scheduledAt", "2026-12-16T19:00:00-05:00"}},
                                 json{{"id", m["id"]}, {"type", "board"}},
                                 json{{"id", m["id"]}, {"title", "x"}, {"type", "board"}}}) {
            CAPTURE(args.dump());
            CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", args);
        }
        CHECK(has_error_on(fx.error("update_meeting", {{"id", m["id"]}, {"type", "board"}}), "/type"));
        CHECK(has_error_on(fx.error("update_meeting", {{"id", m["id"]}, {"scheduledAt", meeting_time}}), "/scheduledAt"));
    }
    SUBCASE("notice-sent -> held; then never backwards") {
        fx.notice(m);
        refused_status(m, "draft");
        // The status it already has is accepted and changes nothing.
        CHECK(set_status(m, "notice-sent")["status"] == "notice-sent");
        CHECK(fx.count("SELECT count(*) FROM outbox WHERE meeting_id = ?", m["id"]) == 3);
        // A meeting is held on its day, not before.
        const json early = {{"id", m["id"]}, {"status", "held"}};
        CHECK_REFUSED(fx, "MEETING_NOT_YET_HELD", "update_meeting", early);
        CHECK(fx.error("update_meeting", early).figures().size() == 1);  // scheduledAt
        fx.clock.set(*syndic::parse_iso_instant("2026-12-15T00:00:00-05:00"));  // its first moment
        const auto h = set_status(m, "held");
        CHECK(h["status"] == "held");
        CHECK(fx.get(m)["status"] == "held");
        refused_status(m, "notice-sent");
        refused_status(m, "draft");
    }
    SUBCASE("held: title, location, agenda, type and scheduledAt no longer change") {
        fx.notice(m);
        fx.held(m);
        for (const auto& args : {json{{"id", m["id"]}, {"title", "Autre titre"}}, json{{"id", m["id"]}, {"location", "Ailleurs"}},
                                 json{{"id", m["id"]}, {"agenda", json::array({"Autre"})}},
                                 json{{"id", m["id"]}, {"type", "board"}},
                                 json{{"id", m["id"]}, {"scheduledAt", meeting_time}}}) {
            CAPTURE(args.dump());
            CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", args);
        }
        CHECK(has_error_on(fx.error("update_meeting", {{"id", m["id"]}, {"title", "Autre"}}), "/title"));
        CHECK(has_error_on(fx.error("update_meeting", {{"id", m["id"]}, {"location", "Ailleurs"}}), "/location"));
        CHECK(fx.get(m)["title"] == meeting_title);
    }
    SUBCASE("minutes-sent only through send_minutes, which sends them") {
        fx.notice(m);
        fx.held(m);
        refused_status(m, "minutes-sent");
        fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", false}});
        refused_status(m, "minutes-sent");  // final minutes or not: update_meeting never claims a sending
        CHECK(fx.get(m)["status"] == "held");
        const auto s = fx.call("send_minutes", {{"meetingId", m["id"]}})["meeting"];
        CHECK(s["status"] == "minutes-sent");
        CHECK(fx.get(m)["status"] == "minutes-sent");
        for (const char* back : {"held", "notice-sent", "draft"}) {
            CAPTURE(back);
            refused_status(m, back);
        }
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", (json{{"id", m["id"]}, {"title", "Autre"}}));
    }
    SUBCASE("final minutes of another meeting do not count") {
        const auto other = fx.meeting({{"title", "Autre assemblée"}});
        fx.notice(other);
        fx.notice(m);
        fx.held(other);
        fx.call("generate_minutes", {{"meetingId", other["id"]}});
        fx.held(m);
        CHECK_REFUSED(fx, "MINUTES_NOT_FINAL", "send_minutes", (json{{"meetingId", m["id"]}}));
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "update_meeting", (json{{"id", unknown_id}, {"title", "x"}}));
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "update_meeting", (json{{"id", unknown_id}, {"status", "held"}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"id", m["id"]}, {"status", "cancelled"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"id", m["id"]}, {"type", "agm"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"id", m["id"]}, {"title", "   "}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"id", m["id"]}, {"quorumPercent", 10}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_meeting", (json{{"title", "x"}}));
    }
}

TEST_CASE("tenancy: another syndicate sees none of the meetings") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), present(fx.john)}));
    const auto r = fx.resolution(m, "Budget", "simple");
    const auto draft = fx.meeting({{"title", "Brouillon"}, {"scheduledAt", "2027-01-19T19:00:00-05:00"}});
    const auto& b = fx.other_admin;

    CHECK(fx.call_as(b, "list_meetings")["data"].empty());
    CHECK(fx.call_as(b, "list_meetings")["pagination"]["total"] == 0);
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "get_meeting", (json{{"id", m["id"]}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "update_meeting", (json{{"id", m["id"]}, {"title", "Piraté"}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "update_meeting", (json{{"id", m["id"]}, {"status", "held"}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "send_meeting_notice", (json{{"meetingId", draft["id"]}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "add_resolution",
                     (json{{"meetingId", m["id"]}, {"title", "Piraté"}, {"majorityRequired", "simple"}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "record_attendance",
                     (json{{"meetingId", m["id"]}, {"attendees", json::array({absent(fx.emilie)})}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "calculate_quorum", (json{{"meetingId", m["id"]}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "generate_minutes", (json{{"meetingId", m["id"]}, {"draft", true}}));
    CHECK_REFUSED_AS(fx, b, "MEETING_NOT_FOUND", "generate_minutes", (json{{"meetingId", m["id"]}}));
    CHECK_REFUSED_AS(fx, b, "RESOLUTION_NOT_FOUND", "record_votes",
                     (json{{"resolutionId", r["id"]}, {"votesFor", 0}, {"votesAgainst", 55}, {"votesAbstain", 0}}));
    CHECK_REFUSED_AS(fx, b, "RESOLUTION_NOT_FOUND", "record_votes",
                     (json{{"resolutionId", r["id"]}, {"meetingId", m["id"]}, {"votesFor", 0}, {"votesAgainst", 55},
                           {"votesAbstain", 0}}));
    CHECK(fx.exported_files() == 0);

    // B's own meeting cannot take A's co-owners, and A's cannot take B's.
    const auto bm = fx.meeting({{"title", "Réunion de B"}}, &b);
    fx.call_as(b, "send_meeting_notice", {{"meetingId", bm["id"]}});
    CHECK_REFUSED_AS(fx, b, "CO_OWNER_NOT_FOUND", "record_attendance",
                     (json{{"meetingId", bm["id"]}, {"attendees", json::array({present(fx.emilie)})}}));
    // B's resolution is not found by A either, nor B's meeting.
    const auto br = fx.call_as(b, "add_resolution", {{"meetingId", bm["id"]}, {"title", "B"}, {"majorityRequired", "simple"}});
    CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes",
                  (json{{"resolutionId", br["id"]}, {"votesFor", 1}, {"votesAgainst", 0}, {"votesAbstain", 0}}));
    CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "get_meeting", (json{{"id", bm["id"]}}));
    CHECK(ids_of(fx.call("list_meetings")) == ids({draft, m}));
    CHECK(ids_of(fx.call_as(b, "list_meetings")) == ids({bm}));
    // B's notice went to nobody of A.
    CHECK(fx.count("SELECT count(*) FROM outbox WHERE meeting_id = ?", bm["id"]) == 0);

    // A's meeting is as it was.
    const auto g = fx.get(m);
    CHECK(g["title"] == meeting_title);
    CHECK(g["status"] == "notice-sent");
    CHECK(g["attendees"].size() == 2);
    CHECK(g["resolutions"].size() == 1);
    CHECK(g["resolutions"][0]["outcome"] == "pending");
}

}  // TEST_SUITE

}  // namespace meetings_lifecycle_test
