// What the meetings tests (tests/unit/meetings/meetings_*_test.cpp) share: the default meeting, a fixture
// with its own exports folder whose snapshot also covers the meeting tables and exported files, and
// a building of four units and five co-owners. It holds no check of a meeting rule: those stay in
// the test files.
#pragma once
#include "fixture.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace syndic::test::meeting_fixture {

inline const std::string unknown_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";
inline const std::string shown_now = "2026-11-21T10:00:00-05:00";  // fixed_now() in America/Montreal
// The default meeting: Tuesday 15 December 2026 at 19:00 in Montreal (24 days after fixed_now()).
inline const std::string meeting_time = "2026-12-15T19:00:00-05:00";
inline const std::string meeting_title = "Assemblée générale annuelle 2026";
inline const std::string meeting_place = "Salle communautaire, 1200 rue Sherbrooke Est, Montréal";

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

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
        std::filesystem::remove_all(data_dir, ignored);
    }
    MeetingFixture(const MeetingFixture&) = delete;
    MeetingFixture& operator=(const MeetingFixture&) = delete;

    std::string exports() const { return (std::filesystem::path(data_dir) / "exports").string(); }

    // The database (every table, from the Fixture) and the files under exports/.
    std::string snapshot() {
        std::string out = Fixture::snapshot();
        std::error_code ec;
        std::vector<std::string> files;
        if (std::filesystem::exists(exports(), ec))
            for (const auto& entry : std::filesystem::directory_iterator(exports()))
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
        if (!std::filesystem::exists(exports(), ec)) return 0;
        return std::distance(std::filesystem::directory_iterator(exports()), std::filesystem::directory_iterator());
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
    // The clock moved to an hour after the meeting began, unless it is later already: a meeting is
    // held on its day, not before, and so are its votes (MEETING_NOT_YET_HELD).
    void on_meeting_day(const json& m) {
        const auto t = *parse_iso_instant(m["scheduledAt"].get<std::string>()) + std::chrono::hours(1);
        if (clock.now() < t) clock.set(t);
    }
    json held(const json& m) {
        on_meeting_day(m);
        return call("update_meeting", {{"id", m["id"]}, {"status", "held"}});
    }
    json get(const json& m) { return call("get_meeting", {{"id", m["id"]}}); }
    json resolution(const json& m, const std::string& title, const std::string& majority,
                    const std::string& description = "") {
        json args = {{"meetingId", m["id"]}, {"title", title}, {"majorityRequired", majority}};
        if (!description.empty()) args["description"] = description;
        return call("add_resolution", args);
    }
    json votes(const json& r, double yes, double no, double abstain) {
        on_meeting_day(call("get_meeting", {{"id", r["meetingId"]}}));
        return call("record_votes",
                    {{"resolutionId", r["id"]}, {"votesFor", yes}, {"votesAgainst", no}, {"votesAbstain", abstain}});
    }
    json attend(const json& m, json rows) { return call("record_attendance", {{"meetingId", m["id"]}, {"attendees", rows}}); }
    json quorum(const json& m) { return call("calculate_quorum", {{"meetingId", m["id"]}}); }
};

inline json present(const json& co_owner) { return {{"coOwnerId", co_owner["id"]}, {"attendance", "present"}}; }
inline json absent(const json& co_owner) { return {{"coOwnerId", co_owner["id"]}, {"attendance", "absent"}}; }
inline json by_proxy(const json& co_owner, const std::string& holder) {
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

}  // namespace syndic::test::meeting_fixture
