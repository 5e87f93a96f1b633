// What the board tests (tests/unit/board/board_*_test.cpp) share: passed, rejected or pending resolutions
// of a general or a board meeting (from the declaration's fixture), a small building of three
// co-owners, a director appointed with sensible defaults, and the events the calls wrote. It holds
// no check of a board rule: those stay in the test files.
#pragma once
#include "declaration/declaration_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

namespace syndic::test {

struct BoardFixture : DeclarationFixture {
    json u101, u102, u201;
    json alice, bruno, chloe;  // co-owners of 101, 102 and 201

    BoardFixture() {
        u101 = unit("101", 40);
        u102 = unit("102", 30);
        u201 = unit("201", 30);
        alice = co_owner(u101["id"], "Alice", "Roy", {{"email", "alice@example.ca"}, {"phone", "+15145550101"}, {"fractionPercent", 40}});
        bruno = co_owner(u102["id"], "Bruno", "Côté", {{"fractionPercent", 30}});
        chloe = co_owner(u201["id"], "Chloé", "Lavoie", {{"fractionPercent", 30}});
    }

    // The declaration's board parameters (update_declaration's fields).
    void declare(const json& fields) { call("update_declaration", fields); }

    // A director elected by the co-owners on a passed resolution; `extra` adds or overrides arguments.
    json appoint(json extra = json::object()) {
        json args = {{"role", "director"}, {"appointedBy", "meeting"}, {"termStart", "2026-12-15"}};
        if (!extra.contains("resolutionId")) args["resolutionId"] = resolution_id();
        args.update(extra);
        return call("appoint_director", args);
    }
    json appoint_co_owner(const json& co_owner, const std::string& role = "director", json extra = json::object()) {
        extra["coOwnerId"] = co_owner["id"];
        extra["role"] = role;
        return appoint(extra);
    }
    std::string board_resolution(const std::string& outcome = "passed") { return resolution_id("simple", outcome, "board"); }

    // The events of the syndicate, oldest first: "type recordType".
    std::vector<std::string> events() {
        std::vector<std::string> out;
        SQLite::Statement q(db->sql(), "SELECT type, record_type FROM events WHERE syndicate_id = ? ORDER BY seq");
        q.bind(1, syndicate);
        while (q.executeStep()) out.push_back(q.getColumn(0).getString() + " " + q.getColumn(1).getString());
        return out;
    }
    // The body of the last event of `type`.
    json last_event(const std::string& type) {
        SQLite::Statement q(db->sql(), "SELECT body FROM events WHERE syndicate_id = ? AND type = ? ORDER BY seq DESC LIMIT 1");
        q.bind(1, syndicate);
        q.bind(2, type);
        return q.executeStep() ? json::parse(q.getColumn(0).getString()) : json(nullptr);
    }
    std::size_t count_events(const std::string& type) {
        std::size_t n = 0;
        for (const auto& e : events())
            if (e.rfind(type + " ", 0) == 0) ++n;
        return n;
    }
};

// A board of three in office from 2026-12-15: Alice (president), Bruno (secretary), Chloé
// (treasurer); the clock on 2026-12-20. `sign` adds one director's signature to a written
// resolution (a new one's fields, or {"id": ...}).
struct OfficersFixture : BoardFixture {
    json president, secretary, treasurer;
    OfficersFixture() {
        president = appoint_co_owner(alice, "president");
        secretary = appoint_co_owner(bruno, "secretary");
        treasurer = appoint_co_owner(chloe, "treasurer");
        clock.set(at("2026-12-20T15:00:00Z"));
    }
    json sign(const json& id_or_new, const json& signer, const std::string& day) {
        json args = id_or_new;
        args["signatures"] = json::array({{{"signerId", signer["id"]}, {"signedOn", day}}});
        return call("record_written_resolution", args);
    }
};

}  // namespace syndic::test
