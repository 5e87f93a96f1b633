// Tenancy by catalogue (decisions 4; issue 16, point 8): every tool the registry offers is called
// by syndicate B with syndicate A's ids in each id-like argument (a property named `id` or ending
// in `Id`, also inside objects and array items), the other arguments built from the tool's input
// schema. A call naming A's record must be refused with a *_NOT_FOUND code, or answer a page that
// shows none of A's records, exactly as the same call naming an id that exists nowhere; and no
// call changes a row of either syndicate or a file. Every tool, ids or not, called with B's key
// shows none of A's ids and leaves A's rows byte for byte. The tools come from the registry: a new
// tool is swept with no edit here; a new table of A's records needs its seed below.
#include "fixture.hpp"
#include "tenant_rows.hpp"

#include "auth/users.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace tenancy_sweep_test {

using namespace syndic::test;
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

// Lower case, without _ and -: "co_owners" and "coOwner" meet as "coowners" and "coowner".
std::string normalized(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string singular(const std::string& table) {
    if (ends_with(table, "ies")) return table.substr(0, table.size() - 3) + "y";
    if (ends_with(table, "s")) return table.substr(0, table.size() - 1);
    return table;
}

bool accepts(const json& schema, const std::string& type) {
    const auto t = schema.find("type");
    if (t == schema.end()) return false;
    if (t->is_string()) return *t == type;
    return std::find(t->begin(), t->end(), type) != t->end();
}

bool is_id_name(const std::string& name) { return name == "id" || (name.size() > 2 && ends_with(name, "Id")); }

// An id-like argument: its place in the arguments ("0" is an array's first item), its name, and
// whether every step of it is required.
struct IdPath {
    std::vector<std::string> steps;
    bool required = true;
    std::string name() const { return steps.back(); }
};

void collect_ids(const json& schema, std::vector<std::string> prefix, bool required, std::vector<IdPath>& out) {
    if (!schema.contains("properties")) return;
    const auto needed = schema.value("required", json::array());
    for (const auto& [name, sub] : schema["properties"].items()) {
        auto steps = prefix;
        steps.push_back(name);
        const bool req = required && std::find(needed.begin(), needed.end(), name) != needed.end();
        if (is_id_name(name) && accepts(sub, "string")) out.push_back({steps, req});
        else if (accepts(sub, "object")) collect_ids(sub, steps, req, out);
        else if (accepts(sub, "array") && sub.contains("items")) {
            steps.push_back("0");
            collect_ids(sub["items"], steps, req && sub.value("minItems", 0) > 0, out);
        }
    }
}

// A plausible value for a property of this schema: its first enum value, a date or date-time for
// a date-like name or pattern, an e-mail for an e-mail pattern, the minimum of a number, an
// object of its required properties, an array of one item when it needs one.
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
        if (schema.value("minItems", 0) > 0) out.push_back(plausible(schema.value("items", json::object()), name));
        return out;
    }
    if (accepts(schema, "integer") || accepts(schema, "number")) return schema.value("minimum", json(1));
    if (accepts(schema, "boolean")) return false;
    const std::string pattern = schema.value("pattern", "");
    if (name == "recordType") return "meeting";  // a record of any kind (documents): a meeting, named by recordId
    if (ends_with(name, "At")) return "2027-03-02T19:00:00-05:00";
    if (ends_with(name, "Date") || pattern.find("[0-9]{4}-") != std::string::npos) return "2026-06-01";
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
            if (!at->contains(step)) (*at)[step] = accepts(*s, "array") ? json::array() : json::object();
            at = &(*at)[step];
        }
    }
    (*at)[path.name()] = value;
}

// A's records in every tenant table, and B's, with one kind of record per table; B's pool is read
// before the sweep, so B's records made by the sweep's own calls are never used.
struct Seeded : Fixture {
    std::string data_dir;
    std::map<std::string, std::vector<std::string>> a_ids, b_ids;  // table -> ids, oldest first

    Seeded() {
        char pattern[] = "/tmp/syndic-sweep-test-XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        data_dir = made;
        db->set_data_dir(data_dir);
        seed_a();
        seed_b();
        a_ids = ids_of(syndicate);
        b_ids = ids_of(other_syndicate);
    }
    ~Seeded() {
        std::error_code ignored;
        fs::remove_all(data_dir, ignored);
    }
    Seeded(const Seeded&) = delete;
    Seeded& operator=(const Seeded&) = delete;

    // A: a webhook (and its deliveries), units (one linked parking), an active and an archived co-owner, a draft, a held (with
    // attendance, a voted resolution with its ballot, an agenda addition, final minutes) and an open meeting (with a pending
    // resolution), a document, a water heater, an insurance policy, a contractor, by-laws, a
    // common portion and a declaration amendment; a director with a declaration of interest, the
    // manager's mandate.
    void seed_a() {
        syndic::issue_api_key(*db, clock, syndicate, syndic::Role::admin, {"*"}, "A");
        syndic::create_user(*db, clock, syndicate, "a@example.ca", "Admin A", syndic::Role::admin, "fr", "un mot de passe assez long");
        call("create_webhook", {{"url", "http://127.0.0.1:9/a"}, {"events", json::array({"co-owners.*"})}});  // a delivery a co-owner
        const auto a101 = unit("101", 60);
        const auto a102 = unit("102", 39.8);
        const auto parking = unit("P-1", 0, "parking");
        call("update_unit", {{"id", parking["id"]}, {"linkedUnits", json::array({a101["id"]})}});
        const auto marie = co_owner(a101["id"], "Marie", "Tremblay",
                                    {{"email", "marie@example.ca"}, {"isPrimary", true}, {"fractionPercent", 60}});
        const auto jean = co_owner(a102["id"], "Jean", "Lapointe");
        call("delete_co_owner", {{"id", jean["id"]}});
        meeting(admin, "Brouillon de A", "2027-01-19T19:00:00-05:00");
        const auto held = meeting(admin, "AGA de A", "2026-12-15T19:00:00-05:00");
        call("send_meeting_notice", {{"meetingId", held["id"]}});
        call("record_attendance", {{"meetingId", held["id"]},
                                   {"attendees", json::array({json{{"coOwnerId", marie["id"]}, {"attendance", "present"}}})}});
        const auto voted = call("add_resolution", {{"meetingId", held["id"]}, {"title", "Budget"}, {"majorityRequired", "simple"}});
        call("record_votes", {{"resolutionId", voted["id"]}, {"votesFor", 60}, {"votesAgainst", 0}, {"votesAbstain", 0}});
        const auto balloted = call("add_resolution", {{"meetingId", held["id"]}, {"title", "Ascenseur"},
                                                      {"majorityRequired", "double"}});
        call("record_ballots", {{"resolutionId", balloted["id"]},
                                {"ballots", json::array({json{{"coOwnerId", marie["id"]}, {"choice", "for"}}})}});
        call("add_agenda_item", {{"meetingId", held["id"]}, {"text", "Varia"}, {"requestedByCoOwnerId", marie["id"]}});
        call("update_meeting", {{"id", held["id"]}, {"status", "held"}});
        call("generate_minutes", {{"meetingId", held["id"]}});
        const auto open = meeting(admin, "Conseil de A", "2026-12-16T19:00:00-05:00", "board");
        call("send_meeting_notice", {{"meetingId", open["id"]}});
        call("add_resolution", {{"meetingId", open["id"]}, {"title", "Toiture"}, {"majorityRequired", "absolute"}});
        add_document(syndicate, "a-proof-document");
        call("create_water_heater", {{"unitId", a101["id"]}, {"manufactureDate", "2016-06-01"},
                                     {"replacementProofDocumentId", "a-proof-document"}});
        call("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "A-1"},
                                         {"startDate", "2026-01-01"}, {"endDate", "2027-01-01"}});
        const auto plumber = call("create_contractor", {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"}, {"neq", "1171234567"}});
        // The board: a director, a declaration of interest, the manager's mandate on a board resolution.
        const auto director = call("appoint_director", {{"coOwnerId", marie["id"]}, {"role", "president"}, {"appointedBy", "meeting"},
                                                        {"resolutionId", voted["id"]}, {"termStart", "2026-12-15"}});
        call("record_interest_disclosure", {{"directorId", director["id"]}, {"subjectType", "contractor"},
                                            {"subjectId", plumber["id"]}, {"nature", "Beau-frère"}, {"disclosedOn", "2026-11-01"}});
        const auto manager = call("add_resolution", {{"meetingId", open["id"]}, {"title", "Gérance"}, {"majorityRequired", "simple"}});
        call("record_votes", {{"resolutionId", manager["id"]}, {"votesFor", 3}, {"votesAgainst", 0}, {"votesAbstain", 0}});
        call("set_management_mandate", {{"managerName", "Gestion A"}, {"contractorId", plumber["id"]}, {"startOn", "2026-11-01"},
                                        {"delegatedPowers", json::array({"administration courante"})}, {"resolutionId", manager["id"]}});
        // The declaration: a by-law in two versions, a restricted common portion, an amendment.
        const auto bylaw = call("set_bylaw", {{"article", "4.2"}, {"title", "Bruit"}, {"text", "Silence après 23 h."},
                                              {"category", "noise"}, {"initial", true}});
        call("set_bylaw", {{"id", bylaw["id"]}, {"text", "Silence après 22 h."}, {"resolutionId", voted["id"]}});
        call("set_common_portion", {{"name", "Terrasse du 101"}, {"kind", "restricted"},
                                    {"unitIds", json::array({a101["id"]})}, {"initial", true}});
        call("record_declaration_amendment", {{"part", "by-laws"}, {"summary", "Bruit"}, {"resolutionId", voted["id"]},
                                              {"consents", json::array({json{{"coOwnerId", marie["id"]}}})}});
    }

    // B: one record of each kind, each in a state that lets a call go past it to the argument
    // naming A's record (its meeting's notice is sent, so attendance and votes may be recorded).
    void seed_b() {
        syndic::issue_api_key(*db, clock, other_syndicate, syndic::Role::admin, {"*"}, "B");
        syndic::create_user(*db, clock, other_syndicate, "b@example.ca", "Admin B", syndic::Role::admin, "fr", "un mot de passe assez long");
        call_as(other_admin, "create_webhook", {{"url", "http://127.0.0.1:9/b"}, {"events", json::array({"co-owners.*"})}});
        const auto b101 = call_as(other_admin, "create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 100}});
        call_as(other_admin, "create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"},
                                                 {"email", "luc@example.org"}, {"fractionPercent", 100}});
        const auto m = meeting(other_admin, "AGA de B", "2026-12-15T19:00:00-05:00");
        call_as(other_admin, "send_meeting_notice", {{"meetingId", m["id"]}});
        call_as(other_admin, "add_resolution", {{"meetingId", m["id"]}, {"title", "Budget de B"}, {"majorityRequired", "simple"}});
        add_document(other_syndicate, "b-proof-document");
        call_as(other_admin, "create_water_heater", {{"unitId", b101["id"]}});
        call_as(other_admin, "create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "B-1"},
                                                         {"startDate", "2026-01-01"}, {"endDate", "2027-01-01"}});
        call_as(other_admin, "create_contractor", {{"name", "Toitures Roy"}, {"trade", "toiture"}});
        const auto passed = call_as(other_admin, "add_resolution", {{"meetingId", m["id"]}, {"title", "Règlement de B"},
                                                                    {"majorityRequired", "simple"}});
        call_as(other_admin, "record_votes", {{"resolutionId", passed["id"]}, {"votesFor", 100}, {"votesAgainst", 0},
                                              {"votesAbstain", 0}});
        const auto luc = call_as(other_admin, "list_co_owners")["data"][0];
        const auto director = call_as(other_admin, "appoint_director", {{"coOwnerId", luc["id"]}, {"role", "president"},
                                                                        {"appointedBy", "meeting"}, {"resolutionId", passed["id"]},
                                                                        {"termStart", "2026-01-01"}});
        call_as(other_admin, "record_interest_disclosure", {{"directorId", director["id"]}, {"subjectType", "other"},
                                                            {"nature", "Locataire"}, {"disclosedOn", "2026-11-01"}});
        call_as(other_admin, "set_bylaw", {{"article", "1"}, {"title", "Animaux"}, {"text", "En laisse."},
                                           {"category", "pets"}, {"initial", true}});
        call_as(other_admin, "set_common_portion", {{"name", "Hall"}, {"kind", "general"}});
        call_as(other_admin, "record_declaration_amendment", {{"part", "by-laws"}, {"summary", "Animaux"},
                                                              {"resolutionId", passed["id"]}});
    }

    json meeting(const syndic::CallerContext& who, const std::string& title, const std::string& when,
                 const std::string& type = "aga") {
        return call_as(who, "create_meeting", {{"title", title}, {"type", type}, {"scheduledAt", when},
                                               {"location", "Salle communautaire"}, {"agenda", json::array({"Budget"})}});
    }

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

    // The table an id-like argument names records of: the one whose singular name ends its stem
    // (unitId: units; replacementProofDocumentId: documents); for `id`, the tool's own noun
    // (update_water_heater: water_heaters), else the one that starts it (end_director_mandate:
    // directors); recordId, a record of the type recordType names, is a
    // meeting's. Empty when none does.
    std::string table_for(const std::string& tool, const std::string& name) const {
        if (name == "recordId") return "meetings";  // beside recordType, which plausible() makes "meeting"
        const std::string stem = normalized(name == "id" ? tool.substr(tool.find('_') + 1) : name.substr(0, name.size() - 2));
        std::string best;
        for (const auto& [table, ids] : a_ids) {
            const auto kind = normalized(singular(table));
            if (ends_with(stem, kind) && kind.size() > normalized(singular(best)).size()) best = table;
        }
        // A tool whose noun names its record first (end_director_mandate: directors).
        if (best.empty() && name == "id")
            for (const auto& [table, ids] : a_ids) {
                const auto kind = normalized(singular(table));
                if (stem.rfind(kind, 0) == 0 && kind.size() > normalized(singular(best)).size()) best = table;
            }
        return best;
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

    // What B's call answers, as the client sees it: a result, or a refusal's code and data.
    struct Answer {
        bool refused = false;
        std::string code, wire;
    };
    Answer as_b(const std::string& tool, const json& args) {
        try {
            return {false, "", call_as(other_admin, tool, args).dump()};
        } catch (const syndic::DomainError& e) {
            return {true, e.code(), json{{"code", e.code()}, {"data", syndic::error_data(e)}}.dump()};
        }
    }

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

// `schema` with every local reference ("$ref": "#/...", shared fragments) replaced by what it
// names, so the walk below sees every property wherever it is declared.
json inlined(const json& schema, const json& root, int depth = 0) {
    if (depth > 32) throw std::runtime_error("a schema reference loops");
    if (schema.is_array()) {
        json out = json::array();
        for (const auto& item : schema) out.push_back(inlined(item, root, depth + 1));
        return out;
    }
    if (!schema.is_object()) return schema;
    json out = json::object();
    if (schema.contains("$ref") && schema["$ref"].is_string() && schema["$ref"].get<std::string>().rfind("#/", 0) == 0)
        out = inlined(root.at(json::json_pointer(schema["$ref"].get<std::string>().substr(1))), root, depth + 1);
    for (const auto& [key, value] : schema.items())
        if (key != "$ref") out[key] = inlined(value, root, depth + 1);
    return out;
}

// The input schema a tool's descriptor serves (tools/list), references inlined.
json input_schema(const Seeded& fx, const std::string& tool) {
    for (const auto& d : fx.registry.descriptors())
        if (d["name"] == tool) return inlined(d["inputSchema"], d["inputSchema"]);
    throw std::out_of_range("no descriptor for " + tool);
}

std::vector<IdPath> id_paths(const json& schema) {
    std::vector<IdPath> paths;
    collect_ids(schema, {}, true, paths);
    return paths;
}

struct SweepCount {
    int refused = 0, pages = 0;
    std::set<std::string> tools;
};

// B's call with A's id at `focus` (the other required ids naming B's records, so the call reaches
// it) against the same call with an id that exists nowhere.
void sweep_one(Seeded& fx, const std::string& tool, const json& schema, const json& args, const IdPath& focus,
               const std::string& a_id, SweepCount& count) {
    json with_a = args, with_ghost = args;
    put(with_a, schema, focus, a_id);
    put(with_ghost, schema, focus, ghost_id);
    CAPTURE(tool);
    CAPTURE(with_a.dump());
    const auto before = fx.state();
    const auto a = fx.as_b(tool, with_a);
    CHECK(fx.state() == before);
    const auto ghost = fx.as_b(tool, with_ghost);
    CHECK(fx.state() == before);
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

// Every id-like argument of the tool in turn, with every A record of its own kind and the first of
// every other kind.
void sweep_tool(Seeded& fx, const std::string& tool, SweepCount& count) {
    const auto schema = input_schema(fx, tool);
    const auto paths = id_paths(schema);
    const json base = plausible(schema, "");
    for (const auto& focus : paths) {
        json args = base;
        for (const auto& other : paths) {
            if (&other == &focus || !other.required) continue;
            const auto& b = fx.b_ids[fx.table_for(tool, other.name())];
            REQUIRE_MESSAGE(!b.empty(), tool << ": seed_b() has no record for " << other.name());
            put(args, schema, other, b.front());
        }
        std::vector<std::string> values;
        const auto own = fx.table_for(tool, focus.name());
        for (const auto& [table, ids] : fx.a_ids) {
            if (table == own) values.insert(values.end(), ids.begin(), ids.end());
            else if (!ids.empty()) values.push_back(ids.front());
        }
        for (const auto& a_id : values) sweep_one(fx, tool, schema, args, focus, a_id, count);
    }
}

}  // namespace

TEST_SUITE("tenancy") {

TEST_CASE("the sweep's walk finds id-like arguments in nested items and shared fragments") {
    const auto root = json::parse(R"({"type": "object", "required": ["id", "rows"],
        "$defs": {"uuid": {"type": "string", "maxLength": 64}, "row": {"type": "object", "required": ["unitId"],
                  "properties": {"unitId": {"$ref": "#/$defs/uuid"}, "note": {"type": ["string", "null"]}}}},
        "properties": {"id": {"$ref": "#/$defs/uuid"}, "rows": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/row"}},
                       "coOwnerId": {"type": "string"}}})");
    const auto paths = id_paths(inlined(root, root));
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
}

TEST_CASE("the sweep: every tool, called by B with A's ids, finds nothing and changes nothing") {
    Seeded fx;
    REQUIRE(fx.registry.tools().size() == fx.registry.descriptors().size());
    // Every kind of record an argument names has records of A's to name and of B's to reach them
    // through (a new module's table needs its seed).
    for (const auto& tool : fx.registry.tools())
        for (const auto& p : id_paths(input_schema(fx, tool.name))) {
            const auto table = fx.table_for(tool.name, p.name());
            if (table.empty()) continue;  // an id of no table of records (an API key, a record of any kind)
            CAPTURE(table);
            CHECK_MESSAGE(!fx.a_ids[table].empty(), "seed_a() makes no record of A's in " << table);
            CHECK_MESSAGE(!fx.b_ids[table].empty(), "seed_b() makes no record of B's in " << table);
        }

    SweepCount count;
    for (const auto& tool : fx.registry.tools()) sweep_tool(fx, tool.name, count);
    // Every tool that takes an id was swept.
    for (const auto& tool : fx.registry.tools())
        if (!id_paths(input_schema(fx, tool.name)).empty())
            CHECK_MESSAGE(count.tools.count(tool.name) == 1, tool.name << " takes an id but was not swept");
    // A tool whose REST route names a record ("/units/{id}") takes its id: were the walk to miss
    // the ids of a schema's new shape, these would go unswept.
    for (const auto& tool : fx.registry.tools())
        if (tool.http.path.find('{') != std::string::npos)
            CHECK_MESSAGE(count.tools.count(tool.name) == 1, tool.name << " names a record in its route but was not swept");
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
            for (const auto& p : id_paths(schema)) {  // required ids name B's records
                const auto& b = fx.b_ids[fx.table_for(tool.name, p.name())];
                if (p.required && !b.empty()) put(args, schema, p, b.front());
            }
            CAPTURE(args.dump());
            const auto answer = fx.as_b(tool.name, args);
            CHECK_MESSAGE(fx.a_id_shown(answer.wire, "").empty(), "shows A's " << fx.a_id_shown(answer.wire, ""));
            CHECK(fx.rows_of_a() == a_before);
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
