// The meetings module's notice (interface 2.3, 4.3; decisions 6): send_meeting_notice's 21 days,
// the aga-special exception and its justification, the outbox of one message per co-owner in their
// language, and what review found around notices. Every call goes through the registry.
#include "meetings/meetings_fixture.hpp"

#include <chrono>
#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace meetings_notice_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

struct OutboxRow {
    std::string co_owner_id, recipient, language, subject, body, channel, status;
};
std::vector<OutboxRow> outbox_of(MeetingFixture& fx, const json& m) {
    std::vector<OutboxRow> out;
    SQLite::Statement q(fx.db->sql(),
                        "SELECT co_owner_id, recipient, language, subject, body, channel, status FROM outbox "
                        "WHERE meeting_id = ? ORDER BY recipient");
    q.bind(1, m["id"].get<std::string>());
    while (q.executeStep())
        out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getString(),
                       q.getColumn(3).getString(), q.getColumn(4).getString(), q.getColumn(5).getString(),
                       q.getColumn(6).getString()});
    return out;
}

}  // namespace

TEST_SUITE("meetings") {

TEST_CASE("send_meeting_notice") {
    Building fx;
    // Tuesday 15 December 2026 at 19:00 in Montreal = 2026-12-16T00:00:00Z.
    const auto deadline = at("2026-12-16T00:00:00Z") - std::chrono::hours(24 * 21);

    SUBCASE("21 days minus an hour is too short; exactly 21 days is enough") {
        const auto m = fx.meeting({{"scheduledAt", "2026-12-16T00:00:00Z"}});
        fx.clock.set(deadline + std::chrono::hours(1));  // 20 days 23 hours ahead
        const json args = {{"meetingId", m["id"]}};
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", args);
        const auto e = fx.error("send_meeting_notice", args);
        const auto days = figure(e, "daysAhead");
        REQUIRE(days.has_value());
        CHECK(*days == doctest::Approx(20.95).epsilon(0.001));
        CHECK(*days < 21);
        CHECK(fx.get(m)["status"] == "draft");
        CHECK(fx.get(m)["notice"].is_null());

        fx.clock.set(deadline + std::chrono::seconds(1));  // one second short
        const auto e2 = fx.error("send_meeting_notice", args);
        CHECK(e2.code() == "NOTICE_PERIOD_TOO_SHORT");
        REQUIRE(figure(e2, "daysAhead").has_value());
        CHECK(*figure(e2, "daysAhead") < 21);

        fx.clock.set(deadline);  // exactly 21 days
        const auto sent = fx.notice(m);
        CHECK(sent["meeting"]["status"] == "notice-sent");
        CHECK(sent["meeting"]["notice"]["sentAt"] == "2026-11-24T19:00:00-05:00");
    }
    SUBCASE("aga gets no exception, even with a justification") {
        fx.clock.set(deadline + std::chrono::hours(24 * 10));
        const auto m = fx.meeting({{"type", "aga"}});
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", (json{{"meetingId", m["id"]}}));
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice",
                      (json{{"meetingId", m["id"]}, {"justification", "Urgence : fuite d'eau majeure au toit."}}));
        CHECK(figure(fx.error("send_meeting_notice", {{"meetingId", m["id"]}}), "requiredDays") == 21);
    }
    SUBCASE("a board meeting needs the declaration's boardNoticeDays (2 unless it says otherwise), not 21") {
        fx.clock.set(deadline + std::chrono::hours(24 * 10));  // 11 days ahead: enough for a board
        CHECK(fx.notice(fx.meeting({{"type", "board"}}))["meeting"]["status"] == "notice-sent");
        fx.clock.set(at("2026-12-14T01:00:00Z"));  // 1 day 23 hours ahead: short of 2 days
        const auto m = fx.meeting({{"type", "board"}});
        const json args = {{"meetingId", m["id"]}};
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", args);
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice",
                      (json{{"meetingId", m["id"]}, {"justification", "Urgence : fuite d'eau majeure au toit."}}));
        CHECK(figure(fx.error("send_meeting_notice", args), "requiredDays") == 2);
        fx.clock.set(at("2026-12-14T00:00:00Z"));  // exactly 2 days
        CHECK(fx.notice(m)["meeting"]["status"] == "notice-sent");
        // A by-law asking 14 days makes 11 days short.
        fx.call("update_declaration", {{"boardNoticeDays", 14}});
        fx.clock.set(deadline + std::chrono::hours(24 * 10));
        const auto later = fx.meeting({{"type", "board"}});
        const auto e = fx.error("send_meeting_notice", {{"meetingId", later["id"]}});
        CHECK(e.code() == "NOTICE_PERIOD_TOO_SHORT");
        CHECK(figure(e, "requiredDays") == 14);
    }
    SUBCASE("aga-special on short notice needs a non-empty justification, which is recorded") {
        fx.clock.set(deadline + std::chrono::hours(24 * 14));  // 7 days ahead
        const auto m = fx.meeting({{"type", "aga-special"}, {"title", "Assemblée extraordinaire — toiture"}});
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", (json{{"meetingId", m["id"]}}));
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice",
                      (json{{"meetingId", m["id"]}, {"justification", ""}}));
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice",
                      (json{{"meetingId", m["id"]}, {"justification", "  \t "}}));
        const auto e = fx.error("send_meeting_notice", {{"meetingId", m["id"]}});
        REQUIRE(figure(e, "daysAhead").has_value());
        CHECK(*figure(e, "daysAhead") == doctest::Approx(7).epsilon(0.001));

        const std::string why = "Infiltration d'eau par la toiture : des travaux urgents doivent être votés.";
        const auto sent = fx.notice(m, {{"justification", "  " + why + " "}});
        CHECK(sent["meeting"]["status"] == "notice-sent");
        CHECK(sent["meeting"]["notice"]["justification"] == why);
        CHECK(fx.get(m)["notice"]["justification"] == why);
        // The co-owners are told why.
        for (const auto& row : outbox_of(fx, m)) {
            CAPTURE(row.recipient);
            CHECK(contains(row.body, why));
        }
    }
    SUBCASE("the notice is recorded and one message per active co-owner with an e-mail is queued") {
        const auto m = fx.meeting();
        fx.clock.advance(std::chrono::minutes(30));
        const auto sent = fx.notice(m, {{"sendBy", "email"}, {"includeAgenda", true}});
        CHECK(sent["queued"] == 3);
        REQUIRE(sent["withoutEmail"].size() == 1);
        CHECK(sent["withoutEmail"][0] == json{{"coOwnerId", fx.marc["id"]}, {"name", "Marc Gagnon"}});
        CHECK(sent["meeting"]["notice"] == json{{"sentAt", "2026-11-21T10:30:00-05:00"},
                                                {"channel", "email"},
                                                {"includeAgenda", true},
                                                {"justification", nullptr}});
        CHECK(sent["meeting"]["status"] == "notice-sent");
        CHECK(sent["meeting"]["updatedAt"] == "2026-11-21T10:30:00-05:00");
        CHECK(fx.get(m) == sent["meeting"]);

        const auto rows = outbox_of(fx, m);
        REQUIRE(rows.size() == 3);
        // Ordered by recipient: emilie..., francois..., john...; the archived Zoé gets nothing.
        CHECK(rows[0].recipient == "emilie.belanger@example.ca");
        CHECK(rows[0].co_owner_id == fx.emilie["id"].get<std::string>());
        CHECK(rows[0].language == "fr");
        CHECK(rows[1].recipient == "francois.cote@example.ca");
        CHECK(rows[1].language == "fr");
        CHECK(rows[2].recipient == "john.smith@example.com");
        CHECK(rows[2].co_owner_id == fx.john["id"].get<std::string>());
        CHECK(rows[2].language == "en");
        CHECK(fx.count("SELECT count(*) FROM outbox WHERE recipient = ?", "zoe.archambault@example.ca") == 0);
        CHECK(fx.count("SELECT count(*) FROM outbox WHERE co_owner_id = ?", fx.marc["id"]) == 0);
        for (const auto& row : rows) {
            CAPTURE(row.recipient);
            CHECK(row.channel == "email");
            CHECK(row.status == "queued");
            CHECK(contains(row.subject, meeting_title));
            CHECK(contains(row.body, meeting_place));
        }
        for (const auto* row : {&rows[0], &rows[1]}) {
            CAPTURE(row->recipient);
            CHECK(contains(row->subject, "Avis de convocation"));
            CHECK(contains(row->body, "mardi 15 décembre 2026 à 19 h 00"));
            CHECK(contains(row->body, "Ordre du jour"));
            CHECK(contains(row->body, "Adoption des états financiers"));
            CHECK(contains(row->body, "Élection des administrateurs"));
            CHECK_FALSE(contains(row->body, "Notice of meeting"));
            CHECK_FALSE(contains(row->body, "Tuesday"));
        }
        CHECK(contains(rows[0].body, "Émilie Bélanger"));
        CHECK(contains(rows[1].body, "François Côté"));
        CHECK(contains(rows[2].subject, "Notice of meeting"));
        CHECK(contains(rows[2].body, "John Smith"));
        CHECK(contains(rows[2].body, "Tuesday, December 15, 2026 at 7:00 PM"));
        CHECK(contains(rows[2].body, "Agenda"));
        CHECK(contains(rows[2].body, "Adoption des états financiers"));
        CHECK_FALSE(contains(rows[2].subject, "Avis de convocation"));
        CHECK_FALSE(contains(rows[2].body, "décembre"));
    }
    SUBCASE("without the agenda") {
        const auto m = fx.meeting();
        const auto sent = fx.notice(m, {{"includeAgenda", false}});
        CHECK(sent["meeting"]["notice"]["includeAgenda"] == false);
        const auto rows = outbox_of(fx, m);
        REQUIRE(rows.size() == 3);
        for (const auto& row : rows) {
            CAPTURE(row.recipient);
            CHECK_FALSE(contains(row.body, "Ordre du jour"));
            CHECK_FALSE(contains(row.body, "Agenda"));
            CHECK_FALSE(contains(row.body, "Adoption des états financiers"));
        }
    }
    SUBCASE("a summer meeting is told in daylight time") {
        const auto m = fx.meeting({{"scheduledAt", "2027-07-15T23:00:00Z"}});
        fx.notice(m);
        const auto rows = outbox_of(fx, m);
        REQUIRE(rows.size() == 3);
        CHECK(contains(rows[0].body, "jeudi 15 juillet 2027 à 19 h 00"));
        CHECK(contains(rows[2].body, "Thursday, July 15, 2027 at 7:00 PM"));
    }
    SUBCASE("a meeting whose time has passed gets no notice, not even aga-special with a justification") {
        const auto m = fx.meeting({{"type", "aga-special"}});
        fx.clock.set(at("2026-12-16T00:00:00Z") + std::chrono::minutes(1));
        const json args = {{"meetingId", m["id"]}, {"justification", "Urgence : dégât d'eau."}};
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", args);
        const auto e = fx.error("send_meeting_notice", args);
        REQUIRE(figure(e, "daysAhead").has_value());
        CHECK(*figure(e, "daysAhead") < 0);
        fx.clock.set(at("2026-12-16T00:00:00Z"));  // the very moment: not to come any more
        CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", args);
    }
    SUBCASE("a second notice is refused") {
        const auto m = fx.meeting();
        fx.notice(m);
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "send_meeting_notice", (json{{"meetingId", m["id"]}}));
        fx.held(m);
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "send_meeting_notice", (json{{"meetingId", m["id"]}}));
        CHECK(outbox_of(fx, m).size() == 3);
    }
    SUBCASE("nobody to write to: nothing queued, everyone listed") {
        MeetingFixture empty;
        const auto u = empty.unit("1", 100);
        empty.co_owner(u["id"], "Gérard", "Lévesque", {{"fractionPercent", 100}});
        const auto m = empty.meeting();
        const auto sent = empty.notice(m);
        CHECK(sent["queued"] == 0);
        REQUIRE(sent["withoutEmail"].size() == 1);
        CHECK(sent["withoutEmail"][0]["name"] == "Gérard Lévesque");
        CHECK(empty.count("SELECT count(*) FROM outbox WHERE meeting_id = ?", m["id"]) == 0);
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "send_meeting_notice", (json{{"meetingId", unknown_id}}));
        CHECK(has_error_on(fx.error("send_meeting_notice", {{"meetingId", unknown_id}}), "/meetingId"));
    }
    SUBCASE("schema rejection") {
        const auto m = fx.meeting();
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "send_meeting_notice", (json{{"meetingId", m["id"]}, {"sendBy", "fax"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "send_meeting_notice", (json{{"meetingId", m["id"]}, {"includeAgenda", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "send_meeting_notice", (json{{"meetingId", m["id"]}, {"urgent", true}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "send_meeting_notice", json::object());
        CHECK(fx.get(m)["status"] == "draft");
    }
}

// Found in review: each SUBCASE is a behaviour a board would notice.
TEST_CASE("review: notices across a change of time, stale minutes, justifications, wording, odd input") {
    Building fx;
    SUBCASE("21 days are counted on Montreal's calendar across the change to daylight saving time") {
        fx.clock.set(*syndic::parse_iso_instant("2027-02-21T19:00:00-05:00"));
        const auto m = fx.meeting({{"scheduledAt", "2027-03-14T19:00:00-04:00"}});  // 20 days 23 hours later
        CHECK(fx.notice(m)["meeting"]["status"] == "notice-sent");
    }
    SUBCASE("...and across the return to standard time") {
        fx.clock.set(*syndic::parse_iso_instant("2027-10-17T19:30:00-04:00"));
        const auto m = fx.meeting({{"scheduledAt", "2027-11-07T19:00:00-05:00"}});  // 21 days and 30 minutes later
        const auto e = fx.error("send_meeting_notice", {{"meetingId", m["id"]}});
        CHECK(e.code() == "NOTICE_PERIOD_TOO_SHORT");
        CHECK(figure(e, "daysAhead").value_or(0) < 21);
    }
    SUBCASE("minutes-sent needs final minutes as the meeting now stands") {
        const auto m = fx.meeting({{"scheduledAt", "2027-01-15T19:00:00-05:00"}});
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), present(fx.francois), present(fx.john)}));
        const auto r = fx.resolution(m, "Budget", "simple");
        fx.votes(r, 60, 16, 0);
        fx.held(m);
        fx.clock.advance(std::chrono::seconds(1));
        fx.call("generate_minutes", {{"meetingId", m["id"]}});
        fx.clock.advance(std::chrono::seconds(1));
        fx.votes(r, 10, 66, 0);  // corrected after the minutes were written
        CHECK_REFUSED(fx, "MINUTES_NOT_FINAL", "send_minutes", (json{{"meetingId", m["id"]}}));
        fx.clock.advance(std::chrono::seconds(1));
        fx.call("generate_minutes", {{"meetingId", m["id"]}});
        CHECK(fx.call("send_minutes", {{"meetingId", m["id"]}})["meeting"]["status"] == "minutes-sent");
    }
    SUBCASE("a justification is kept only when it explains a short notice") {
        const auto m = fx.meeting({{"type", "aga-special"}, {"scheduledAt", "2027-01-15T19:00:00-05:00"}});
        const auto sent = fx.notice(m, {{"justification", "Pourquoi pas"}});
        CHECK(sent["meeting"]["notice"]["justification"].is_null());
        for (const auto& row : outbox_of(fx, m)) CHECK(row.body.find("Pourquoi pas") == std::string::npos);
    }
    SUBCASE("a board meeting's notice informs co-owners and offers no proxy") {
        const auto m = fx.meeting({{"type", "board"}, {"scheduledAt", "2027-01-15T19:00:00-05:00"}});
        fx.notice(m);
        for (const auto& row : outbox_of(fx, m)) {
            CHECK(row.body.find("procuration") == std::string::npos);
            CHECK(row.body.find("proxy") == std::string::npos);
        }
    }
    SUBCASE("setting the status a meeting already has changes nothing, not even updatedAt") {
        const auto m = fx.meeting();
        fx.clock.advance(std::chrono::hours(1));
        const auto same = fx.call("update_meeting", {{"id", m["id"]}, {"status", "draft"}});
        CHECK(same["updatedAt"] == m["updatedAt"]);
    }
    SUBCASE("RFC 3339 forms are understood; impossible offsets and years are not") {
        CHECK(fx.meeting({{"scheduledAt", "2027-01-15t19:00:00.123456-05:00"}})["scheduledAt"] == "2027-01-15T19:00:00-05:00");
        CHECK(fx.meeting({{"scheduledAt", "2027-01-16T00:00:00z"}})["scheduledAt"] == "2027-01-15T19:00:00-05:00");
        for (const char* bad : {"2027-01-15T19:00:00+99:00", "0001-01-01T00:00:00Z"})
            CHECK(fx.error("create_meeting", {{"title", "X"}, {"type", "aga"}, {"scheduledAt", bad}, {"location", "Salle"}}).code() ==
                  "VALIDATION_FAILED");
    }
    SUBCASE("control characters in a resolution are refused; its line breaks and tabs reach the minutes") {
        const auto m = fx.meeting({{"scheduledAt", "2027-01-15T19:00:00-05:00"}});
        // U+0000 and every other C0/C1 control but tab, LF and CR, DEL and bidi overrides are
        // VALIDATION_FAILED in any string argument (docs/decisions.md, issue 15), so they never
        // reach the minutes; a multi-line field ("x-multiline" in its schema) keeps its lines.
        for (const std::string& bad : {std::string("avant") + '\0' + "après", std::string("avant\x01après"),
                                      std::string("avant\x1b[31mapr\xC3\xA8s"), std::string("avant\x7f"),
                                      std::string("avant\xC2\x85" "apr\xC3\xA8s"), std::string("avant\xE2\x80\xAE" "apr\xC3\xA8s")})
            CHECK(has_error_on(fx.error("add_resolution", {{"meetingId", m["id"]}, {"title", "Texte"}, {"majorityRequired", "simple"},
                                                           {"description", bad}}),
                               "/description"));
        CHECK(has_error_on(fx.error("add_resolution", {{"meetingId", m["id"]}, {"title", "Deux\nlignes"}, {"majorityRequired", "simple"},
                                                       {"description", "x"}}),
                           "/title"));
        fx.call("add_resolution", {{"meetingId", m["id"]}, {"title", "Texte"}, {"majorityRequired", "simple"},
                                   {"description", "Ligne 1\r\nLigne 2 avant NUL\tapr\xC3\xA8s le NUL"}});
        const auto doc = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        const std::string path = doc["path"];
        FILE* pipe = popen(("pdftotext '" + path + "' - 2>/dev/null").c_str(), "r");
        REQUIRE(pipe != nullptr);
        std::string text;
        char buffer[4096];
        while (const auto n = fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
        pclose(pipe);
        CHECK(text.find("Ligne 2 avant NUL") != std::string::npos);
        CHECK(text.find("après le NUL") != std::string::npos);
    }
}

}  // TEST_SUITE

}  // namespace meetings_notice_test
