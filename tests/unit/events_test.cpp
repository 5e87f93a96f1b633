// The events of catalogue section 6: written in the write's own transaction (a refused call writes
// none), one per record (a bulk of 500 gives 500), with the envelope of section 6, the event a
// tool declares for the record's change or the one its handler names, message.queued for every
// message a call queues, and one pending delivery per active webhook subscribed to the event.
#include "meetings/meetings_fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace events_test {

using namespace syndic::test;
using namespace syndic::test::meeting_fixture;

namespace {

struct Event {
    std::string type, record_type, record_id;
    json body;
};

std::vector<Event> events_of(Fixture& fx, const std::string& syndicate) {
    std::vector<Event> out;
    SQLite::Statement q(fx.db->sql(),
                        "SELECT type, record_type, record_id, body FROM events WHERE syndicate_id = ? ORDER BY seq");
    q.bind(1, syndicate);
    while (q.executeStep())
        out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getString(),
                       json::parse(q.getColumn(3).getString())});
    return out;
}

std::vector<std::string> types_of(const std::vector<Event>& events) {
    std::vector<std::string> out;
    for (const auto& e : events) out.push_back(e.type);
    return out;
}

int count(Fixture& fx, const std::string& sql) {
    SQLite::Statement q(fx.db->sql(), sql);
    q.executeStep();
    return q.getColumn(0).getInt();
}

void add_webhook(Fixture& fx, const std::string& syndicate, const std::string& id, const json& events, bool active = true) {
    SQLite::Statement q(fx.db->sql(),
                        "INSERT INTO webhooks (id, syndicate_id, url, events, active, secret_prefix, created_at, updated_at) "
                        "VALUES (?, ?, 'http://127.0.0.1:9/hook', ?, ?, 'whsec_', '2026-11-21T15:00:00.000Z', "
                        "'2026-11-21T15:00:00.000Z')");
    q.bind(1, id);
    q.bind(2, syndicate);
    q.bind(3, events.dump());
    q.bind(4, active ? 1 : 0);
    q.exec();
}

}  // namespace

TEST_SUITE("events") {

TEST_CASE("a created record gives one event with the envelope of section 6") {
    Fixture fx;
    const auto c = fx.call("create_contractor", {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"}});
    const auto events = events_of(fx, fx.syndicate);
    REQUIRE(events.size() == 1);
    const auto& e = events[0].body;
    CHECK(e["type"] == "contractor.created");
    CHECK(e["apiVersion"] == "2026-11");
    CHECK(e["occurredAt"] == "2026-11-21T10:00:00-05:00");
    CHECK(e["syndicateId"] == fx.syndicate);
    CHECK(e["actor"] == json{{"kind", "api-key"}, {"id", "key-admin"}});
    CHECK(e["tool"] == "create_contractor");
    CHECK(e["recordType"] == "contractor");
    CHECK(e["recordId"] == c["id"]);
    CHECK(e["data"] == c);
    CHECK_FALSE(e.contains("changes"));
    CHECK(e["id"].get<std::string>().size() == 36);
}

TEST_CASE("an update carries its changes; an archive is its own event") {
    Fixture fx;
    const auto c = fx.call("create_contractor", {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"}});
    fx.call("update_contractor", {{"id", c["id"]}, {"trade", "chauffage"}});
    fx.call("delete_contractor", {{"id", c["id"]}});
    const auto events = events_of(fx, fx.syndicate);
    CHECK(types_of(events) == std::vector<std::string>{"contractor.created", "contractor.updated", "contractor.archived"});
    CHECK(events[1].body["changes"] == json{{"trade", {{"before", "plomberie"}, {"after", "chauffage"}}}});
    CHECK(events[1].body["data"]["trade"] == "chauffage");
    CHECK_FALSE(events[2].body.contains("changes"));
}

TEST_CASE("a refused call writes no event") {
    Fixture fx;
    fx.call("create_contractor", {{"name", "A"}, {"trade", "t"}, {"neq", "1171234567"}});
    CHECK_REFUSED(fx, "DUPLICATE_NEQ", "create_contractor", (json{{"name", "B"}, {"trade", "t"}, {"neq", "1171234567"}}));
    CHECK(events_of(fx, fx.syndicate).size() == 1);
}

TEST_CASE("a bulk of 500 co-owners gives 500 co_owner.created, in order") {
    Fixture fx;
    const auto unit = fx.unit("101", 100);
    json rows = json::array();
    for (int i = 0; i < 500; ++i)
        rows.push_back({{"unitId", unit["id"]}, {"firstName", "P" + std::to_string(i)}, {"lastName", "Lavoie"}});
    const auto made = fx.call("bulk_create_co_owners", {{"coOwners", rows}});
    const auto events = events_of(fx, fx.syndicate);
    REQUIRE(events.size() == 501);  // the unit, then the co-owners
    CHECK(events[0].type == "unit.created");
    for (int i = 0; i < 500; ++i) {
        CHECK(events[static_cast<std::size_t>(i + 1)].type == "co_owner.created");
        CHECK(events[static_cast<std::size_t>(i + 1)].body["data"]["firstName"] == "P" + std::to_string(i));
    }
}

TEST_CASE("meetings: the handler names held, attendance and minutes; a notice queues message.queued per e-mail") {
    Building fx;
    const auto m = fx.meeting();
    fx.notice(m);
    auto events = events_of(fx, fx.syndicate);
    int queued = 0;
    for (const auto& e : events) queued += e.type == "message.queued";
    CHECK(queued == count(fx, "SELECT count(*) FROM outbox WHERE syndicate_id = '" + fx.syndicate + "'"));
    CHECK(std::count_if(events.begin(), events.end(), [](const Event& e) { return e.type == "meeting.notice_sent"; }) == 1);
    const auto before = events.size();
    fx.attend(m, json::array({present(fx.emilie)}));
    fx.held(m);
    events = events_of(fx, fx.syndicate);
    REQUIRE(events.size() == before + 2);
    CHECK(events[before].type == "meeting.attendance_recorded");
    CHECK(events[before].record_id == m["id"].get<std::string>());
    CHECK(events[before + 1].type == "meeting.held");
    CHECK(events[before + 1].body["data"]["status"] == "held");
}

TEST_CASE("deliveries: one per active webhook subscribed, in the call's syndicate") {
    Fixture fx;
    add_webhook(fx, fx.syndicate, "11111111-1111-4111-8111-111111111111", {"contractors.*"});
    add_webhook(fx, fx.syndicate, "22222222-2222-4222-8222-222222222222", {"contractor.updated"});
    add_webhook(fx, fx.syndicate, "33333333-3333-4333-8333-333333333333", {"contractors.*"}, false);
    add_webhook(fx, fx.other_syndicate, "44444444-4444-4444-8444-444444444444", {"contractors.*"});
    const auto c = fx.call("create_contractor", {{"name", "A"}, {"trade", "t"}});
    CHECK(count(fx, "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'") == 1);
    CHECK(count(fx, "SELECT count(*) FROM webhook_deliveries WHERE webhook_id LIKE '1111%' AND event_type = "
                    "'contractor.created'") == 1);
    fx.call("update_contractor", {{"id", c["id"]}, {"trade", "u"}});
    CHECK(count(fx, "SELECT count(*) FROM webhook_deliveries") == 3);
    CHECK(count(fx, "SELECT count(*) FROM webhook_deliveries WHERE webhook_id LIKE '2222%'") == 1);
}

}  // TEST_SUITE

}  // namespace events_test
