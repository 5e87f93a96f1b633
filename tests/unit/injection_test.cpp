// Hostile text (issue 7, point 6): SQL, LIKE wildcards, FTS5 syntax, SQL parameter names, the
// longest text the schema allows and Unicode, sent through every free-text filter
// (list_co_owners and list_units' search, list_meetings' from and to) and stored in every text
// field. Filters must match only literally (the test's own model of the records says what each
// should find), stored text must come back byte for byte, and no table, row count or schema entry
// may change. Then the API key's secret: whatever a call presents (a valid key, an unknown one, one
// with another prefix, a revoked one), neither it nor its hash reaches the log, whether the call
// succeeds, is refused or fails inside.
#include "fixture.hpp"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/text.hpp"
#include "jsonrpc/dispatcher.hpp"
#include "mcp/server.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace injection_test {

using namespace syndic::test;
using namespace std::string_literals;

namespace {

// The hostile strings. None has spaces around it (stored text is trimmed), none is longer than 50
// bytes (a unit number's limit); the longest strings the schemas allow are sent apart.
const std::vector<std::string> hostile = {
    "'; DROP TABLE co_owners; --",
    "' OR '1'='1",
    "\" OR \"\"=\"",
    "'); DELETE FROM units; --",
    "' UNION SELECT key_hash FROM api_keys --",
    "1; UPDATE syndicates SET name = 'x'",
    "%",
    "_",
    "\\",
    "%_%",
    "a%b",
    "1_2",
    "\\%",
    "[a-z]*",
    "\"",
    "\"\"",
    "*",
    "ro*",
    "^ro",
    "NEAR(a b)",
    "a OR b",
    "co AND NOT ro",
    ")",
    "co_owner_search",
    "?1 ?4 :a @a $a",
    "/* */",
    "Émilie",
    "日本",
    "🏠",
    "e\xcc\x81",  // e and a combining acute accent
    "Œuvre",
    "ß",
};

std::string ascii_lower(const std::string& s) {
    std::string out = s;
    for (auto& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The longest text a schema allows for a field, made of hostile characters.
std::string longest(std::size_t bytes) {
    const std::string pattern = "%_'\"\\*";
    std::string out;
    while (out.size() < bytes) out += pattern[out.size() % pattern.size()];
    return out;
}

std::vector<std::string> sorted_ids(const json& list) {
    std::vector<std::string> out;
    for (const auto& r : list["data"]) out.push_back(r["id"]);
    std::sort(out.begin(), out.end());
    return out;
}

// Every table's row count and the whole schema (sqlite_master), to show nothing was dropped,
// added or changed.
std::string tables_and_schema(syndic::Database& db) {
    std::string out;
    std::vector<std::string> tables;
    {
        SQLite::Statement q(db.sql(), "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name");
        while (q.executeStep()) {
            out += q.getColumn(0).getString() + " " + q.getColumn(1).getString() + " " + q.getColumn(2).getString() +
                   " " + q.getColumn(3).getString() + "\n";
            if (q.getColumn(0).getString() == "table") tables.push_back(q.getColumn(1).getString());
        }
    }
    for (const auto& t : tables) {
        SQLite::Statement q(db.sql(), "SELECT count(*) FROM \"" + t + "\"");
        q.executeStep();
        out += t + ": " + q.getColumn(0).getString() + "\n";
    }
    return out;
}

struct UnitRecord {
    std::string id, number, lot, type;
};
struct CoOwnerRecord {
    std::string id, first, last, email;
    bool archived = false, portal = false;
};

// Syndicate A holds a unit and a co-owner for each hostile string, its text in their fields;
// syndicate B holds the same, so that a filter leaking across syndicates shows too. The test's
// model is the list of A's records.
struct HostileRegister : Fixture {
    std::vector<UnitRecord> units;
    std::vector<CoOwnerRecord> co_owners;
    int stored_fields = 0;  // text fields written and read back

    void check_same(const json& value, const std::string& sent) {
        CHECK_MESSAGE(value == sent, "sent " << json(sent).dump() << ", read back " << value.dump());
        ++stored_fields;
    }

    HostileRegister() {
        const auto home = unit("Home-0", 0, "apartment");
        const std::vector<std::string> types = {"apartment", "parking", "storage", "commercial"};
        for (std::size_t i = 0; i < hostile.size(); ++i) {
            const auto& h = hostile[i];
            const std::string lot = "lot " + h;
            const std::string type = types[i % types.size()];
            const auto u = call("create_unit", {{"number", h}, {"type", type}, {"cadastralLot", lot}, {"floor", int(i % 3)}});
            check_same(u["number"], h);
            check_same(u["cadastralLot"], lot);
            const auto back = call("get_unit", {{"id", u["id"]}});
            check_same(back["number"], h);
            check_same(back["cadastralLot"], lot);
            units.push_back({u["id"], h, lot, type});
            call_as(other_admin, "create_unit", {{"number", h}, {"type", type}, {"cadastralLot", lot}});

            const std::string first = "P" + std::to_string(i) + h;
            const std::string email = "p" + std::to_string(i) + (i % 2 ? "%_" : "") + "@example.ca";
            const bool portal = i % 3 == 0;
            const std::string phone = h.size() <= 30 ? h : syndic::trim(h.substr(0, 30));  // a phone takes 30 bytes
            auto c = call("create_co_owner", {{"unitId", home["id"]}, {"firstName", first}, {"lastName", h},
                                              {"email", email}, {"phone", phone}, {"hasPortalAccess", portal}});
            check_same(c["firstName"], first);
            check_same(c["lastName"], h);
            check_same(c["phone"], phone);
            const bool archived = i % 4 == 1;
            if (archived) call("delete_co_owner", {{"id", c["id"]}});
            c = call("get_co_owner", {{"id", c["id"]}});
            check_same(c["firstName"], first);
            check_same(c["lastName"], h);
            check_same(c["phone"], phone);
            CHECK(c["hasPortalAccess"] == (portal && !archived));  // archiving ends portal access
            co_owners.push_back({c["id"], first, h, email, archived, c["hasPortalAccess"].get<bool>()});
            const auto b_unit = call_as(other_admin, "create_unit", {{"number", "B-" + std::to_string(i)}, {"type", "apartment"}});
            call_as(other_admin, "create_co_owner",
                    {{"unitId", b_unit["id"]}, {"firstName", first}, {"lastName", h}, {"email", email}});
        }
        // The longest text each field takes.
        const auto u = call("create_unit", {{"number", longest(50)}, {"type", "storage"}, {"cadastralLot", longest(49) + "x"}});
        check_same(call("get_unit", {{"id", u["id"]}})["number"], longest(50));
        units.push_back({u["id"], longest(50), longest(49) + "x", "storage"});
        const auto c = call("create_co_owner", {{"unitId", home["id"]}, {"firstName", longest(100)}, {"lastName", longest(100)},
                                                {"phone", longest(30)}});
        const auto c_back = call("get_co_owner", {{"id", c["id"]}});
        check_same(c_back["firstName"], longest(100));
        check_same(c_back["lastName"], longest(100));
        check_same(c_back["phone"], longest(30));
        co_owners.push_back({c["id"], longest(100), longest(100), "", false, false});
        units.push_back({home["id"], "Home-0", "", "apartment"});
    }

    // What list_units' search should find: the term in the number or the lot, ASCII letters in
    // either case (SQLite's lower()), every other byte as it is.
    std::vector<std::string> units_model(const std::string& term, const std::string& type = "") {
        std::vector<std::string> out;
        for (const auto& u : units)
            if ((type.empty() || u.type == type) &&
                (has(ascii_lower(u.number), ascii_lower(term)) || has(ascii_lower(u.lot), ascii_lower(term))))
                out.push_back(u.id);
        std::sort(out.begin(), out.end());
        return out;
    }
    // What list_co_owners' search should find: the term, folded (case and accents), in the folded
    // first name, last name and e-mail.
    std::vector<std::string> co_owners_model(const std::string& term, bool archived, std::optional<bool> portal = {}) {
        std::vector<std::string> out;
        const auto folded = syndic::fold_for_search(term);
        for (const auto& c : co_owners)
            if ((archived || !c.archived) && (!portal || c.portal == *portal) &&
                has(syndic::fold_for_search(c.first + " " + c.last + " " + c.email), folded))
                out.push_back(c.id);
        std::sort(out.begin(), out.end());
        return out;
    }
};

}  // namespace

TEST_SUITE("injection") {

TEST_CASE("text filters match only literally: hostile searches of units and co-owners against the model") {
    HostileRegister fx;
    const auto before = tables_and_schema(*fx.db);
    std::vector<std::string> terms = hostile;
    for (const char* extra : {"o", "O", "lot", "LOT ' OR", "p1", "%_@example", "é", "É", "oe", "EMILIE"})
        terms.push_back(extra);
    int searches = 0, nonempty = 0;

    for (const auto& term : terms) {
        CAPTURE(json(term).dump());
        for (const std::string type : {"", "parking"}) {
            json args = {{"search", term}, {"pageSize", 200}};
            if (!type.empty()) args["type"] = type;
            const auto list = fx.call("list_units", args);
            const auto want = fx.units_model(term, type);
            CHECK(sorted_ids(list) == want);
            CHECK(list["pagination"]["total"] == want.size());
            ++searches;
            if (!want.empty()) ++nonempty;
        }
        for (const bool archived : {false, true})
            for (const auto portal : {std::optional<bool>{}, std::optional<bool>{true}}) {
                json args = {{"search", term}, {"pageSize", 200}, {"includeArchived", archived}};
                if (portal) args["hasPortalAccess"] = *portal;
                const auto list = fx.call("list_co_owners", args);
                const auto want = fx.co_owners_model(term, archived, portal);
                CHECK(sorted_ids(list) == want);
                CHECK(list["pagination"]["total"] == want.size());
                ++searches;
                if (!want.empty()) ++nonempty;
            }
    }
    // The longest searches the schemas take.
    for (const auto& term : {longest(100), longest(99) + "x"}) {
        CHECK(sorted_ids(fx.call("list_units", {{"search", term}, {"pageSize", 200}})) == fx.units_model(term));
        ++searches;
    }
    for (const auto& term : {longest(200), longest(100)}) {
        CHECK(sorted_ids(fx.call("list_co_owners", {{"search", term}, {"pageSize", 200}})) == fx.co_owners_model(term, false));
        ++searches;
    }
    // A wildcard must find only the records that hold it: fewer than all.
    CHECK(fx.units_model("%").size() < fx.units.size());
    CHECK(fx.units_model("_").size() < fx.units.size());
    CHECK(fx.co_owners_model("%", true).size() < fx.co_owners.size());
    CHECK(nonempty > searches / 2);
    CHECK(tables_and_schema(*fx.db) == before);
    MESSAGE(terms.size() << " terms, " << searches << " searches (" << nonempty << " with matches), "
                         << fx.stored_fields << " stored fields read back");
}

TEST_CASE("list_meetings: hostile from, to, status and type are refused, and change nothing") {
    HostileRegister fx;
    fx.call("create_meeting", {{"title", "AGA"}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"},
                               {"location", "Salle"}});
    const auto before = tables_and_schema(*fx.db);
    int refused = 0;
    for (const auto& h : hostile)
        for (const auto& args : {json{{"from", h}}, json{{"to", h}}, json{{"from", "2026-01-01"}, {"to", h}},
                                 json{{"status", h}}, json{{"type", h}}, json{{"from", "2026-12-15" + h}},
                                 json{{"to", "2026-12-15T19:00:00-05:00" + h}}}) {
            CAPTURE(args.dump());
            CHECK(fx.error("list_meetings", args).code() == "VALIDATION_FAILED");
            ++refused;
        }
    // The filters still work once the attempts are over.
    CHECK(fx.call("list_meetings", {{"from", "2026-12-15"}, {"to", "2026-12-15"}})["pagination"]["total"] == 1);
    CHECK(tables_and_schema(*fx.db) == before);
    MESSAGE(refused << " hostile list_meetings filters refused");
}

TEST_CASE("hostile text stored in meetings comes back byte for byte, in the record and the notice") {
    HostileRegister fx;
    const auto schema_of = [&] {
        std::string out;
        SQLite::Statement q(fx.db->sql(), "SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name");
        while (q.executeStep()) out += q.getColumn(0).getString() + q.getColumn(1).getString() + q.getColumn(2).getString();
        return out;
    };
    const auto schema = schema_of();
    const auto& someone = fx.co_owners[0];  // active, with an e-mail
    REQUIRE_FALSE(someone.archived);
    int meetings = 0;
    for (const auto& h : hostile) {
        CAPTURE(json(h).dump());
        const json agenda = json::array({h, "2. " + h});
        auto m = fx.call("create_meeting", {{"title", h}, {"type", "aga-special"}, {"scheduledAt", "2026-12-01T19:00:00-05:00"},
                                            {"location", h}, {"agenda", agenda}});
        fx.check_same(m["title"], h);
        fx.check_same(m["location"], h);
        CHECK(m["agenda"] == agenda);
        // Ten days ahead: aga-special with a justification.
        const auto sent = fx.call("send_meeting_notice", {{"meetingId", m["id"]}, {"justification", h}});
        fx.check_same(sent["meeting"]["notice"]["justification"], h);
        const auto r = fx.call("add_resolution", {{"meetingId", m["id"]}, {"title", h}, {"description", h},
                                                  {"majorityRequired", "simple"}});
        fx.check_same(r["title"], h);
        fx.check_same(r["description"], h);
        fx.call("record_attendance", {{"meetingId", m["id"]},
                                      {"attendees", json::array({json{{"coOwnerId", someone.id}, {"attendance", "proxy"},
                                                                      {"proxyHolder", h}}})}});
        m = fx.call("get_meeting", {{"id", m["id"]}});
        fx.check_same(m["title"], h);
        fx.check_same(m["location"], h);
        CHECK(m["agenda"] == agenda);
        fx.check_same(m["notice"]["justification"], h);
        fx.check_same(m["resolutions"][0]["title"], h);
        fx.check_same(m["resolutions"][0]["description"], h);
        fx.check_same(m["attendees"][0]["proxyHolder"], h);
        ++meetings;
    }
    const auto long_title = longest(200);
    const auto m = fx.call("create_meeting", {{"title", long_title}, {"type", "board"}, {"scheduledAt", "2027-01-19T19:00:00-05:00"},
                                              {"location", longest(500)}, {"agenda", json::array({longest(500)})}});
    const auto back = fx.call("get_meeting", {{"id", m["id"]}});
    fx.check_same(back["title"], long_title);
    fx.check_same(back["location"], longest(500));
    fx.check_same(back["agenda"][0], longest(500));
    CHECK(fx.call("list_meetings", {{"pageSize", 200}})["pagination"]["total"] == meetings + 1);
    CHECK(schema_of() == schema);
    // The syndicate's name and the other tables are whole.
    SQLite::Statement q(fx.db->sql(), "SELECT count(*) FROM syndicates WHERE name IN ('Syndicat A', 'Syndicat B')");
    q.executeStep();
    CHECK(q.getColumn(0).getInt() == 2);
    MESSAGE(fx.stored_fields << " stored fields read back");
}

TEST_CASE("text holding a NUL anywhere is refused, and changes nothing") {
    // The registry refuses U+0000 in every string argument (FTS5, the PDF minutes and the logs
    // read C text, which ends there): never stored or searched.
    HostileRegister fx;
    const auto before = tables_and_schema(*fx.db);
    for (const auto& text : {"\0"s, "\0\0\0"s, "\0' OR '1'='1"s, "x\0y"s, "ab\0\0cd"s, "é\0"s, "' OR 1=1\0"s}) {
        CAPTURE(json(text).dump());
        CHECK(fx.error("list_units", {{"search", text}}).code() == "VALIDATION_FAILED");
        CHECK(fx.error("list_co_owners", {{"search", text}}).code() == "VALIDATION_FAILED");
        CHECK(fx.error("create_unit", {{"number", text}, {"type", "storage"}}).code() == "VALIDATION_FAILED");
        CHECK(fx.error("create_meeting", {{"title", text}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"},
                                          {"location", "Salle"}}).code() == "VALIDATION_FAILED");
    }
    CHECK(tables_and_schema(*fx.db) == before);
}

TEST_CASE("control characters and bidi overrides are refused in text; line breaks only where a field holds several lines") {
    // Issue 15: no stdio line, log line or minutes carries a raw control character, and nothing
    // shown reads otherwise than it is stored. Which fields hold lines is said by their schema.
    HostileRegister fx;
    const auto before = tables_and_schema(*fx.db);
    for (const auto& text : {"a\x01" "b"s, "a\x1b[2Jb"s, "a\x7f"s, "a\xC2\x85" "b"s, "a\xC2\x9B" "b"s, "a\xE2\x80\xAE" "b"s,
                             "a\xE2\x81\xA6" "b"s, "a\nb"s, "a\rb"s, "a\tb"s, "a\xE2\x80\xA8" "b"s}) {
        CAPTURE(json(text).dump());
        CHECK(fx.error("list_units", {{"search", text}}).code() == "VALIDATION_FAILED");
        CHECK(fx.error("create_unit", {{"number", text}, {"type", "storage"}}).code() == "VALIDATION_FAILED");
        CHECK(fx.error("create_co_owner", {{"unitId", fx.units[0].id}, {"firstName", text}, {"lastName", "X"}}).code() ==
              "VALIDATION_FAILED");
        CHECK(fx.error("create_meeting", {{"title", text}, {"type", "aga"}, {"scheduledAt", "2026-12-15T19:00:00-05:00"},
                                          {"location", "Salle"}}).code() == "VALIDATION_FAILED");
    }
    CHECK(tables_and_schema(*fx.db) == before);
    // A note keeps its lines and tabs; still no other control character.
    const auto made = fx.call("create_contractor", {{"name", "Plomberie"}, {"trade", "plumbing"}, {"notes", "Ligne 1\r\nLigne 2\tfin"}});
    fx.check_same(made["notes"], "Ligne 1\r\nLigne 2\tfin");
    CHECK(fx.error("create_contractor", {{"name", "Plomberie"}, {"trade", "plumbing"}, {"notes", "a\x1b[2J"}}).code() == "VALIDATION_FAILED");
}

}  // TEST_SUITE("injection")

namespace {

// The default logger replaced, for the test's life, by one that writes every level to a string.
struct CapturedLog {
    std::ostringstream out;
    std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
    CapturedLog() {
        auto logger = std::make_shared<spdlog::logger>("captured", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
        logger->set_level(spdlog::level::trace);
        spdlog::set_default_logger(logger);
    }
    ~CapturedLog() { spdlog::set_default_logger(previous); }
    CapturedLog(const CapturedLog&) = delete;
    CapturedLog& operator=(const CapturedLog&) = delete;
    std::string text() {
        spdlog::default_logger()->flush();
        return out.str();
    }
};

// One MCP connection over `db`, its calls made with `key`, as the stdio server makes them.
struct Connection {
    syndic::jsonrpc::Dispatcher dispatcher;
    std::unique_ptr<syndic::McpServer> server;
    int next_id = 1;

    Connection(Fixture& fx, const std::string& key) {
        syndic::McpOptions options;
        options.api_key = key;
        server = std::make_unique<syndic::McpServer>(
            fx.registry, [&fx]() -> syndic::Database& { return *fx.db; }, fx.clock, options, [](const std::string&) {});
        server->attach(dispatcher);
    }
    json send(const std::string& method, const json& params) {
        const auto out = dispatcher.handle(
            json{{"jsonrpc", "2.0"}, {"id", next_id++}, {"method", method}, {"params", params}}.dump());
        REQUIRE(out.has_value());
        return json::parse(*out);
    }
    json call(const std::string& tool, const json& args) { return send("tools/call", {{"name", tool}, {"arguments", args}}); }
};

}  // namespace

TEST_SUITE("secrets") {

TEST_CASE("an API key's secret and its hash never reach the log") {
    CapturedLog log;
    Fixture fx;
    const auto valid = syndic::issue_api_key(*fx.db, fx.clock, fx.syndicate, syndic::Role::admin, {"*"}, "valid").secret;
    const auto revoked_key = syndic::issue_api_key(*fx.db, fx.clock, fx.syndicate, syndic::Role::admin, {"*"}, "old");
    REQUIRE(syndic::revoke_api_key(*fx.db, fx.clock, revoked_key.id));
    const auto member = syndic::issue_api_key(*fx.db, fx.clock, fx.syndicate, syndic::Role::member, {"read:co-owners"}, "m").secret;
    const std::vector<std::string> presented = {
        valid,
        member,
        revoked_key.secret,
        syndic::new_api_key(),          // well formed, never issued
        "pk_" + valid.substr(3),        // another prefix
        "SK_" + valid.substr(3),
        valid.substr(0, 20),            // too short
        valid + "x",
        " " + valid,
    };

    int calls = 0;
    auto session = [&](const std::string& key) {
        Connection c(fx, key);
        c.send("initialize", {{"protocolVersion", "2025-11-25"}, {"clientInfo", {{"name", "test"}, {"version", "1"}}}});
        c.call("create_unit", {{"number", "U" + std::to_string(calls)}, {"type", "storage"}});
        c.call("get_unit", {{"id", "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99"}});  // refused: logged at debug level
        c.call("update_unit", {{"id", 42}});                                      // invalid arguments
        c.call("rebalance_fractions", json::object());                            // a member is refused
        c.call("no_such_tool", json::object());
        calls += 5;
    };
    for (const auto& key : presented) session(key);

    // Failures inside: the credentials' table gone (the lookup fails), then a business table
    // gone with the credentials cached. Both answer -32603 and are logged with their cause.
    {
        Connection c(fx, valid);
        REQUIRE(c.call("get_fraction_sum", json::object()).contains("result"));
        fx.db->sql().exec("ALTER TABLE units RENAME TO units_gone");
        const auto failed = c.call("get_fraction_sum", json::object());
        REQUIRE(failed.contains("error"));
        CHECK(failed["error"]["code"] == -32603);
        fx.db->sql().exec("ALTER TABLE api_keys RENAME TO api_keys_gone");
        for (const auto& key : presented) {
            Connection k(fx, key);
            const auto a = k.call("get_fraction_sum", json::object());
            REQUIRE(a.contains("error"));
            ++calls;
        }
        calls += 2;
    }

    const auto text = log.text();
    // The log holds what these paths write: refusals, and the internal failures with their cause.
    CHECK(has(text, "refused"));
    CHECK(has(text, "NOT_AUTHENTICATED"));
    CHECK(has(text, "failed"));
    CHECK(has(text, "units"));
    for (const auto& key : presented) {
        CAPTURE(key);
        CHECK_FALSE(has(text, key));
        CHECK_FALSE(has(text, syndic::trim(key)));
        CHECK_FALSE(has(text, syndic::sha256_hex(key)));
        CHECK_FALSE(has(text, syndic::sha256_hex(syndic::trim(key))));
        if (key.size() > 20) CHECK_FALSE(has(text, key.substr(3, 16)));  // nor a part of it
    }
    MESSAGE(calls << " calls with " << presented.size() << " presented keys; " << std::count(text.begin(), text.end(), '\n')
                  << " log lines checked");
}

}  // TEST_SUITE("secrets")

}  // namespace injection_test
