// The meetings module (interface 2.3-2.5, 3 and 4.3; decisions 3 and 6; issue 3): scheduling a
// meeting, its notice and the outbox, attendance and quorum, resolutions and their votes, the
// status that only moves forward, and the minutes as a real PDF read back with poppler-utils.
// Every call goes through the registry, as a client's would.
#include "fixture.hpp"
#include "modules/documents/document_files.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

using namespace syndic::test;
namespace fs = std::filesystem;

namespace {

const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
const std::string shown_now = "2026-11-21T10:00:00-05:00";  // fixed_now() in America/Montreal
// The default meeting: Tuesday 15 December 2026 at 19:00 in Montreal (24 days after fixed_now()).
const std::string meeting_time = "2026-12-15T19:00:00-05:00";
const std::string meeting_title = "Assemblée générale annuelle 2026";
const std::string meeting_place = "Salle communautaire, 1200 rue Sherbrooke Est, Montréal";



bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Every run of white space (line ends and page breaks included) as one space, so a phrase that
// the PDF wrapped across lines still reads as one.
std::string squash(const std::string& text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// The standard output of a shell command, which must succeed.
std::string run(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
    const int status = pclose(pipe);
    CHECK_MESSAGE(status == 0, command);
    return out;
}

// The text of a PDF as poppler reads it (its warnings are checked apart, by pdf_complaints).
std::string pdf_text(const std::string& path) { return run("pdftotext -enc UTF-8 '" + path + "' - 2>/dev/null"); }
std::string pdf_page_text(const std::string& path, int page) {
    const auto p = std::to_string(page);
    return run("pdftotext -enc UTF-8 -f " + p + " -l " + p + " '" + path + "' - 2>/dev/null");
}
// What poppler says on reading the PDF's text and fonts: nothing, for a well-formed file.
std::string pdf_complaints(const std::string& path) {
    return run("pdftotext -enc UTF-8 '" + path + "' /dev/null 2>&1") + run("pdffonts '" + path + "' 2>&1 >/dev/null");
}
int pdf_pages(const std::string& path) {
    const auto info = run("pdfinfo '" + path + "' 2>/dev/null");
    const auto at_pages = info.find("Pages:");
    REQUIRE(at_pages != std::string::npos);
    return std::stoi(info.substr(at_pages + 6));
}
std::string file_sha256(const std::string& path) { return run("sha256sum '" + path + "'").substr(0, 64); }

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

// The fixture with its own exports folder, and a snapshot that also covers the meeting tables
// and the exported files, so CHECK_REFUSED (which calls fx.snapshot()) proves that a refused
// meeting call changed nothing either.
struct MeetingFixture : Fixture {
    std::string data_dir;

    MeetingFixture() {
        char pattern[] = "/tmp/syndic-meetings-test-XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        data_dir = made;
        db->set_data_dir(data_dir);
    }
    ~MeetingFixture() {
        std::error_code ignored;
        fs::remove_all(data_dir, ignored);
    }
    MeetingFixture(const MeetingFixture&) = delete;
    MeetingFixture& operator=(const MeetingFixture&) = delete;

    std::string exports() const { return (fs::path(data_dir) / "exports").string(); }

    // The database (every table, from the Fixture) and the files under exports/.
    std::string snapshot() {
        std::string out = Fixture::snapshot();
        std::error_code ec;
        std::vector<std::string> files;
        if (fs::exists(exports(), ec))
            for (const auto& entry : fs::directory_iterator(exports()))
                files.push_back(entry.path().filename().string() + ":" + std::to_string(entry.file_size()));
        std::sort(files.begin(), files.end());
        for (const auto& f : files) out += f + "\n";
        return out;
    }

    std::int64_t count(const std::string& sql, const std::string& bound) {
        SQLite::Statement q(db->sql(), sql);
        q.bind(1, bound);
        q.executeStep();
        return q.getColumn(0).getInt64();
    }
    std::int64_t exported_files() {
        std::error_code ec;
        if (!fs::exists(exports(), ec)) return 0;
        return std::distance(fs::directory_iterator(exports()), fs::directory_iterator());
    }

    // A meeting with sensible defaults; `extra` adds or overrides arguments.
    json meeting(json extra = json::object(), const syndic::CallerContext* who = nullptr) {
        json args = {{"title", meeting_title},
                     {"type", "aga"},
                     {"scheduledAt", meeting_time},
                     {"location", meeting_place},
                     {"agenda", json::array({"Ouverture de l'assemblée", "Adoption des états financiers",
                                             "Élection des administrateurs"})}};
        if (extra.is_object()) args.update(extra);
        return call_as(who ? *who : admin, "create_meeting", args);
    }
    json notice(const json& m, json extra = json::object()) {
        json args = {{"meetingId", m["id"]}};
        args.update(extra);
        return call("send_meeting_notice", args);
    }
    json held(const json& m) { return call("update_meeting", {{"id", m["id"]}, {"status", "held"}}); }
    json get(const json& m) { return call("get_meeting", {{"id", m["id"]}}); }
    json resolution(const json& m, const std::string& title, const std::string& majority,
                    const std::string& description = "") {
        json args = {{"meetingId", m["id"]}, {"title", title}, {"majorityRequired", majority}};
        if (!description.empty()) args["description"] = description;
        return call("add_resolution", args);
    }
    json votes(const json& r, double yes, double no, double abstain) {
        return call("record_votes",
                    {{"resolutionId", r["id"]}, {"votesFor", yes}, {"votesAgainst", no}, {"votesAbstain", abstain}});
    }
    json attend(const json& m, json rows) { return call("record_attendance", {{"meetingId", m["id"]}, {"attendees", rows}}); }
    json quorum(const json& m) { return call("calculate_quorum", {{"meetingId", m["id"]}}); }
};

json present(const json& co_owner) { return {{"coOwnerId", co_owner["id"]}, {"attendance", "present"}}; }
json absent(const json& co_owner) { return {{"coOwnerId", co_owner["id"]}, {"attendance", "absent"}}; }
json by_proxy(const json& co_owner, const std::string& holder) {
    return {{"coOwnerId", co_owner["id"]}, {"attendance", "proxy"}, {"proxyHolder", holder}};
}

// A building of four units (30 + 21 + 25 + 24 = 100) and their co-owners: two French speakers
// with an e-mail, an English speaker with one, one without e-mail, and an archived co-owner.
struct Building : MeetingFixture {
    json u101, u102, u201, u202;
    json emilie, francois, john, marc, zoe;

    Building() {
        u101 = unit("101", 30);
        u102 = unit("102", 21);
        u201 = unit("201", 25);
        u202 = unit("202", 24);
        emilie = co_owner(u101["id"], "Émilie", "Bélanger",
                          {{"email", "emilie.belanger@example.ca"}, {"fractionPercent", 30}, {"language", "fr"},
                           {"isPrimary", true}});
        francois = co_owner(u102["id"], "François", "Côté", {{"email", "francois.cote@example.ca"}, {"fractionPercent", 21}});
        john = co_owner(u201["id"], "John", "Smith",
                        {{"email", "john.smith@example.com"}, {"fractionPercent", 25}, {"language", "en"}});
        marc = co_owner(u202["id"], "Marc", "Gagnon", {{"fractionPercent", 24}});
        zoe = co_owner(u202["id"], "Zoé", "Archambault", {{"email", "zoe.archambault@example.ca"}, {"fractionPercent", 0}});
        call("delete_co_owner", {{"id", zoe["id"]}});
    }
};

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
        CHECK(g["updatedAt"] == "2026-11-21T11:00:00-05:00");
        CHECK(g["notice"] == json{{"sentAt", "2026-11-21T11:00:00-05:00"},
                                  {"channel", "email"},
                                  {"includeAgenda", true},
                                  {"justification", nullptr}});
        // Attendees in register order (Bélanger, Côté, Gagnon), with their fractions.
        REQUIRE(g["attendees"].size() == 3);
        CHECK(g["attendees"][0] == json{{"coOwnerId", fx.emilie["id"]}, {"name", "Émilie Bélanger"},
                                        {"fractionPercent", 30}, {"attendance", "present"}, {"proxyHolder", nullptr}});
        CHECK(g["attendees"][1] == json{{"coOwnerId", fx.francois["id"]}, {"name", "François Côté"},
                                        {"fractionPercent", 21}, {"attendance", "proxy"}, {"proxyHolder", "Hélène Dubé"}});
        CHECK(g["attendees"][2] == json{{"coOwnerId", fx.marc["id"]}, {"name", "Marc Gagnon"},
                                        {"fractionPercent", 24}, {"attendance", "absent"}, {"proxyHolder", nullptr}});
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
    SUBCASE("held -> minutes-sent only once final minutes exist") {
        fx.notice(m);
        fx.held(m);
        refused_status(m, "minutes-sent");
        // A draft is not the final minutes.
        fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        refused_status(m, "minutes-sent");
        CHECK(fx.get(m)["status"] == "held");
        fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", false}});
        const auto s = set_status(m, "minutes-sent");
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
        fx.held(other);
        fx.call("generate_minutes", {{"meetingId", other["id"]}});
        fx.notice(m);
        fx.held(m);
        refused_status(m, "minutes-sent");
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
    SUBCASE("aga and board get no exception, even with a justification") {
        fx.clock.set(deadline + std::chrono::hours(24 * 10));
        for (const char* type : {"aga", "board"}) {
            CAPTURE(type);
            const auto m = fx.meeting({{"type", type}});
            CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice", (json{{"meetingId", m["id"]}}));
            CHECK_REFUSED(fx, "NOTICE_PERIOD_TOO_SHORT", "send_meeting_notice",
                          (json{{"meetingId", m["id"]}, {"justification", "Urgence : fuite d'eau majeure au toit."}}));
        }
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

TEST_CASE("record_attendance") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("refused while the meeting is a draft") {
        const json args = {{"meetingId", m["id"]}, {"attendees", json::array({present(fx.emilie)})}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_attendance", args);
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("present, by proxy and absent; the result carries the quorum") {
        fx.notice(m);
        const auto r = fx.attend(m, json::array({absent(fx.marc), by_proxy(fx.francois, "Émilie Bélanger"), present(fx.emilie)}));
        REQUIRE(r["attendees"].size() == 3);
        CHECK(r["attendees"][0]["name"] == "Émilie Bélanger");
        CHECK(r["attendees"][0]["attendance"] == "present");
        CHECK(r["attendees"][0]["proxyHolder"].is_null());
        CHECK(r["attendees"][1]["name"] == "François Côté");
        CHECK(r["attendees"][1]["attendance"] == "proxy");
        CHECK(r["attendees"][1]["proxyHolder"] == "Émilie Bélanger");
        CHECK(r["attendees"][1]["fractionPercent"] == 21);
        CHECK(r["attendees"][2]["name"] == "Marc Gagnon");
        CHECK(r["attendees"][2]["attendance"] == "absent");
        CHECK(r["quorum"] == json{{"present", 30}, {"proxied", 21}, {"total", 51}, {"required", 51}, {"quorumReached", true}});
        CHECK(r["quorumPercent"] == 51);
        CHECK(fx.get(m)["attendees"] == r["attendees"]);
        // Later calls add to the list.
        const auto more = fx.attend(m, json::array({present(fx.john)}));
        CHECK(more["attendees"].size() == 4);
        CHECK(more["quorum"]["present"] == 55);
        CHECK(more["quorum"]["total"] == 76);
    }
    SUBCASE("also once the meeting is held") {
        fx.notice(m);
        fx.held(m);
        CHECK(fx.attend(m, json::array({present(fx.john)}))["attendees"].size() == 1);
    }
    SUBCASE("re-recording a co-owner replaces their line") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), present(fx.john)}));
        const auto r = fx.attend(m, json::array({by_proxy(fx.emilie, "Hélène Dubé")}));
        REQUIRE(r["attendees"].size() == 2);
        CHECK(r["attendees"][0]["coOwnerId"] == fx.emilie["id"]);
        CHECK(r["attendees"][0]["attendance"] == "proxy");
        CHECK(r["attendees"][0]["proxyHolder"] == "Hélène Dubé");
        CHECK(r["quorum"]["present"] == 25);
        CHECK(r["quorum"]["proxied"] == 30);
        const auto back = fx.attend(m, json::array({present(fx.emilie)}));
        CHECK(back["attendees"][0]["attendance"] == "present");
        CHECK(back["attendees"][0]["proxyHolder"].is_null());
        CHECK(fx.count("SELECT count(*) FROM meeting_attendees WHERE meeting_id = ?", m["id"]) == 2);
    }
    SUBCASE("name and fraction are kept as recorded, even when the co-owner changes or is archived") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Marc Gagnon")}));
        fx.call("update_co_owner", {{"id", fx.emilie["id"]}, {"lastName", "Bélanger-Roy"}, {"fractionPercent", 25}});
        fx.call("delete_co_owner", {{"id", fx.francois["id"]}});
        const auto g = fx.get(m);
        REQUIRE(g["attendees"].size() == 2);
        CHECK(g["attendees"][0]["name"] == "Émilie Bélanger");
        CHECK(g["attendees"][0]["fractionPercent"] == 30);
        CHECK(g["attendees"][1]["name"] == "François Côté");
        CHECK(g["attendees"][1]["fractionPercent"] == 21);
        CHECK(fx.quorum(m)["total"] == 51);
        CHECK(g["quorumPercent"] == 51);
        // Recording Émilie again takes her name and fraction as they are now.
        const auto again = fx.attend(m, json::array({present(fx.emilie)}));
        CHECK(again["attendees"][0]["name"] == "Émilie Bélanger-Roy");
        CHECK(again["attendees"][0]["fractionPercent"] == 25);
    }
    SUBCASE("proxy needs a proxyHolder; present and absent take none") {
        fx.notice(m);
        for (const auto& row : {json{{"coOwnerId", fx.emilie["id"]}, {"attendance", "proxy"}},
                                json{{"coOwnerId", fx.emilie["id"]}, {"attendance", "proxy"}, {"proxyHolder", nullptr}},
                                json{{"coOwnerId", fx.emilie["id"]}, {"attendance", "proxy"}, {"proxyHolder", "   "}}}) {
            CAPTURE(row.dump());
            const json args = {{"meetingId", m["id"]}, {"attendees", json::array({present(fx.john), row})}};
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", args);
            CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/1/proxyHolder"));
        }
        for (const char* attendance : {"present", "absent"}) {
            CAPTURE(attendance);
            const json args = {{"meetingId", m["id"]},
                               {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]},
                                                           {"attendance", attendance},
                                                           {"proxyHolder", "Hélène Dubé"}}})}};
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", args);
            CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/0/proxyHolder"));
        }
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("a co-owner listed twice is refused") {
        fx.notice(m);
        const json args = {{"meetingId", m["id"]},
                           {"attendees", json::array({present(fx.emilie), present(fx.john), absent(fx.emilie)})}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", args);
        CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/2/coOwnerId"));
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("CO_OWNER_NOT_FOUND: unknown, archived, or another syndicate's; nothing of the call is kept") {
        fx.notice(m);
        const auto b_unit = fx.call_as(fx.other_admin, "create_unit", {{"number", "101"}, {"type", "apartment"}});
        const auto b_owner = fx.call_as(fx.other_admin, "create_co_owner",
                                        {{"unitId", b_unit["id"]}, {"firstName", "Paul"}, {"lastName", "Roy"}});
        for (const auto& id : {json(unknown_id), fx.zoe["id"], b_owner["id"], fx.u101["id"]}) {
            CAPTURE(id.dump());
            const json args = {{"meetingId", m["id"]},
                               {"attendees", json::array({present(fx.emilie), {{"coOwnerId", id}, {"attendance", "present"}}})}};
            CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "record_attendance", args);
            CHECK(has_error_on(fx.error("record_attendance", args), "/attendees/1/coOwnerId"));
        }
        CHECK(fx.get(m)["attendees"].empty());
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "record_attendance",
                      (json{{"meetingId", unknown_id}, {"attendees", json::array({present(fx.emilie)})}}));
    }
    SUBCASE("schema rejection") {
        fx.notice(m);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]}, {"attendees", json::array()}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]},
                            {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]}, {"attendance", "late"}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]}, {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance",
                      (json{{"meetingId", m["id"]},
                            {"attendees", json::array({{{"coOwnerId", fx.emilie["id"]}, {"attendance", "present"}, {"seat", 4}}})}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_attendance", (json{{"meetingId", m["id"]}}));
    }
}

TEST_CASE("calculate_quorum") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("nothing recorded: nobody, required 51, not reached") {
        CHECK(fx.quorum(m) == json{{"present", 0}, {"proxied", 0}, {"total", 0}, {"required", 51}, {"quorumReached", false}});
    }
    SUBCASE("present + proxied against the required quorum; absent counts for nothing") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Émilie Bélanger"), absent(fx.marc),
                                  absent(fx.john)}));
        // 30 + 21 = 51: exactly the required quorum is reached.
        CHECK(fx.quorum(m) == json{{"present", 30}, {"proxied", 21}, {"total", 51}, {"required", 51}, {"quorumReached", true}});
        CHECK(fx.get(m)["quorumPercent"] == 51);

        // François's share becomes 20.999999: once recorded again, 50.999999 is not enough.
        fx.call("update_co_owner", {{"id", fx.francois["id"]}, {"fractionPercent", 20.999999}});
        CHECK(fx.quorum(m)["total"] == 51);  // attendance keeps what was recorded
        fx.attend(m, json::array({by_proxy(fx.francois, "Émilie Bélanger")}));
        const auto q = fx.quorum(m);
        CHECK(q["present"] == 30);
        CHECK(q["proxied"] == 20.999999);
        CHECK(q["total"] == 50.999999);
        CHECK(q["required"] == 51);
        CHECK(q["quorumReached"] == false);
        CHECK(fx.get(m)["quorumPercent"] == 50.999999);

        // A syndicate whose declaration sets 40 %.
        {
            SQLite::Statement u(fx.db->sql(), "UPDATE syndicates SET quorum_units = 40000000 WHERE id = ?");
            u.bind(1, fx.syndicate);
            u.exec();
        }
        const auto q40 = fx.quorum(m);
        CHECK(q40["required"] == 40);
        CHECK(q40["total"] == 50.999999);
        CHECK(q40["quorumReached"] == true);
        // Syndicate B keeps 51.
        const auto b = fx.meeting({}, &fx.other_admin);
        CHECK(fx.call_as(fx.other_admin, "calculate_quorum", {{"meetingId", b["id"]}})["required"] == 51);
    }
    SUBCASE("only absences: zero") {
        fx.notice(m);
        fx.attend(m, json::array({absent(fx.emilie), absent(fx.john)}));
        CHECK(fx.quorum(m) == json{{"present", 0}, {"proxied", 0}, {"total", 0}, {"required", 51}, {"quorumReached", false}});
    }
    SUBCASE("everyone: 100") {
        fx.notice(m);
        fx.attend(m, json::array({present(fx.emilie), present(fx.francois), by_proxy(fx.john, "x"), by_proxy(fx.marc, "y")}));
        CHECK(fx.quorum(m) == json{{"present", 51}, {"proxied", 49}, {"total", 100}, {"required", 51}, {"quorumReached", true}});
    }
    SUBCASE("read-only and needs read:meetings") {
        const syndic::CallerContext reader{fx.syndicate, "key-reader", {"read:meetings"}, syndic::Role::member};
        CHECK(fx.call_as(reader, "calculate_quorum", {{"meetingId", m["id"]}})["required"] == 51);
        const syndic::CallerContext other{fx.syndicate, "key-co", {"read:co-owners"}, syndic::Role::admin};
        CHECK_REFUSED_AS(fx, other, "INSUFFICIENT_SCOPE", "calculate_quorum", (json{{"meetingId", m["id"]}}));
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "calculate_quorum", (json{{"meetingId", unknown_id}}));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "calculate_quorum", json::object());
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "calculate_quorum", (json{{"meetingId", m["id"]}, {"required", 40}}));
    }
}

TEST_CASE("add_resolution") {
    Building fx;
    const auto m = fx.meeting();

    SUBCASE("numbered 1, 2, 3 in order, pending until voted") {
        const auto r1 = fx.resolution(m, "Approbation des états financiers 2025", "simple",
                                      "Il est résolu d'approuver les états financiers de l'exercice 2025.");
        const auto r2 = fx.resolution(m, "Réfection de la toiture", "absolute");
        const auto r3 = fx.resolution(m, "Modification de la déclaration", "special", "Texte complet.");
        CHECK(r1["number"] == 1);
        CHECK(r2["number"] == 2);
        CHECK(r3["number"] == 3);
        CHECK(r1["meetingId"] == m["id"]);
        CHECK(r1["title"] == "Approbation des états financiers 2025");
        CHECK(r1["description"] == "Il est résolu d'approuver les états financiers de l'exercice 2025.");
        CHECK(r1["majorityRequired"] == "simple");
        CHECK(r2["majorityRequired"] == "absolute");
        CHECK(r2["description"] == "");
        CHECK(r3["majorityRequired"] == "special");
        for (const auto& r : {r1, r2, r3}) {
            CHECK(r["outcome"] == "pending");
            CHECK(r["votesRecorded"] == false);
            CHECK(r["votesFor"] == 0);
            CHECK(r["votesAgainst"] == 0);
            CHECK(r["votesAbstain"] == 0);
        }
        const auto g = fx.get(m);
        REQUIRE(g["resolutions"].size() == 3);
        CHECK(g["resolutions"][0] == r1);
        CHECK(g["resolutions"][1] == r2);
        CHECK(g["resolutions"][2] == r3);
        // Another meeting numbers from 1.
        CHECK(fx.resolution(fx.meeting({{"title", "Autre"}}), "Budget", "simple")["number"] == 1);
    }
    SUBCASE("allowed while notice-sent and held; refused once the minutes are sent") {
        fx.notice(m);
        CHECK(fx.resolution(m, "Budget", "simple")["number"] == 1);
        fx.held(m);
        CHECK(fx.resolution(m, "Varia", "simple")["number"] == 2);
        fx.call("generate_minutes", {{"meetingId", m["id"]}});
        fx.call("update_meeting", {{"id", m["id"]}, {"status", "minutes-sent"}});
        const json args = {{"meetingId", m["id"]}, {"title", "Trop tard"}, {"majorityRequired", "simple"}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "add_resolution", args);
        CHECK(fx.get(m)["resolutions"].size() == 2);
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "add_resolution",
                      (json{{"meetingId", unknown_id}, {"title", "Budget"}, {"majorityRequired", "simple"}}));
        CHECK(has_error_on(fx.error("add_resolution", {{"meetingId", unknown_id}, {"title", "B"}, {"majorityRequired", "simple"}}),
                           "/meetingId"));
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution",
                      (json{{"meetingId", m["id"]}, {"title", "Budget"}, {"majorityRequired", "double"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution", (json{{"meetingId", m["id"]}, {"title", "Budget"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution", (json{{"meetingId", m["id"]}, {"majorityRequired", "simple"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution",
                      (json{{"meetingId", m["id"]}, {"title", "   "}, {"majorityRequired", "simple"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "add_resolution",
                      (json{{"meetingId", m["id"]}, {"title", "Budget"}, {"majorityRequired", "simple"}, {"outcome", "passed"}}));
        CHECK(fx.get(m)["resolutions"].empty());
    }
}

TEST_CASE("record_votes") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    const auto simple = fx.resolution(m, "Budget 2027", "simple");
    const auto absolute = fx.resolution(m, "Réfection de la toiture", "absolute");
    const auto special = fx.resolution(m, "Modification de la déclaration", "special");
    auto outcome = [&](const json& r, double yes, double no, double abstain) {
        return fx.votes(r, yes, no, abstain)["outcome"].get<std::string>();
    };

    SUBCASE("the votes are recorded and shown exactly") {
        const auto r = fx.votes(simple, 50.000001, 49.999999, 0);
        CHECK(r["id"] == simple["id"]);
        CHECK(r["votesFor"] == 50.000001);
        CHECK(r["votesAgainst"] == 49.999999);
        CHECK(r["votesAbstain"] == 0);
        CHECK(r["votesRecorded"] == true);
        CHECK(r["outcome"] == "passed");
        CHECK(fx.get(m)["resolutions"][0] == r);
        // Recording again replaces.
        const auto again = fx.votes(simple, 10, 60, 5);
        CHECK(again["votesFor"] == 10);
        CHECK(again["votesAgainst"] == 60);
        CHECK(again["votesAbstain"] == 5);
        CHECK(again["outcome"] == "rejected");
        CHECK(fx.get(m)["resolutions"][0]["outcome"] == "rejected");
        CHECK(fx.get(m)["resolutions"][1]["outcome"] == "pending");
    }
    SUBCASE("simple: more than 50 % of the votes cast") {
        CHECK(outcome(simple, 50, 50, 0) == "rejected");
        CHECK(outcome(simple, 50.000001, 49.999999, 0) == "passed");
        CHECK(outcome(simple, 49.999999, 50.000001, 0) == "rejected");
        CHECK(outcome(simple, 30, 30, 0) == "rejected");
        CHECK(outcome(simple, 30.000001, 30, 0) == "passed");
        // Abstentions count in the votes cast: 40 of 100 is not a majority, though 40 > 30.
        CHECK(outcome(simple, 40, 30, 30) == "rejected");
        CHECK(outcome(simple, 50, 0, 50) == "rejected");
        CHECK(outcome(simple, 50.000001, 0, 49.999999) == "passed");
        CHECK(outcome(simple, 0.000002, 0.000001, 0) == "passed");
        CHECK(outcome(simple, 0, 0, 0) == "rejected");
    }
    SUBCASE("absolute: more than 75 % of the votes cast") {
        CHECK(outcome(absolute, 75, 25, 0) == "rejected");
        CHECK(outcome(absolute, 75.000001, 24.999999, 0) == "passed");
        CHECK(outcome(absolute, 74.999999, 25.000001, 0) == "rejected");
        CHECK(outcome(absolute, 60, 20, 0) == "rejected");             // exactly 75 % of 80
        CHECK(outcome(absolute, 60.000001, 20, 0) == "passed");
        CHECK(outcome(absolute, 75, 0, 25) == "rejected");             // abstentions count
        CHECK(outcome(absolute, 75, 10, 15) == "rejected");
        CHECK(outcome(absolute, 76, 10, 14) == "passed");
        CHECK(outcome(absolute, 75, 0, 0) == "passed");                // 100 % of the votes cast
    }
    SUBCASE("special: unanimity of the votes cast") {
        CHECK(outcome(special, 100, 0, 0) == "passed");
        CHECK(outcome(special, 40, 0, 0) == "passed");
        CHECK(outcome(special, 99.999999, 0.000001, 0) == "rejected");
        CHECK(outcome(special, 99.999999, 0, 0.000001) == "rejected");  // an abstention breaks unanimity
        CHECK(outcome(special, 99, 0, 1) == "rejected");
        CHECK(outcome(special, 0, 100, 0) == "rejected");
        CHECK(outcome(special, 0, 0, 0) == "rejected");
    }
    SUBCASE("votes over 100 % in total are refused") {
        const json args = {{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0.000001}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes", args);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes",
                      (json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 41}, {"votesAbstain", 0}}));
        CHECK(fx.votes(simple, 60, 40, 0)["outcome"] == "passed");  // exactly 100 is fine
    }
    SUBCASE("once attendance is recorded, votes cannot exceed the fractions present or represented") {
        fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Émilie Bélanger"), absent(fx.marc)}));
        const json over = {{"resolutionId", simple["id"]}, {"votesFor", 40}, {"votesAgainst", 11}, {"votesAbstain", 0.000001}};
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes", over);
        const auto e = fx.error("record_votes", over);
        REQUIRE(figure(e, "represented").has_value());
        CHECK(*figure(e, "represented") == 51);
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes",
                      (json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 0}, {"votesAbstain", 0}}));
        CHECK(fx.votes(simple, 40, 11, 0)["outcome"] == "passed");  // exactly 51
        CHECK(fx.get(m)["resolutions"][0]["votesFor"] == 40);
    }
    SUBCASE("refused while the meeting is a draft") {
        const auto draft = fx.meeting({{"title", "Brouillon"}});
        const auto r = fx.resolution(draft, "Budget", "simple");
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "record_votes",
                      (json{{"resolutionId", r["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0}}));
        CHECK(fx.get(draft)["resolutions"][0]["outcome"] == "pending");
    }
    SUBCASE("allowed once held") {
        fx.held(m);
        CHECK(outcome(simple, 60, 40, 0) == "passed");
    }
    SUBCASE("the meetingId, when given, must be the resolution's") {
        const auto r = fx.call("record_votes", {{"resolutionId", simple["id"]}, {"meetingId", m["id"]},
                                                {"votesFor", 70}, {"votesAgainst", 30}, {"votesAbstain", 0}});
        CHECK(r["outcome"] == "passed");
        const auto other = fx.meeting({{"title", "Autre"}});
        for (const auto& meeting_id : {other["id"], json(unknown_id)}) {
            const json args = {{"resolutionId", simple["id"]}, {"meetingId", meeting_id},
                               {"votesFor", 10}, {"votesAgainst", 90}, {"votesAbstain", 0}};
            CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes", args);
        }
        CHECK(fx.get(m)["resolutions"][0]["votesFor"] == 70);
    }
    SUBCASE("RESOLUTION_NOT_FOUND") {
        const json args = {{"resolutionId", unknown_id}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0}};
        CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes", args);
        CHECK(has_error_on(fx.error("record_votes", args), "/resolutionId"));
        // A meeting's id is not a resolution's.
        CHECK_REFUSED(fx, "RESOLUTION_NOT_FOUND", "record_votes",
                      (json{{"resolutionId", m["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0}}));
    }
    SUBCASE("schema rejection") {
        for (const auto& args : {json{{"resolutionId", simple["id"]}, {"votesFor", 101}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", -1}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", "60"}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 40}},
                                 json{{"resolutionId", simple["id"]}, {"votesFor", 60}, {"votesAgainst", 40}, {"votesAbstain", 0},
                                      {"outcome", "passed"}}}) {
            CAPTURE(args.dump());
            CHECK_REFUSED(fx, "VALIDATION_FAILED", "record_votes", args);
        }
        CHECK(fx.get(m)["resolutions"][0]["outcome"] == "pending");
    }
}

TEST_CASE("generate_minutes") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    fx.attend(m, json::array({present(fx.emilie), by_proxy(fx.francois, "Hélène Dubé"), present(fx.john), absent(fx.marc)}));
    const auto r1 = fx.resolution(m, "Approbation des états financiers", "simple",
                                  "Il est résolu d'approuver les états financiers vérifiés de l'exercice 2025.");
    const auto r2 = fx.resolution(m, "Réfection de la toiture", "absolute",
                                  "Il est résolu d'entreprendre la réfection complète de la toiture au printemps.");
    const auto r3 = fx.resolution(m, "Nomination du vérificateur", "simple");
    fx.votes(r1, 55, 21, 0);   // passed
    fx.votes(r2, 51, 25, 0);   // 67 %: rejected

    SUBCASE("a French draft: every part of the meeting, marked BROUILLON") {
        const auto before = fx.exported_files();
        const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        CHECK(d["meetingId"] == m["id"]);
        CHECK(d["draft"] == true);
        CHECK(d["language"] == "fr");
        const std::string path = d["path"];
        CHECK(fs::path(path).parent_path() == fs::path(fx.exports()));
        CHECK(fs::path(path).extension() == ".pdf");
        REQUIRE(fs::exists(path));
        CHECK(fx.exported_files() == before + 1);
        CHECK(d["sizeBytes"] == static_cast<std::int64_t>(fs::file_size(path)));
        CHECK(d["sha256"] == file_sha256(path));
        CHECK(d["pages"] == pdf_pages(path));
        CHECK(d["pages"].get<int>() >= 1);

        const auto text = squash(pdf_text(path));
        CAPTURE(text);
        CHECK(contains(text, meeting_title));
        CHECK(contains(text, "mardi 15 décembre 2026 à 19 h 00"));
        CHECK(contains(text, meeting_place));
        CHECK(contains(text, "Émilie Bélanger"));
        CHECK(contains(text, "François Côté"));
        CHECK(contains(text, "Hélène Dubé"));
        CHECK(contains(text, "John Smith"));
        CHECK(contains(text, "Marc Gagnon"));
        CHECK_FALSE(contains(text, "Zoé"));
        CHECK(contains(text, "Élection des administrateurs"));  // the agenda
        CHECK(contains(text, "Approbation des états financiers"));
        CHECK(contains(text, "Il est résolu d'approuver les états financiers vérifiés de l'exercice 2025."));
        CHECK(contains(text, "Réfection de la toiture"));
        CHECK(contains(text, "Nomination du vérificateur"));
        CHECK(contains(text, "ADOPTÉE"));
        CHECK(contains(text, "REJETÉE"));
        // Each resolution followed by its own outcome.
        const auto p1 = text.find("Approbation des états financiers"), p2 = text.find("Réfection de la toiture"),
                   p3 = text.find("Nomination du vérificateur");
        REQUIRE(p1 != std::string::npos);
        REQUIRE(p2 != std::string::npos);
        REQUIRE(p3 != std::string::npos);
        CHECK(p1 < p2);
        CHECK(p2 < p3);
        CHECK(contains(text.substr(p1, p2 - p1), "ADOPTÉE"));
        CHECK_FALSE(contains(text.substr(p1, p2 - p1), "REJETÉE"));
        CHECK(contains(text.substr(p2, p3 - p2), "REJETÉE"));
        CHECK_FALSE(contains(text.substr(p3), "ADOPTÉE"));
        CHECK_FALSE(contains(text.substr(p3), "REJETÉE"));
        // Quorum: present 30 + 25 = 55, by proxy 21, total 76, required 51.
        CHECK(contains(text, "55 %"));
        CHECK(contains(text, "21 %"));
        CHECK(contains(text, "76 %"));
        CHECK(contains(text, "51 %"));
        CHECK(contains(text, "BROUILLON"));
        CHECK(contains(text, "Page 1 de"));
    }
    SUBCASE("final minutes need a held meeting, and are not marked as a draft") {
        const json final_args = {{"meetingId", m["id"]}, {"draft", false}};
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "generate_minutes", final_args);
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "generate_minutes", (json{{"meetingId", m["id"]}}));  // draft defaults to false
        CHECK(fx.exported_files() == 0);
        CHECK(fx.get(m)["documents"].empty());
        const auto draft_meeting = fx.meeting({{"title", "Encore un brouillon"}});
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "generate_minutes", (json{{"meetingId", draft_meeting["id"]}}));
        // A draft of a draft meeting is fine.
        CHECK(fx.call("generate_minutes", {{"meetingId", draft_meeting["id"]}, {"draft", true}})["draft"] == true);

        fx.held(m);
        const auto f = fx.call("generate_minutes", final_args);
        CHECK(f["draft"] == false);
        const std::string path = f["path"];
        REQUIRE(fs::exists(path));
        CHECK(f["sha256"] == file_sha256(path));
        CHECK(f["sizeBytes"] == static_cast<std::int64_t>(fs::file_size(path)));
        CHECK(f["pages"] == pdf_pages(path));
        const auto text = squash(pdf_text(path));
        CAPTURE(text);
        CHECK(contains(text, meeting_title));
        CHECK(contains(text, "Émilie Bélanger"));
        CHECK(contains(text, "ADOPTÉE"));
        CHECK_FALSE(contains(text, "BROUILLON"));
        CHECK_FALSE(contains(text, "DRAFT"));

        // Both documents are the meeting's, in the order made.
        fx.clock.advance(std::chrono::minutes(5));
        const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        const auto docs = fx.get(m)["documents"];
        REQUIRE(docs.size() == 2);
        CHECK(docs[0]["documentId"] == f["documentId"]);
        CHECK(docs[0]["draft"] == false);
        CHECK(docs[0]["language"] == "fr");
        CHECK(docs[0]["kind"] == "minutes");
        CHECK(docs[0]["path"] == f["path"]);
        CHECK(docs[0]["pages"] == f["pages"]);
        CHECK(docs[0]["sizeBytes"] == f["sizeBytes"]);
        CHECK(docs[0]["sha256"] == f["sha256"]);
        CHECK(docs[0]["createdAt"] == shown_now);
        CHECK(docs[1]["documentId"] == d["documentId"]);
        CHECK(docs[1]["draft"] == true);
        CHECK(docs[1]["createdAt"] == "2026-11-21T10:05:00-05:00");
        CHECK(d["path"] != f["path"]);
    }
    SUBCASE("a well-formed PDF: poppler reads it without a warning") {
        const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
        const std::string path = d["path"];
        CHECK(run("head -c 5 '" + path + "'") == "%PDF-");
        CHECK(pdf_complaints(path) == "");
        const auto fonts = run("pdffonts '" + path + "' 2>/dev/null");
        CAPTURE(fonts);
        CHECK(contains(fonts, "DejaVuSans"));
        // Every font embedded ("emb" yes) and with a Unicode map ("uni" yes).
        CHECK_FALSE(contains(fonts, " no "));
    }
    SUBCASE("in English") {
        fx.held(m);
        const auto e = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"language", "en"}, {"draft", true}});
        CHECK(e["language"] == "en");
        const auto text = squash(pdf_text(e["path"]));
        CAPTURE(text);
        CHECK(contains(text, "Minutes"));
        CHECK(contains(text, meeting_title));
        CHECK(contains(text, "Tuesday, December 15, 2026 at 7:00 PM"));
        CHECK(contains(text, "Émilie Bélanger"));
        CHECK(contains(text, "PASSED"));
        CHECK(contains(text, "REJECTED"));
        CHECK(contains(text, "76%"));
        CHECK(contains(text, "DRAFT"));
        CHECK_FALSE(contains(text, "ADOPTÉE"));
        CHECK_FALSE(contains(text, "BROUILLON"));
        const auto final_en = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"language", "en"}});
        const auto final_text = squash(pdf_text(final_en["path"]));
        CHECK(contains(final_text, "PASSED"));
        CHECK_FALSE(contains(final_text, "DRAFT"));
        CHECK(fx.get(m)["documents"][1]["language"] == "en");
    }
    SUBCASE("40 resolutions with long texts flow onto several pages, each marked as a draft") {
        const auto big = fx.meeting({{"title", "Assemblée des quarante résolutions"}});
        std::string paragraph;
        for (int i = 0; i < 12; ++i)
            paragraph += "Attendu que le syndicat doit maintenir l'immeuble en bon état et que le conseil d'administration "
                         "a obtenu trois soumissions conformes au devis préparé par l'ingénieur mandaté, ";
        for (int i = 1; i <= 40; ++i)
            fx.resolution(big, "Résolution numéro " + std::to_string(i) + " sur les travaux", i % 3 == 0 ? "absolute" : "simple",
                          paragraph + "il est résolu d'accepter la soumission Clausefinale" + std::to_string(i) + ".");
        const auto d = fx.call("generate_minutes", {{"meetingId", big["id"]}, {"draft", true}});
        const std::string path = d["path"];
        const int pages = d["pages"];
        CHECK(pages >= 3);
        CHECK(pages == pdf_pages(path));
        CHECK(d["sha256"] == file_sha256(path));
        const auto text = squash(pdf_text(path));
        for (int i = 1; i <= 40; ++i) {
            CAPTURE(i);
            CHECK(contains(text, "Résolution numéro " + std::to_string(i) + " sur les travaux"));
            CHECK(contains(text, "Clausefinale" + std::to_string(i) + "."));
        }
        CHECK(contains(text, "Page " + std::to_string(pages) + " de " + std::to_string(pages)));
        for (int page = 1; page <= pages; ++page) {
            CAPTURE(page);
            const auto page_text = squash(pdf_page_text(path, page));
            CHECK(contains(page_text, "BROUILLON"));
            CHECK(contains(page_text, "Page " + std::to_string(page) + " de " + std::to_string(pages)));
        }
    }
    SUBCASE("MEETING_NOT_FOUND") {
        CHECK_REFUSED(fx, "MEETING_NOT_FOUND", "generate_minutes", (json{{"meetingId", unknown_id}, {"draft", true}}));
        CHECK(fx.exported_files() == 0);
    }
    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", (json{{"meetingId", m["id"]}, {"language", "de"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", (json{{"meetingId", m["id"]}, {"draft", "yes"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", (json{{"meetingId", m["id"]}, {"format", "docx"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "generate_minutes", json::object());
        CHECK(fx.exported_files() == 0);
    }
    (void)r3;
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

TEST_SUITE("meetings") {

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
        CHECK_REFUSED(fx, "INVALID_STATUS_TRANSITION", "update_meeting", (json{{"id", m["id"]}, {"status", "minutes-sent"}}));
        fx.clock.advance(std::chrono::seconds(1));
        fx.call("generate_minutes", {{"meetingId", m["id"]}});
        CHECK(fx.call("update_meeting", {{"id", m["id"]}, {"status", "minutes-sent"}})["status"] == "minutes-sent");
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
        for (const std::string bad : {std::string("avant") + '\0' + "après", std::string("avant\x01après"),
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

TEST_CASE("a remote caller gets a download address for the minutes, never the server's path") {
    Building fx;
    const auto m = fx.meeting();
    auto remote = fx.admin;
    remote.remote_base = "https://syndic.example.org/api";
    const auto d = fx.call_as(remote, "generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    CHECK_FALSE(d.contains("path"));
    const std::string id = d["documentId"];
    CHECK(d["downloadUrl"] == "https://syndic.example.org/api/documents/" + id + "/content");
    const auto shown = fx.call_as(remote, "get_meeting", {{"id", m["id"]}});
    REQUIRE(shown["documents"].size() == 1);
    CHECK_FALSE(shown["documents"][0].contains("path"));
    CHECK(shown["documents"][0]["downloadUrl"] == d["downloadUrl"]);
    // A local (stdio) caller still gets the path.
    const auto local = fx.call("get_meeting", {{"id", m["id"]}});
    CHECK(local["documents"][0]["path"].get<std::string>().ends_with(".pdf"));

    SUBCASE("the file, for a caller of its syndicate who may read meetings") {
        const auto file = syndic::document_file(*fx.db, remote, id);
        CHECK(file.path == local["documents"][0]["path"].get<std::string>());
        CHECK(file.media_type == "application/pdf");
        CHECK(file.file_name.starts_with("minutes-"));
        CHECK(file.size_bytes == d["sizeBytes"]);
    }
    SUBCASE("another syndicate's caller: DOCUMENT_NOT_FOUND (tenancy)") {
        CHECK_THROWS_WITH_AS(syndic::document_file(*fx.db, fx.other_admin, id), doctest::Contains("No document"),
                             syndic::DomainError);
    }
    SUBCASE("a key without read:meetings: INSUFFICIENT_SCOPE") {
        auto reader = fx.admin;
        reader.scopes = {"read:co-owners"};
        try {
            syndic::document_file(*fx.db, reader, id);
            FAIL("expected INSUFFICIENT_SCOPE");
        } catch (const syndic::DomainError& e) {
            CHECK(e.code() == "INSUFFICIENT_SCOPE");
        }
    }
}

}

namespace {

// A word of a PDF page as poppler places it (pdftotext -bbox): its left and right edges, the
// middle of its height.
struct PlacedWord {
    double left, right, middle;
    std::string text;
};
using PlacedLine = std::vector<PlacedWord>;
// The page's lines, top to bottom: words whose middles are within 3 points (glyphs of different
// fonts on one line have different heights).
std::vector<PlacedLine> placed_lines(const std::string& path, int page) {
    const auto p = std::to_string(page);
    const auto xml = run("pdftotext -enc UTF-8 -bbox -f " + p + " -l " + p + " '" + path + "' - 2>/dev/null");
    std::vector<PlacedWord> words;
    auto number = [&](std::size_t at, const std::string& name) {
        const auto from = xml.find(name + "=\"", at) + name.size() + 2;
        return std::stod(xml.substr(from, xml.find('"', from) - from));
    };
    for (auto at = xml.find("<word "); at != std::string::npos; at = xml.find("<word ", at + 1)) {
        const auto open_end = xml.find('>', at) + 1;
        words.push_back({number(at, "xMin"), number(at, "xMax"), (number(at, "yMin") + number(at, "yMax")) / 2,
                         xml.substr(open_end, xml.find("</word>", open_end) - open_end)});
    }
    std::stable_sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.middle < b.middle; });
    std::vector<PlacedLine> lines;
    for (const auto& w : words) {
        if (lines.empty() || w.middle - lines.back().front().middle > 3) lines.emplace_back();
        lines.back().push_back(w);
    }
    return lines;
}
bool has_word(const PlacedLine& line, const std::string& text) {
    return std::any_of(line.begin(), line.end(), [&](const PlacedWord& w) { return w.text == text; });
}
double left_of(const PlacedLine& line, const std::string& text) {
    for (const auto& w : line)
        if (w.text == text) return w.left;
    FAIL("no word " << text << " on the line");
    return 0;
}
bool part_of(const std::string& name, const PlacedWord& w) { return !w.text.empty() && w.text != " " && contains(name, w.text); }
// The first line with the word `marker` and some of `name`.
PlacedLine line_with(const std::vector<PlacedLine>& lines, const std::string& marker, const std::string& name) {
    for (const auto& line : lines)
        if (has_word(line, marker) && std::any_of(line.begin(), line.end(), [&](const auto& w) { return part_of(name, w); }))
            return line;
    FAIL("no line with " << marker << " and " << name);
    return {};
}
// The words of the line made of `name`'s characters read from right to left, as a right-to-left
// name is read on paper (spaces left out); `left` and `right` get the edges of what was read.
std::string read_right_to_left(PlacedLine line, const std::string& name, double& left, double& right) {
    line.erase(std::remove_if(line.begin(), line.end(), [&](const auto& w) { return !part_of(name, w); }), line.end());
    std::sort(line.begin(), line.end(), [](const PlacedWord& a, const PlacedWord& b) { return a.left > b.left; });
    std::string read;
    for (const auto& w : line) read += w.text;
    if (!line.empty()) {
        left = line.back().left;
        right = line.front().right;
    }
    return read;
}
std::string without_spaces(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

// The fonts of the minutes in every script: each embedded ("emb"), as a subset ("sub"), with a
// Unicode map ("uni"), and the one expected for each script drawn.
void check_fonts_of_every_script(const std::string& path) {
    const auto fonts = run("pdffonts '" + path + "' 2>/dev/null");
    CAPTURE(fonts);
    CHECK(contains(fonts, "DejaVuSans"));
    CHECK(contains(fonts, "WenQuanYiMicroHei"));     // the Chinese, Japanese and Korean names
    CHECK(contains(fonts, "NotoSansArabicUI"));      // the Arabic name, its letters joined
    CHECK(contains(fonts, "NotoSansDevanagariUI"));  // found by fontconfig's fallback
    // No hex box for a character no font has (pango draws those in a monospace font).
    CHECK_FALSE(contains(fonts, "Mono"));
    // Every font embedded ("emb"), as a subset ("sub"), with a Unicode map ("uni"): "yes yes yes".
    std::size_t fonts_listed = 0;
    std::istringstream rows_of_fonts(fonts);
    std::string row;
    while (std::getline(rows_of_fonts, row)) {
        if (row.find('+') == std::string::npos) continue;  // the header rows
        ++fonts_listed;
        CAPTURE(row);
        CHECK(contains(row, "yes yes yes"));
    }
    CHECK(fonts_listed >= 4);
}

}  // namespace

TEST_SUITE("meetings") {

// Issue 15: the names of Montreal's co-owners in their own scripts. Each must come back from the
// PDF's text as it was typed (a right-to-left name in logical order, not reversed; joined Arabic
// letters; no box for a missing glyph), read right to left on the page with what follows it after
// it, in fonts embedded as subsets with their Unicode maps.
TEST_CASE("minutes print names in every script: Hebrew, Arabic, CJK, Vietnamese, mixed lines") {
    MeetingFixture fx;
    struct Person {
        std::string first, last;
    };
    const std::vector<Person> people = {
        {"שרה", "כהן"},               // Hebrew
        {"فاطمة", "الزهراء"},         // Arabic
        {"小明", "王"},               // Chinese
        {"さくら", "山田"},           // Japanese
        {"민준", "김"},               // Korean
        {"Nguyễn Thị", "Hồng"},       // Vietnamese
        {"Γιώργος", "Παπαδόπουλος"},  // Greek
        {"Наталья", "Иванова"},       // Cyrillic
        {"प्रिया", "शर्मा"},             // Devanagari
        {"Émilie", "Bélanger"},       // French
    };
    std::vector<json> rows;
    for (std::size_t i = 0; i < people.size(); ++i) {
        const auto u = fx.unit(std::to_string(101 + i), 10);
        const auto c = fx.co_owner(u["id"], people[i].first, people[i].last, {{"fractionPercent", 10}});
        rows.push_back(i == 2 ? by_proxy(c, "佐藤花子") : present(c));  // a Japanese proxy holder
    }
    const auto m = fx.meeting({{"title", "Assemblée générale 2026 — אסיפה כללית — الجمعية العامة — 年度大会"}});
    fx.notice(m);
    fx.attend(m, rows);
    // One line mixing French, Hebrew, Arabic and Chinese (bidi inside a left-to-right line).
    fx.resolution(m, "Comité de quartier", "simple", "Mandat confié à שרה כהן et فاطمة الزهراء avec 王小明 pour 2027.");
    const auto d = fx.call("generate_minutes", {{"meetingId", m["id"]}, {"draft", true}});
    const std::string path = d["path"];

    const auto text = squash(pdf_text(path));
    CAPTURE(text);
    for (const auto& p : people) CHECK(contains(text, p.first + " " + p.last));
    for (const auto* part : {"佐藤花子", "אסיפה כללית", "الجمعية العامة", "年度大会", "Mandat confié à", "pour 2027.", "BROUILLON"})
        CHECK(contains(text, part));
    CHECK(pdf_complaints(path) == "");

    // On the page, a Hebrew or Arabic name reads from right to left (first name on the right), and
    // the figures after it stay after it: "• שרה כהן — 10 % — présent".
    const auto lines = placed_lines(path, 1);
    const std::string hebrew = "שרה כהן", arabic = "فاطمة الزهراء";
    for (const auto& name : {hebrew, arabic}) {
        CAPTURE(name);
        const auto line = line_with(lines, "présent", name);  // its attendance line
        double left = 0, right = 0;
        CHECK(read_right_to_left(line, name, left, right) == without_spaces(name));
        CHECK(left_of(line, "•") < left);
        CHECK(left_of(line, "10") > right);
    }
    // The mixed line: the French words in their order, each name right to left in its place.
    const auto mixed_line = line_with(lines, "Mandat", hebrew);
    double hebrew_left = 0, hebrew_right = 0, arabic_left = 0, arabic_right = 0;
    CHECK(read_right_to_left(mixed_line, hebrew, hebrew_left, hebrew_right) == without_spaces(hebrew));
    CHECK(read_right_to_left(mixed_line, arabic, arabic_left, arabic_right) == without_spaces(arabic));
    CHECK(left_of(mixed_line, "à") < hebrew_left);
    CHECK(left_of(mixed_line, "et") > hebrew_right);
    CHECK(left_of(mixed_line, "et") < arabic_left);
    CHECK(left_of(mixed_line, "avec") > arabic_right);

    check_fonts_of_every_script(path);
}

}  // TEST_SUITE
