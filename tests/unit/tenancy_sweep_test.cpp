// Tenancy by catalogue (decisions 4; issue 16, point 8): every tool the registry offers is called
// by syndicate B with syndicate A's ids in each id-like argument (a property named `id` or ending
// in `Id`, also inside objects and array items), the other arguments built from the tool's input
// schema. A call naming A's record must be refused with a *_NOT_FOUND code, or answer a page that
// shows none of A's records, exactly as the same call naming an id that exists nowhere; and no
// call changes a row of either syndicate or a file. Every tool, ids or not, called with B's key
// shows none of A's ids and leaves A's rows byte for byte. The tools come from the registry, the
// table each id names from its schema (x-references), A's and B's records from sections "a" and
// "b" of the modules' seed files (schemas/<module>/seed.json): a new module is swept with no edit
// here. An argument is tried with A's records of its own table in each state the seed names (the
// calls' "state") and the first of every other table, so the sweep's time grows with the tables
// and states, not with the records.
#include "fixture.hpp"
#include "id_arguments.hpp"
#include "tenant_rows.hpp"

#include "auth/users.hpp"
#include "storage/audit_trail.hpp"
#include "tools/seeds.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace tenancy_sweep_test {

using namespace syndic::test;
using namespace syndic::test::id_arguments;
namespace fs = std::filesystem;

namespace {

const std::string ghost_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";  // exists in no syndicate

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A plausible value for a property of this schema: its first enum value, a date or date-time for
// a date-like name or pattern, an e-mail for an e-mail pattern, the minimum of a number, an
// object of its required properties, an array of as many items as it needs (minItems).
json plausible(const json& schema, const std::string& name) {
    if (schema.contains("enum")) return schema["enum"][0];
    if (schema.contains("default") && !schema["default"].is_null()) return schema["default"];
    if (accepts(schema, "object")) {
        json out = json::object();
        const auto props = schema.value("properties", json::object());
        for (const auto& key : schema.value("required", json::array()))
            out[key.get<std::string>()] = plausible(props.value(key.get<std::string>(), json::object()), key);
        return out;
    }
    if (accepts(schema, "array")) {
        json out = json::array();
        for (int i = 0; i < schema.value("minItems", 0); ++i) out.push_back(plausible(schema.value("items", json::object()), name));
        return out;
    }
    if (accepts(schema, "integer") || accepts(schema, "number")) return schema.value("minimum", json(1));
    if (accepts(schema, "boolean")) return false;
    const std::string pattern = schema.value("pattern", "");
    // A date by its shape (records/date.json: the pattern and 10 characters) before a name's hint,
    // so a date named ...At gets a date; an instant (records/instant.json) has no pattern.
    const bool date_shaped = pattern.find("[0-9]{4}-") != std::string::npos && schema.value("maxLength", 0) == 10;
    if (date_shaped || ends_with(name, "Date")) return "2026-06-01";
    if (ends_with(name, "At")) return "2027-03-02T19:00:00-05:00";
    if (pattern.find("[0-9]{4}-") != std::string::npos) return "2026-06-01";
    if (pattern.find('@') != std::string::npos) return "sweep@example.org";
    return "Sweep";
}

// The arguments with `value` at `path`, an array item or object made on the way when missing.
void put(json& args, const json& schema, const IdPath& path, const json& value) {
    json* at = &args;
    const json* s = &schema;
    for (std::size_t i = 0; i + 1 < path.steps.size(); ++i) {
        const auto& step = path.steps[i];
        if (step == "0") {
            s = &s->at("items");
            if (at->empty()) at->push_back(plausible(*s, ""));
            at = &(*at)[0];
        } else {
            s = &s->at("properties").at(step);
            // An object made on the way has its required properties, so the call passes its schema.
            if (!at->contains(step)) (*at)[step] = accepts(*s, "array") ? json::array() : plausible(*s, step);
            at = &(*at)[step];
        }
    }
    (*at)[path.name()] = value;
}

// A's records in every tenant table and B's, made by the seed files' sections "a" and "b"; B's
// pool is read before the sweep, so B's records made by the sweep's own calls are never used.
struct Seeded : Fixture {
    std::string data_dir;
    std::map<std::string, std::vector<std::string>> a_ids, b_ids;  // table -> ids, oldest first
    std::vector<syndic::SeededRecord> a_seeded;                      // A's records the seed names, with their states

    Seeded() {
        char pattern[] = "/tmp/syndic-sweep-test-XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        data_dir = made;
        db->set_data_dir(data_dir);
        // Keys and people are the core's, not a module's: made here, not by a seed.
        syndic::issue_api_key(*db, clock, syndicate, syndic::Role::admin, {"*"}, "A");
        syndic::create_user(*db, clock, syndicate, "a@example.ca", "Admin A", syndic::Role::admin, "fr", "un mot de passe assez long");
        syndic::issue_api_key(*db, clock, other_syndicate, syndic::Role::admin, {"*"}, "B");
        syndic::create_user(*db, clock, other_syndicate, "b@example.ca", "Admin B", syndic::Role::admin, "fr", "un mot de passe assez long");
        std::map<std::string, std::string> names;
        a_seeded = syndic::run_seeds(registry, *db, clock, admin, "a", names);
        syndic::run_seeds(registry, *db, clock, other_admin, "b", names);
        a_ids = ids_of(syndicate);
        b_ids = ids_of(other_syndicate);
        take_state();
    }
    ~Seeded() {
        std::error_code ignored;
        fs::remove_all(data_dir, ignored);
    }
    Seeded(const Seeded&) = delete;
    Seeded& operator=(const Seeded&) = delete;

    // The ids of a syndicate's rows in every tenant table that has an id column.
    std::map<std::string, std::vector<std::string>> ids_of(const std::string& syndicate_id) {
        std::map<std::string, std::vector<std::string>> out;
        for (const auto& table : tenant_tables(*db)) {
            SQLite::Statement has_id(db->sql(), "SELECT 1 FROM pragma_table_info(?) WHERE name = 'id'");
            has_id.bind(1, table);
            if (!has_id.executeStep()) continue;
            SQLite::Statement q(db->sql(), "SELECT id FROM " + table + " WHERE syndicate_id = ? ORDER BY rowid");
            q.bind(1, syndicate_id);
            auto& ids = out[table];
            while (q.executeStep()) ids.push_back(q.getColumn(0).getString());
        }
        return out;
    }

    // The table holding one of A's ids; empty when none does.
    std::string table_of(const std::string& id) const {
        for (const auto& [table, ids] : a_ids)
            if (std::find(ids.begin(), ids.end(), id) != ids.end()) return table;
        return "";
    }

    // A's records of `table` worth naming: its first, and one in each state the seed names.
    std::vector<std::string> sampled(const std::string& table) const {
        const auto& ids = a_ids.at(table);
        std::vector<std::string> out;
        if (ids.empty()) return out;
        out.push_back(ids.front());
        std::set<std::string> states;
        for (const auto& r : a_seeded)
            if (!r.state.empty() && table_of(r.id) == table && states.insert(r.state).second && r.id != ids.front())
                out.push_back(r.id);
        return out;
    }

    std::string exported_files() {
        std::vector<std::string> files;
        std::error_code ec;
        const auto exports = fs::path(data_dir) / "exports";
        if (fs::exists(exports, ec))
            for (const auto& entry : fs::directory_iterator(exports))
                files.push_back(entry.path().filename().string() + ":" + std::to_string(entry.file_size()));
        std::sort(files.begin(), files.end());
        std::string out;
        for (const auto& f : files) out += f + "\n";
        return out;
    }
    std::string rows_of_a() { return tenant_rows(*db, syndicate); }
    std::string state() { return rows_of_a() + tenant_rows(*db, other_syndicate) + exported_files(); }

    // Whether both syndicates' rows and the exported files are as they were at the last call (or
    // at the end of the seeding), which they then become. The rows are compared only when SQLite
    // counts a row changed since (a refused call may write and roll back): most calls write
    // nothing, and reading every row twice a call was most of the sweep's time.
    bool unchanged() {
        const auto changes = db->sql().getTotalChanges();
        const auto files = exported_files();
        if (changes == changes_ && files == files_) return true;
        const auto now = state();
        const bool same = now == state_;
        state_ = now;
        changes_ = changes;
        files_ = files;
        return same;
    }
    void take_state() {
        state_ = state();
        changes_ = db->sql().getTotalChanges();
        files_ = exported_files();
    }

    // What B's call answers, as the client sees it: a result, or a refusal's code and data.
    struct Answer {
        bool refused = false;
        std::string code, wire, field;
    };
    Answer as_b(const std::string& tool, const json& args) {
        try {
            return {false, "", call_as(other_admin, tool, args).dump(), ""};
        } catch (const syndic::DomainError& e) {
            return {true, e.code(), json{{"code", e.code()}, {"data", syndic::error_data(e)}}.dump(), e.field()};
        }
    }

    std::string state_, files_;
    long long changes_ = -1;

    // The first of A's ids the text shows, other than `given` (an id B itself named).
    std::string a_id_shown(const std::string& text, const std::string& given) const {
        for (const auto& [table, ids] : a_ids)
            for (const auto& id : ids)
                if (id != given && text.find(id) != std::string::npos) return table + " " + id;
        return "";
    }
};

bool is_page(const std::string& result) {
    const auto r = json::parse(result);
    return r.is_object() && r.contains("data") && r["data"].is_array() && r.contains("pagination");
}

// The input schema a tool's file declares (tools/list serves it without x-references).
json input_schema(const Seeded& fx, const std::string& tool) {
    const auto& schema = fx.registry.schema_document(tool)["inputSchema"];
    return inlined(schema, schema);
}

// `id` at `path`, and the record type of `table` in the sibling naming the kind when it has one.
void put_record(json& args, const json& schema, const IdPath& path, const std::string& table, const std::string& id) {
    put(args, schema, path, id);
    if (path.kind_from().empty()) return;
    IdPath kind = path;
    kind.steps.back() = path.kind_from();
    put(args, schema, kind, syndic::record_type_of(table));
}

// B's records an argument may name, (table, id): those of its table, oldest first; for a record
// of any kind, the first of every table.
std::vector<std::pair<std::string, std::string>> b_candidates(const Seeded& fx, const IdPath& path) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [table, ids] : fx.b_ids) {
        if (!path.kind_from().empty() && !ids.empty()) out.emplace_back(table, ids.front());
        if (path.kind_from().empty() && table == path.table())
            for (const auto& id : ids) out.emplace_back(table, id);
    }
    return out;
}

// How far B's call got with the id that exists nowhere at `focus`: 2 when it reached the focus
// (answered, or refused there), 1 when it was refused at another argument than `path`, 0 at
// `path` itself (or at the sibling naming its kind).
int reach(const Seeded::Answer& answer, const IdPath& path, const IdPath& focus) {
    if (!answer.refused || answer.field == focus.pointer()) return 2;
    IdPath kind = path;
    kind.steps.back() = path.kind_from();
    return answer.field == path.pointer() || (!path.kind_from().empty() && answer.field == kind.pointer()) ? 0 : 1;
}

// `args` with every required id but `focus` naming one of B's records, each the one that takes
// B's call furthest toward the focus (found by calls with the id that exists nowhere at `focus`,
// refused anyway): a written resolution stops record_ballots where a pending one of a meeting
// whose notice is sent goes on. Twice over, as one id may stop the call before another's turn.
json reaching(Seeded& fx, const std::string& tool, const json& schema, json args, const std::vector<IdPath>& paths,
              const IdPath& focus) {
    std::vector<const IdPath*> others;
    for (const auto& p : paths)
        if (&p != &focus && p.required) others.push_back(&p);
    for (const auto* p : others) {
        const auto candidates = b_candidates(fx, *p);
        REQUIRE_MESSAGE(!candidates.empty(), tool << ": section b of the seeds makes no record for " << p->pointer());
        put_record(args, schema, *p, candidates[0].first, candidates[0].second);
    }
    for (int pass = 0; pass < 2 && !others.empty(); ++pass)
        for (const auto* p : others) {
            int best = -1;
            json chosen = args;
            for (const auto& [table, id] : b_candidates(fx, *p)) {
                json probe = args;
                put_record(probe, schema, *p, table, id);
                put(probe, schema, focus, ghost_id);
                const int got = reach(fx.as_b(tool, probe), *p, focus);
                if (got <= best) continue;
                best = got;
                chosen = args;
                put_record(chosen, schema, *p, table, id);
                if (best == 2) break;
            }
            args = chosen;
        }
    fx.take_state();  // a probe answered may have written B's rows: the sweep's calls are compared from here
    return args;
}

struct SweepCount {
    int refused = 0, pages = 0;
    std::set<std::string> tools;
};

// B's call with A's record (table, id) at `focus` against the same call with an id that exists
// nowhere.
void sweep_one(Seeded& fx, const std::string& tool, const json& schema, const json& args, const IdPath& focus,
               const std::string& table, const std::string& a_id, SweepCount& count) {
    json with_a = args, with_ghost = args;
    put_record(with_a, schema, focus, table, a_id);
    put_record(with_ghost, schema, focus, table, ghost_id);
    CAPTURE(tool);
    CAPTURE(with_a.dump());
    const auto a = fx.as_b(tool, with_a);
    CHECK(fx.unchanged());
    const auto ghost = fx.as_b(tool, with_ghost);
    CHECK(fx.unchanged());
    // Indistinguishable from an id that exists nowhere: same code, field, figures, detail.
    CHECK(replace_all(a.wire, a_id, "<id>") == replace_all(ghost.wire, ghost_id, "<id>"));
    CHECK_MESSAGE(fx.a_id_shown(a.wire, a_id).empty(), "shows A's " << fx.a_id_shown(a.wire, a_id));
    if (a.refused) {
        CHECK_MESSAGE(ends_with(a.code, "_NOT_FOUND"), "refused with " << a.code);
        ++count.refused;
    } else {
        CHECK_MESSAGE(is_page(a.wire), "B's call naming A's record was answered: " << a.wire.substr(0, 300));
        ++count.pages;
    }
    count.tools.insert(tool);
}

// Every id-like argument of the tool in turn: A's records of its own table in each seeded state
// and the first of every other table (of every table, for a record of any kind).
void sweep_tool(Seeded& fx, const std::string& tool, SweepCount& count) {
    const auto schema = input_schema(fx, tool);
    const auto paths = id_paths(schema);
    const json base = plausible(schema, "");
    for (const auto& focus : paths) {
        const json args = reaching(fx, tool, schema, base, paths, focus);
        std::vector<std::pair<std::string, std::string>> values;
        for (const auto& [table, ids] : fx.a_ids) {
            if (ids.empty()) continue;
            if (table == focus.table())
                for (const auto& id : fx.sampled(table)) values.emplace_back(table, id);
            else
                values.emplace_back(table, ids.front());
        }
        for (const auto& [table, a_id] : values) sweep_one(fx, tool, schema, args, focus, table, a_id, count);
    }
}

}  // namespace

TEST_SUITE("tenancy") {

TEST_CASE("a seed's @date+N is a Montreal calendar day, late in the evening across a change of time too") {
    // 23:30 in Montreal on 28 November (EST); 165 days on is in May (EDT): 24-hour steps gave the 13th.
    const syndic::FixedClock late(*syndic::parse_iso_instant("2026-11-29T04:30:00Z"));
    CHECK(syndic::seed_calls::clock_value("@date+0", late) == "2026-11-28");
    CHECK(syndic::seed_calls::clock_value("@date+165", late) == "2027-05-12");
    CHECK(syndic::seed_calls::clock_value("@date-330", late) == "2026-01-02");
    CHECK_FALSE(syndic::seed_calls::clock_value("@dates+1", late).has_value());
}

TEST_CASE("the sweep's walk finds id-like arguments in nested items and shared fragments") {
    const auto root = json::parse(R"({"type": "object", "required": ["id", "rows"],
        "$defs": {"uuid": {"type": "string", "maxLength": 64}, "row": {"type": "object", "required": ["unitId"],
                  "properties": {"unitId": {"$ref": "#/$defs/uuid"}, "note": {"type": ["string", "null"]}}}},
        "properties": {"id": {"$ref": "#/$defs/uuid"}, "rows": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/row"}},
                       "coOwnerId": {"type": "string"}}})");
    const auto paths = id_paths(root);
    std::vector<std::string> found;
    for (const auto& p : paths) {
        std::string joined;
        for (const auto& step : p.steps) joined += "/" + step;
        found.push_back(joined + (p.required ? " required" : ""));
    }
    std::sort(found.begin(), found.end());
    CHECK(found == std::vector<std::string>{"/coOwnerId", "/id required", "/rows/0/unitId required"});
    json args = plausible(inlined(root, root), "");
    put(args, inlined(root, root), paths[0], "x");
    CHECK(args["rows"].size() == 1);
    // A date by its shape whatever its name; an instant by its name.
    const auto date = json::parse(R"({"type": "string", "maxLength": 10, "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"})");
    CHECK(plausible(date, "startsAt") == "2026-06-01");
    CHECK(plausible(json::parse(R"({"type": "string", "minLength": 1, "maxLength": 40})"), "scheduledAt") ==
          "2027-03-02T19:00:00-05:00");
}

TEST_CASE("the sweep: every tool, called by B with A's ids, finds nothing and changes nothing") {
    Seeded fx;
    REQUIRE(fx.registry.tools().size() == fx.registry.descriptors().size());
    // Every kind of record an argument names has records of A's to name and of B's to reach them
    // through (a new module's table needs its seed).
    for (const auto& tool : fx.registry.tools())
        for (const auto& p : id_paths(input_schema(fx, tool.name))) {
            const auto table = p.table();
            if (table.empty()) continue;  // an id of no table, or of a kind a sibling names (x-references)
            CAPTURE(tool.name);
            CAPTURE(table);
            CHECK_MESSAGE(!fx.a_ids[table].empty(), "no seed file's section a makes a record of A's in " << table);
            CHECK_MESSAGE(!fx.b_ids[table].empty(), "no seed file's section b makes a record of B's in " << table);
        }

    SweepCount count;
    for (const auto& tool : fx.registry.tools()) sweep_tool(fx, tool.name, count);
    // Every tool that takes an id was swept.
    for (const auto& tool : fx.registry.tools())
        if (!id_paths(input_schema(fx, tool.name)).empty())
            CHECK_MESSAGE(count.tools.count(tool.name) == 1, tool.name << " takes an id but was not swept");
    // A tool whose REST route names a record ("/units/{id}") takes its id: were the walk to miss
    // the ids of a schema's new shape, these would go unswept.
    for (const auto& tool : fx.registry.tools()) {
        const auto& path = tool.http.path;
        bool names_record = false;  // a string segment: an id ("/units/{id}"), not a fiscal year
        for (auto open = path.find('{'); open != std::string::npos; open = path.find('{', open + 1)) {
            const auto name = path.substr(open + 1, path.find('}', open) - open - 1);
            names_record = names_record || input_schema(fx, tool.name)["properties"][name].value("type", json()) == "string";
        }
        if (names_record) CHECK_MESSAGE(count.tools.count(tool.name) == 1, tool.name << " names a record in its route but was not swept");
    }
    MESSAGE("swept " << count.tools.size() << " tools: " << count.refused << " refusals, " << count.pages << " pages");
    CHECK(count.refused > 100);
    CHECK(count.pages > 10);
}

TEST_CASE("the sweep: every tool called with B's key shows none of A's records and leaves them alone") {
    Seeded fx;
    const auto a_before = fx.rows_of_a();
    const auto files_before = fx.exported_files();
    int answered = 0, pages = 0;
    // The tools that read first, while B's seed is whole: each page shows B's own records.
    for (const bool read_only : {true, false}) {
        for (const auto& tool : fx.registry.tools()) {
            if (tool.read_only != read_only) continue;
            const auto schema = input_schema(fx, tool.name);
            CAPTURE(tool.name);
            json args = plausible(schema, "");
            for (const auto& p : id_paths(schema)) {  // required ids name B's records (the first of its table)
                const auto b = b_candidates(fx, p);
                if (p.required && !b.empty()) put_record(args, schema, p, b.front().first, b.front().second);
            }
            CAPTURE(args.dump());
            const auto changes = fx.db->sql().getTotalChanges();
            const auto answer = fx.as_b(tool.name, args);
            CHECK_MESSAGE(fx.a_id_shown(answer.wire, "").empty(), "shows A's " << fx.a_id_shown(answer.wire, ""));
            // A's rows are read again only when SQLite counts a row changed (B's, or a rolled-back write).
            if (fx.db->sql().getTotalChanges() != changes) CHECK(fx.rows_of_a() == a_before);
            if (answer.refused) continue;
            ++answered;
            if (read_only && is_page(answer.wire)) {
                ++pages;
                CHECK_MESSAGE(!json::parse(answer.wire)["data"].empty(), tool.name << " shows B none of B's own records");
            }
        }
    }
    // A's exported files stay as they were (B's minutes, if any, are a new file of B's).
    const auto files_after = fx.exported_files();
    for (std::size_t at = 0, end; (end = files_before.find('\n', at)) != std::string::npos; at = end + 1)
        CHECK(files_after.find(files_before.substr(at, end - at + 1)) != std::string::npos);
    CHECK(answered > 20);
    CHECK(pages >= 7);
}


}

}  // namespace tenancy_sweep_test
