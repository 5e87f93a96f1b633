// The daily tick (catalogue section 6, derived events): water heaters due soon or overdue and
// insurance policies expiring, each once per record and state, with the record as its list tool
// shows it; a new state (a tank whose replaceBy moved, a renewed policy) gives a new event; each
// syndicate's own; a subscribed webhook gets a delivery. The tick's day turns at 02:00 in Montreal.
#include "fixture.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

#include "events/tick.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace tick_test {

using namespace syndic::test;

namespace {

int events_of_type(Fixture& fx, const std::string& syndicate, const std::string& type) {
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM events WHERE syndicate_id = ? AND type = ?");
    q.bind(1, syndicate);
    q.bind(2, type);
    q.executeStep();
    return q.getColumn(0).getInt();
}

// The tick over the fixture's database, reading the tools through the fixture's registry.
syndic::TickRun tick(Fixture& fx) {
    return syndic::run_tick(*fx.db, fx.clock,
                            [&](const std::string& tool, const json& arguments, const syndic::CallerContext& caller,
                                syndic::Database& db, const syndic::Clock& clock) {
                                return fx.registry.call(tool, arguments, caller, db, clock);
                            });
}

json last_event(Fixture& fx, const std::string& type) {
    SQLite::Statement q(fx.db->sql(), "SELECT body FROM events WHERE type = ? ORDER BY seq DESC LIMIT 1");
    q.bind(1, type);
    REQUIRE(q.executeStep());
    return json::parse(q.getColumn(0).getString());
}

}  // namespace

TEST_SUITE("tick") {

TEST_CASE("each derived event once per record and state, the record as its tool shows it") {
    Fixture fx;  // today is 2026-11-21
    const auto unit = fx.unit("101", 10);
    // Replace by 2026-05-01: overdue. By 2027-03-01: due within 180 days. By 2030: fine.
    const auto overdue = fx.call("create_water_heater", {{"unitId", unit["id"]}, {"manufactureDate", "2016-05-01"}});
    const auto due = fx.call("create_water_heater", {{"unitId", unit["id"]}, {"manufactureDate", "2017-03-01"}});
    fx.call("create_water_heater", {{"unitId", unit["id"]}, {"manufactureDate", "2020-03-01"}});
    const auto policy = fx.call("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"},
                                                             {"policyNumber", "P-1"}, {"startDate", "2026-01-10"},
                                                             {"endDate", "2027-01-10"}});
    fx.call_as(fx.other_admin, "create_insurance_policy", {{"kind", "civil-liability"}, {"insurer", "Promutuel"},
                                                            {"policyNumber", "B-1"}, {"startDate", "2025-12-01"},
                                                            {"endDate", "2026-12-01"}});

    const auto first = tick(fx);
    CHECK(first.syndicates == 2);
    CHECK(first.emitted.at("water_heater.overdue") == 1);
    CHECK(first.emitted.at("water_heater.due_soon") == 1);
    CHECK(first.emitted.at("insurance_policy.expiring") == 2);
    CHECK(events_of_type(fx, fx.syndicate, "insurance_policy.expiring") == 1);
    CHECK(events_of_type(fx, fx.other_syndicate, "insurance_policy.expiring") == 1);
    const auto told = last_event(fx, "water_heater.due_soon");
    CHECK(told["recordId"] == due["id"]);
    CHECK(told["recordType"] == "water-heater");
    CHECK(told["data"]["status"] == "due-soon");
    CHECK(told["data"]["replaceBy"] == "2027-03-01");
    CHECK(told["actor"]["kind"] == "system");
    CHECK(told["tool"] == "tick");
    CHECK(last_event(fx, "water_heater.overdue")["recordId"] == overdue["id"]);

    // The next day: nothing new to tell.
    fx.clock.set(at("2026-11-22T15:00:00Z"));
    CHECK(tick(fx).total() == 0);

    // A new state: the overdue tank's date corrected (still overdue, another replaceBy), the policy renewed.
    fx.call("update_water_heater", {{"id", overdue["id"]}, {"manufactureDate", "2016-06-01"}});
    fx.call("update_insurance_policy", {{"id", policy["id"]}, {"endDate", "2027-01-05"}});
    const auto again = tick(fx);
    CHECK(again.emitted.at("water_heater.overdue") == 1);
    CHECK(again.emitted.at("insurance_policy.expiring") == 1);
    CHECK(again.emitted.at("water_heater.due_soon") == 0);
}

TEST_CASE("a subscribed webhook gets a delivery of a derived event") {
    Fixture fx;
    SQLite::Statement hook(fx.db->sql(),
                           "INSERT INTO webhooks (id, syndicate_id, url, events, active, secret_prefix, created_at, updated_at) "
                           "VALUES ('w1', ?, 'http://127.0.0.1:9/hook', '[\"insurance.*\"]', 1, 'whsec_', "
                           "'2026-11-21T15:00:00.000Z', '2026-11-21T15:00:00.000Z')");
    hook.bind(1, fx.syndicate);
    hook.exec();
    fx.call("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "P-1"},
                                        {"startDate", "2026-01-10"}, {"endDate", "2027-01-10"}});
    SQLite::Statement before(fx.db->sql(), "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = 'w1'");
    before.executeStep();
    const int created = before.getColumn(0).getInt();
    CHECK(tick(fx).total() == 1);
    SQLite::Statement after(fx.db->sql(), "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = 'w1'");
    after.executeStep();
    CHECK(after.getColumn(0).getInt() == created + 1);
}

TEST_CASE("the tick's day turns at 02:00 in Montreal") {
    CHECK(syndic::tick_day(at("2026-11-27T06:59:59Z")) == "2026-11-26");  // 01:59:59 EST
    CHECK(syndic::tick_day(at("2026-11-27T07:00:00Z")) == "2026-11-27");  // 02:00 EST
    CHECK(syndic::tick_day(at("2026-07-01T05:59:00Z")) == "2026-06-30");  // 01:59 EDT
    CHECK(syndic::tick_day(at("2026-07-01T06:00:00Z")) == "2026-07-01");  // 02:00 EDT
}

}  // TEST_SUITE

}  // namespace tick_test
