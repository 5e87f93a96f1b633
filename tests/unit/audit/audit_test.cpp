#include "fixture.hpp"

#include <string>
#include <vector>

#include "storage/audit_trail.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace audit_test {

using namespace syndic::test;
using syndic::CallerContext;
using syndic::Role;

namespace {

struct AuditFixture : Fixture {
    // Every event of the fixture's syndicate, oldest first, read through the tool.
    std::vector<json> events(json filters = json::object()) {
        std::vector<json> out;
        filters["pageSize"] = 200;
        for (int page = 1;; ++page) {
            filters["page"] = page;
            const auto list = call("list_audit_events", filters);
            for (const auto& e : list["data"]) out.insert(out.begin(), e);
            if (page * 200 >= list["pagination"]["total"].get<int>()) break;
        }
        return out;
    }
    std::int64_t stored_events() { return db->sql().execAndGet("SELECT count(*) FROM audit_events").getInt64(); }
};

const json& only(const std::vector<json>& events) {
    REQUIRE(events.size() == 1);
    return events.front();
}

json change(const json& before, const json& after) { return {{"before", before}, {"after", after}}; }

}  // namespace

TEST_SUITE("audit") {

TEST_CASE("every write records who, when, which tool, which record and the change") {
    AuditFixture fx;
    const auto unit = fx.unit("101", 60);
    fx.clock.advance(std::chrono::minutes(5));

    SUBCASE("a creation: the record's stored values, nothing derived") {
        const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"email", "marie@example.ca"}, {"isPrimary", true}});
        const auto e = only(fx.events({{"recordId", marie["id"]}}));
        CHECK(e["actor"] == json{{"kind", "api-key"}, {"id", "key-admin"}, {"clientId", nullptr}});
        CHECK(e["occurredAt"] == "2026-11-21T10:05:00-05:00");
        CHECK(e["tool"] == "create_co_owner");
        CHECK(e["recordType"] == "co-owner");
        CHECK(e["action"] == "create");
        const auto& c = e["changes"];
        CHECK(c["id"] == change(nullptr, marie["id"]));
        CHECK(c["unitId"] == change(nullptr, unit["id"]));
        CHECK(c["firstName"] == change(nullptr, "Marie"));
        CHECK(c["email"] == change(nullptr, "marie@example.ca"));
        CHECK(c["isPrimary"] == change(nullptr, 1));
        CHECK(c["language"] == change(nullptr, "fr"));
        // Left out: the syndicate, times the event already gives, folded search copies, and
        // columns that are null after a creation (nothing changed there).
        for (const char* absent : {"syndicateId", "createdAt", "updatedAt", "searchText", "sortKey", "deletedAt", "phone"})
            CHECK_MESSAGE(!c.contains(absent), absent);
    }

    SUBCASE("an update: only the columns that changed, before and after") {
        const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay");
        fx.call("update_co_owner", {{"id", marie["id"]}, {"lastName", "Gagnon"}, {"phone", "+15145550100"}, {"firstName", "Marie"}});
        const auto e = fx.events({{"recordId", marie["id"]}, {"action", "update"}});
        REQUIRE(e.size() == 1);
        CHECK(e[0]["tool"] == "update_co_owner");
        CHECK(e[0]["changes"] == json{{"lastName", change("Tremblay", "Gagnon")}, {"phone", change(nullptr, "+15145550100")}});
    }

    SUBCASE("an update that changes nothing records nothing") {
        const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay");
        const auto before = fx.stored_events();
        fx.clock.advance(std::chrono::minutes(1));
        fx.call("update_co_owner", {{"id", marie["id"]}, {"lastName", "Tremblay"}});
        CHECK(fx.stored_events() == before);
    }

    SUBCASE("archiving and restoring are named so") {
        const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay");
        fx.call("delete_co_owner", {{"id", marie["id"]}});
        fx.call("restore_co_owner", {{"id", marie["id"]}});
        const auto e = fx.events({{"recordId", marie["id"]}});
        REQUIRE(e.size() == 3);
        CHECK(e[1]["action"] == "archive");
        CHECK(e[1]["tool"] == "delete_co_owner");
        CHECK(e[1]["changes"]["deletedAt"]["before"].is_null());
        CHECK(e[1]["changes"]["deletedAt"]["after"] == "2026-11-21T15:05:00.000Z");
        CHECK(e[2]["action"] == "restore");
        CHECK(e[2]["changes"]["deletedAt"] == change("2026-11-21T15:05:00.000Z", nullptr));
    }

    SUBCASE("one call that changes several records makes one event per record") {
        const auto parking = fx.unit("P-1", 0, "parking");
        fx.call("update_unit", {{"id", parking["id"]}, {"linkedUnits", json::array({unit["id"]})}});
        const auto e = fx.events({{"tool", "update_unit"}});
        REQUIRE(e.size() == 1);  // the link; the unit's own columns did not change
        CHECK(e[0]["recordType"] == "unit-link");
        CHECK(e[0]["recordId"] == parking["id"]);
        CHECK(e[0]["changes"]["apartmentId"] == change(nullptr, unit["id"]));

        fx.call("update_unit", {{"id", parking["id"]}, {"linkedUnits", json::array()}, {"floor", -1}});
        const auto again = fx.events({{"tool", "update_unit"}});
        REQUIRE(again.size() == 3);
        CHECK(again[1]["recordType"] == "unit");
        CHECK(again[1]["changes"] == json{{"floor", change(nullptr, -1)}});
        CHECK(again[2]["recordType"] == "unit-link");
        CHECK(again[2]["action"] == "delete");
        CHECK(again[2]["changes"]["apartmentId"] == change(unit["id"], nullptr));
    }

    SUBCASE("a bulk creation makes one event per row created; its refused rows make none") {
        json rows = json::array();
        for (int i = 0; i < 30; ++i) rows.push_back({{"unitId", unit["id"]}, {"firstName", "P" + std::to_string(i)}, {"lastName", "Roy"}});
        rows.push_back({{"unitId", "no-such-unit"}, {"firstName", "X"}, {"lastName", "Y"}});
        const auto result = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
        REQUIRE(result["errors"].size() == 1);
        const auto e = fx.events({{"tool", "bulk_create_co_owners"}});
        CHECK(e.size() == 30);
        for (const auto& x : e) CHECK(x["recordType"] == "co-owner");
    }

    SUBCASE("a cancelled bulk creation records nothing") {
        json rows = json::array();
        for (int i = 0; i < 200; ++i) rows.push_back({{"unitId", unit["id"]}, {"firstName", "P" + std::to_string(i)}, {"lastName", "Roy"}});
        const auto before = fx.snapshot();
        syndic::CallControl control;
        control.cancelled = [] { return true; };
        CHECK_THROWS(fx.registry.call("bulk_create_co_owners", {{"coOwners", rows}}, fx.admin, *fx.db, fx.clock, control));
        CHECK(fx.snapshot() == before);
    }

    SUBCASE("fractions are as stored, in millionths of a percent") {
        fx.call("update_unit", {{"id", unit["id"]}, {"fractionPercent", 61.5}});
        const auto e = fx.events({{"recordId", unit["id"]}, {"action", "update"}});
        REQUIRE(e.size() == 1);
        CHECK(e[0]["changes"]["fractionUnits"] == change(60000000, 61500000));
    }

    SUBCASE("rebalancing records each unit it scaled; a dry run records nothing") {
        fx.unit("102", 39.8);
        const auto before = fx.stored_events();
        fx.call("rebalance_fractions", {{"dryRun", true}});
        CHECK(fx.stored_events() == before);
        fx.call("rebalance_fractions");
        const auto e = fx.events({{"tool", "rebalance_fractions"}});
        CHECK(e.size() == 2);
        for (const auto& x : e) CHECK(x["changes"].contains("fractionUnits"));
    }

    SUBCASE("reads record nothing") {
        fx.co_owner(unit["id"], "Marie", "Tremblay");
        const auto before = fx.stored_events();
        fx.call("list_co_owners");
        fx.call("get_unit", {{"id", unit["id"]}});
        fx.call("list_units");
        fx.call("get_fraction_sum");
        fx.call("list_audit_events");
        CHECK(fx.stored_events() == before);
    }
}

TEST_CASE("meetings: attendance lines are named by meeting and co-owner; notices by message") {
    AuditFixture fx;
    const auto unit = fx.unit("101", 100);
    const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"email", "marie@example.ca"}, {"fractionPercent", 100}});
    const auto m = fx.call("create_meeting", {{"title", "AGA 2027"}, {"type", "aga"},
                                              {"scheduledAt", "2027-01-20T19:00:00-05:00"}, {"location", "Salle"}});
    fx.call("send_meeting_notice", {{"meetingId", m["id"]}});
    fx.call("record_attendance", {{"meetingId", m["id"]}, {"attendees", json::array({{{"coOwnerId", marie["id"]}, {"attendance", "present"}}})}});

    const auto notice = fx.events({{"tool", "send_meeting_notice"}});
    REQUIRE(notice.size() == 2);  // the meeting's status, and one message queued
    CHECK(notice[0]["recordType"] == "meeting");
    CHECK(notice[0]["changes"]["status"] == change("draft", "notice-sent"));
    CHECK(notice[1]["recordType"] == "outbox");
    CHECK(notice[1]["changes"]["recipient"] == change(nullptr, "marie@example.ca"));

    const auto line = only(fx.events({{"recordType", "meeting-attendee"}}));
    CHECK(line["recordId"] == m["id"].get<std::string>() + "/" + marie["id"].get<std::string>());
    CHECK(line["changes"]["attendance"] == change(nullptr, "present"));
}

TEST_CASE("a refused write records nothing and changes nothing") {
    AuditFixture fx;
    const auto unit = fx.unit("101", 60);
    const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay", {{"isPrimary", true}});
    const auto before = fx.stored_events();
    // snapshot() covers audit_events too.
    CHECK_REFUSED(fx, "DUPLICATE_PRIMARY", "create_co_owner",
                  (json{{"unitId", unit["id"]}, {"firstName", "Jean"}, {"lastName", "Roy"}, {"isPrimary", true}}));
    CHECK_REFUSED(fx, "VALIDATION_FAILED", "update_co_owner", (json{{"id", marie["id"]}, {"nickname", "x"}}));
    CHECK_REFUSED(fx, "CO_OWNER_NOT_FOUND", "delete_co_owner", (json{{"id", "missing"}}));
    CHECK_REFUSED(fx, "FRACTION_SUM_OUT_OF_RANGE", "create_unit", (json{{"number", "102"}, {"type", "apartment"}, {"fractionPercent", 90}}));
    CHECK(fx.stored_events() == before);
}

TEST_CASE("who: a user through an OAuth application, or the program itself") {
    AuditFixture fx;
    CallerContext user{fx.syndicate, "user:u-1", {"*"}, Role::admin, "u-1", "client-9"};
    const auto unit = fx.call_as(user, "create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 60}});
    CallerContext program{fx.syndicate, "", {"*"}, Role::admin};
    fx.call_as(program, "update_unit", {{"id", unit["id"]}, {"floor", 3}});

    const auto e = fx.events({{"recordId", unit["id"]}});
    REQUIRE(e.size() == 2);
    CHECK(e[0]["actor"] == json{{"kind", "user"}, {"id", "u-1"}, {"clientId", "client-9"}});
    CHECK(e[1]["actor"] == json{{"kind", "system"}, {"id", "syndic-mcp"}, {"clientId", nullptr}});
    CHECK(fx.events({{"actorId", "u-1"}}).size() == 1);
}

TEST_CASE("list_audit_events") {
    AuditFixture fx;
    const auto unit = fx.unit("101", 60);                        // 2026-11-21 10:00 Montreal
    fx.clock.advance(std::chrono::hours(24));
    const auto marie = fx.co_owner(unit["id"], "Marie", "Tremblay");  // 2026-11-22
    fx.clock.advance(std::chrono::hours(24));
    fx.call("update_co_owner", {{"id", marie["id"]}, {"lastName", "Gagnon"}});  // 2026-11-23

    SUBCASE("newest first, with the pagination envelope") {
        const auto list = fx.call("list_audit_events", {{"pageSize", 2}});
        CHECK(list["pagination"] == json{{"page", 1}, {"pageSize", 2}, {"total", 3}});
        REQUIRE(list["data"].size() == 2);
        CHECK(list["data"][0]["tool"] == "update_co_owner");
        CHECK(list["data"][1]["tool"] == "create_co_owner");
        CHECK(list["data"][0]["sequence"].get<int>() > list["data"][1]["sequence"].get<int>());
        const auto second = fx.call("list_audit_events", {{"pageSize", 2}, {"page", 2}});
        REQUIRE(second["data"].size() == 1);
        CHECK(second["data"][0]["tool"] == "create_unit");
    }

    SUBCASE("filters: record type, tool, action, actor, days and instants") {
        CHECK(fx.events({{"recordType", "unit"}}).size() == 1);
        CHECK(fx.events({{"tool", "create_co_owner"}}).size() == 1);
        CHECK(fx.events({{"action", "update"}}).size() == 1);
        CHECK(fx.events({{"actorId", "key-admin"}}).size() == 3);
        CHECK(fx.events({{"actorId", "key-other"}}).empty());
        CHECK(fx.events({{"from", "2026-11-22"}, {"to", "2026-11-22"}}).size() == 1);
        CHECK(fx.events({{"from", "2026-11-22T10:00:00-05:00"}}).size() == 2);
        CHECK(fx.events({{"to", "2026-11-22T09:59:59-05:00"}}).size() == 1);
    }

    SUBCASE("a time without an offset is Montreal's; what is not a time is VALIDATION_FAILED at /from") {
        CHECK(fx.events({{"from", "2026-11-22T10:00:00"}}) == fx.events({{"from", "2026-11-22T10:00:00-05:00"}}));
        const auto e = fx.error("list_audit_events", {{"from", "2026-11-22 10:00"}});
        CHECK(e.code() == std::string("VALIDATION_FAILED"));
        CHECK(e.field() == "/from");
    }

    SUBCASE("schema rejection") {
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_audit_events", (json{{"action", "erase"}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_audit_events", (json{{"pageSize", 500}}));
        CHECK_REFUSED(fx, "VALIDATION_FAILED", "list_audit_events", (json{{"recordId", ""}}));
    }

    SUBCASE("admins only, with read:audit") {
        CHECK_REFUSED_AS(fx, fx.member, "ADMIN_REQUIRED", "list_audit_events", json::object());
        const CallerContext reader{fx.syndicate, "key-reader", {"read:co-owners", "read:meetings"}, Role::admin};
        CHECK_REFUSED_AS(fx, reader, "INSUFFICIENT_SCOPE", "list_audit_events", json::object());
    }

    SUBCASE("another syndicate's events are never shown") {
        const auto b = fx.call_as(fx.other_admin, "list_audit_events");
        CHECK(b["data"].empty());
        CHECK(b["pagination"]["total"] == 0);
        CHECK(fx.call_as(fx.other_admin, "list_audit_events", {{"recordId", marie["id"]}})["data"].empty());
        fx.call_as(fx.other_admin, "create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 10}});
        CHECK(fx.events().size() == 3);
        CHECK(fx.call_as(fx.other_admin, "list_audit_events")["pagination"]["total"] == 1);
    }
}

TEST_CASE("audit events cannot be altered") {
    AuditFixture fx;
    const auto unit = fx.unit("101", 60);
    fx.co_owner(unit["id"], "Marie", "Tremblay");
    const auto before = fx.events();
    REQUIRE(before.size() == 2);

    SUBCASE("not by SQL: updates and deletions are refused by the database") {
        CHECK_THROWS_WITH(fx.db->sql().exec("UPDATE audit_events SET actor_id = 'someone-else'"),
                          doctest::Contains("audit events cannot be changed"));
        CHECK_THROWS_WITH(fx.db->sql().exec("DELETE FROM audit_events"), doctest::Contains("audit events cannot be deleted"));
        CHECK(fx.events() == before);
    }

    SUBCASE("not by any tool: whatever is called afterwards, earlier events stay as they were") {
        const auto marie = fx.call("list_co_owners")["data"][0];
        fx.call("update_co_owner", {{"id", marie["id"]}, {"lastName", "Gagnon"}});
        fx.call("delete_co_owner", {{"id", marie["id"]}});
        fx.call("restore_co_owner", {{"id", marie["id"]}});
        fx.call("update_unit", {{"id", unit["id"]}, {"fractionPercent", 100}});
        fx.call("rebalance_fractions");
        const auto after = fx.events();
        REQUIRE(after.size() >= before.size() + 4);
        CHECK(std::vector<json>(after.begin(), after.begin() + 2) == before);
    }
}

TEST_CASE("a savepoint that rolls back takes its changes out of the trail") {
    AuditFixture fx;
    syndic::WriteTransaction outer(*fx.db);
    syndic::ChangeRecorder recorder(*fx.db);
    auto insert_unit = [&](const char* id, const char* number) {
        auto q = fx.db->prepare(
            "INSERT INTO units (id, syndicate_id, number, type, created_at, updated_at) VALUES (?, ?, ?, 'storage', 'x', 'x')");
        q->bind(1, id);
        q->bind(2, fx.syndicate);
        q->bind(3, number);
        q->exec();
    };
    insert_unit("kept", "S-1");
    {
        syndic::WriteTransaction part(*fx.db);
        insert_unit("rolled-back", "S-2");
    }  // not committed
    CHECK(recorder.write_events({fx.syndicate, {"api-key", "key-admin", ""}, "test", "2026-11-21T15:00:00.000Z"}) == 1);
    outer.commit();
    const auto e = only(fx.events());
    CHECK(e["recordId"] == "kept");
}

namespace {

// The real handlers with one replaced, in a registry of their own (create_unit writes, list_units reads).
syndic::ToolRegistry registry_with(const std::string& name, syndic::ToolHandler replacement) {
    const syndic::ToolTable all = syndic::all_tool_handlers();
    syndic::ToolTable table;
    for (const auto& [n, h] : all.entries()) table.bind(n, n == name ? replacement : h);
    return syndic::ToolRegistry(table);
}

void insert_storage_unit(syndic::Database& db, const std::string& syndicate, const char* id, const char* number) {
    auto q = db.prepare(
        "INSERT INTO units (id, syndicate_id, number, type, created_at, updated_at) VALUES (?, ?, ?, 'storage', 'x', 'x')");
    q->bind(1, id);
    q->bind(2, syndicate);
    q->bind(3, number);
    q->exec();
}

}  // namespace

TEST_CASE("a handler that opens its own transaction fails; a named Savepoint is the part it may undo alone") {
    AuditFixture fx;
    const std::string rule = "a tool handler opens no transaction";
    const auto events_before = fx.stored_events();
    auto units = [&] { return fx.db->sql().execAndGet("SELECT group_concat(id) FROM (SELECT id FROM units ORDER BY id)").getString(); };

    SUBCASE("a write: the call fails and nothing it wrote stays") {
        auto registry = registry_with("create_unit", [&](const syndic::ToolCall& call) -> syndic::ToolResult {
            insert_storage_unit(call.db, fx.syndicate, "before", "S-1");
            syndic::WriteTransaction own(call.db);
            insert_storage_unit(call.db, fx.syndicate, "inside", "S-2");
            own.commit();
            return json::object();
        });
        CHECK_THROWS_WITH_AS(registry.call("create_unit", {{"number", "S-1"}, {"type", "storage"}}, fx.admin, *fx.db, fx.clock),
                             doctest::Contains(rule.c_str()), std::logic_error);
        CHECK(units() == "");
        CHECK(fx.stored_events() == events_before);
        // The connection is out of the call: transactions open again.
        syndic::WriteTransaction after(*fx.db);
        after.commit();
    }
    SUBCASE("a read fails as well") {
        auto registry = registry_with("list_units", [](const syndic::ToolCall& call) -> syndic::ToolResult {
            syndic::WriteTransaction own(call.db);
            return json::object();
        });
        CHECK_THROWS_WITH_AS(registry.call("list_units", json::object(), fx.admin, *fx.db, fx.clock),
                             doctest::Contains(rule.c_str()), std::logic_error);
    }
    SUBCASE("a Savepoint not released undoes its part, and the call commits the rest with its trail") {
        auto registry = registry_with("create_unit", [&](const syndic::ToolCall& call) -> syndic::ToolResult {
            insert_storage_unit(call.db, fx.syndicate, "kept", "S-1");
            {
                syndic::Savepoint trial(call.db, "trial");
                insert_storage_unit(call.db, fx.syndicate, "tried", "S-2");
            }
            syndic::Savepoint released(call.db, "released");
            insert_storage_unit(call.db, fx.syndicate, "also-kept", "S-3");
            released.release();
            return json::object();
        });
        registry.call("create_unit", {{"number", "S-1"}, {"type", "storage"}}, fx.admin, *fx.db, fx.clock);
        CHECK(units() == "also-kept,kept");
        CHECK(fx.stored_events() == events_before + 2);  // the two units kept, not the one undone
    }
    SUBCASE("a Savepoint needs a transaction to be part of, and a plain name") {
        CHECK_THROWS_AS(syndic::Savepoint(*fx.db, "alone"), std::logic_error);
        syndic::WriteTransaction tx(*fx.db);
        CHECK_THROWS_AS(syndic::Savepoint(*fx.db, "x; DROP TABLE units"), std::logic_error);
        CHECK_THROWS_AS(syndic::Savepoint(*fx.db, ""), std::logic_error);
    }
}

TEST_CASE("record types are the tables' rows, named in the singular") {
    CHECK(syndic::record_type_of("co_owners") == "co-owner");
    CHECK(syndic::record_type_of("meeting_attendees") == "meeting-attendee");
    CHECK(syndic::record_type_of("insurance_policies") == "insurance-policy");
    CHECK(syndic::record_type_of("outbox") == "outbox");
}

}  // TEST_SUITE

}  // namespace audit_test
