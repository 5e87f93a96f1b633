// What every fuzz target shares: one in-memory database migrated and seeded once per process
// (two syndicates; units, co-owners, meetings at every status, resolutions), the real registry
// with every result checked against its outputSchema, and the invariants checked after each input.
//
// Each input runs inside one outer write transaction that is rolled back afterwards (the
// registry's transaction for each call nests as a savepoint), so every input starts from the same seeded
// database: nothing grows over a long run, and a crash reproduces from its input alone.
//
// Inputs name seeded records with placeholders, replaced wherever a whole JSON string equals one:
// "@u0".."@u4" units, "@c0".."@c4" co-owners, "@m0".."@m3" meetings, "@r0".."@r3" resolutions of
// syndicate A; "@xu0", "@xc0", "@xm0", "@xr0" the records of syndicate B.
#pragma once
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <stdlib.h>  // mkdtemp

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "modules/modules.hpp"
#include "storage/database.hpp"
#include "tools/manifests.hpp"
#include "tools/registry.hpp"

namespace syndic::fuzz {

using nlohmann::json;

// Stops the run with a message libFuzzer keeps beside the crashing input.
[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "\n*** fuzz invariant broken: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

// Every code a tool may refuse with, as the manifests declare them (schemas/*/module.json,
// schemas/platform.json; the HTTP bridge's and the protocol's own codes aside): anything else is a bug.
inline bool known_tool_code(const std::string& code) {
    const auto* declared = find_error(code);
    return declared && declared->layer == "tool";
}

class World {
    bool quiet_ = (spdlog::set_level(spdlog::level::off), true);  // before the migrations log

public:
    std::unique_ptr<Database> db = Database::open(":memory:");
    FixedClock clock{*parse_iso_instant("2026-11-21T15:00:00Z")};
    ToolRegistry registry{all_tool_handlers()};
    std::string syndicate, other_syndicate;
    CallerContext admin, member, other_admin;
    std::string admin_secret;                 // an admin key of syndicate A, for the message target
    std::map<std::string, std::string> ids;   // placeholder -> id

    World() {
        registry.set_check_outputs(true);
        char folder[] = "/tmp/syndic-fuzz-XXXXXX";
        if (!mkdtemp(folder)) fail("mkdtemp");
        data_dir_ = folder;
        db->set_data_dir(data_dir_);
        seed();
    }
    ~World() {
        std::error_code ignored;
        std::filesystem::remove_all(data_dir_, ignored);
    }

    // Runs one input's work inside a transaction rolled back afterwards, and checks the
    // database as the input left it when it wrote anything: the cheaper invariants every time,
    // PRAGMA integrity_check on the first input (so a reproduction runs it) and every
    // `integrity_every` after.
    template <class Work>
    void run(Work&& work) {
        {
            WriteTransaction outer(*db);
            const auto changes = db->sql().getTotalChanges();
            work();
            if (db->sql().getTotalChanges() != changes) check_invariants();
            if (inputs_++ % integrity_every == 0) check_integrity();
        }
        std::error_code ignored;
        std::filesystem::remove_all(std::filesystem::path(data_dir_) / "exports", ignored);
    }

    // A registry call, as a client would make it; checks how it may fail. Returns the result, or
    // null when the call was refused.
    json call(const std::string& tool, const json& args, const CallerContext& who) {
        // A refusal must leave every row as it was. When the refused call wrote rows (and so
        // should have rolled them back itself), the database after it is compared with the
        // database before it, got back by rolling back to a savepoint taken before the call.
        db->run("SAVEPOINT fuzz_call");
        const auto changes = db->sql().getTotalChanges();
        try {
            json result = registry.call(tool, args, who, *db, clock);
            db->run("RELEASE fuzz_call");
            return result;
        } catch (const DomainError& e) {
            if (!known_tool_code(e.code())) fail(tool + " refused with an unknown code " + e.code() + ": " + e.detail());
            if (e.detail().empty()) fail(tool + " refused with " + e.code() + " and no detail");
            if (db->sql().getTotalChanges() != changes) {
                const auto after = snapshot();
                db->run("ROLLBACK TO fuzz_call");
                if (snapshot() != after) fail(tool + " refused with " + e.code() + " but changed the database");
            }
            db->run("RELEASE fuzz_call");
            return nullptr;
        } catch (const std::exception& e) {
            fail(tool + " threw something other than a DomainError: " + e.what());
        }
    }

    // Replaces every string equal to a placeholder by the id it stands for.
    void substitute(json& value) const {
        if (value.is_string()) {
            const auto& s = value.get_ref<const std::string&>();
            if (s.size() >= 3 && s[0] == '@')
                if (auto it = ids.find(s); it != ids.end()) value = it->second;
        } else if (value.is_structured()) {
            for (auto& item : value) substitute(item);
        }
    }

    // Every row of every table (the search index's own tables included), as text.
    std::string snapshot() {
        std::string out;
        SQLite::Statement tables(db->sql(), "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
        std::vector<std::string> names;
        while (tables.executeStep()) names.push_back(tables.getColumn(0).getString());
        for (const auto& name : names) {
            if (name == "co_owner_search") continue;  // the virtual table; its shadow tables are read
            SQLite::Statement q(db->sql(), "SELECT * FROM \"" + name + "\"");
            const int n = q.getColumnCount();
            out += name + "\n";
            while (q.executeStep()) {
                for (int i = 0; i < n; ++i) out += (q.getColumn(i).isNull() ? "<null>" : q.getColumn(i).getString()) + "|";
                out += "\n";
            }
        }
        return out;
    }

private:
    static constexpr int integrity_every = 256;
    std::string data_dir_;
    long inputs_ = 0;

    std::int64_t count(const char* sql) {
        SQLite::Statement q(db->sql(), sql);
        q.executeStep();
        return q.getColumn(0).getInt64();
    }

    // What must hold after any input: the co-owner tallies and the search index in step with
    // the rows, the search index whole, no dangling reference.
    void check_invariants() {
        const auto rows = count("SELECT count(*) FROM co_owners");
        const auto tallied = count("SELECT coalesce(sum(n), 0) FROM co_owner_tallies");
        // The index's entries, less those of rows pending (stale), plus the pending rows that exist
        // (migration 012): the rows, when the index is in step.
        const auto indexed = count(
            "SELECT (SELECT count(*) FROM co_owner_search_docsize) "
            "- (SELECT count(*) FROM co_owner_search_pending WHERE indexed_text IS NOT NULL) "
            "+ (SELECT count(*) FROM co_owner_search_pending p JOIN co_owners c ON c.rowid = p.row)");
        if (rows != tallied || rows != indexed)
            fail("co-owner rows " + std::to_string(rows) + ", tallied " + std::to_string(tallied) + ", indexed " +
                 std::to_string(indexed));
        if (count("SELECT count(*) FROM pragma_foreign_key_check") != 0) fail("a foreign key points nowhere");
        try {
            db->sql().exec("INSERT INTO co_owner_search (co_owner_search) VALUES ('integrity-check')");
        } catch (const std::exception& e) {
            fail(std::string("the co-owners' search index is not whole: ") + e.what());
        }
    }

    void check_integrity() {
        SQLite::Statement q(db->sql(), "PRAGMA integrity_check");
        q.executeStep();
        if (q.getColumn(0).getString() != "ok") fail("integrity_check: " + q.getColumn(0).getString());
    }

    json seed_call(const std::string& tool, json args, const CallerContext& who) {
        substitute(args);
        try {
            return registry.call(tool, args, who, *db, clock);
        } catch (const std::exception& e) {
            fail("seeding: " + tool + " " + args.dump() + ": " + e.what());
        }
    }

    void seed() {
        syndicate = create_syndicate(*db, clock, "Syndicat A", false);
        other_syndicate = create_syndicate(*db, clock, "Syndicat B", false);
        admin = {syndicate, "key-admin", {"*"}, Role::admin};
        member = {syndicate, "key-member", {"*"}, Role::member};
        other_admin = {other_syndicate, "key-other", {"*"}, Role::admin};
        admin_secret = issue_api_key(*db, clock, syndicate, Role::admin, {all_scopes}, "fuzz admin").secret;
        seed_units_and_co_owners();
        seed_meetings();
        seed_registers();
        check_invariants();
        check_integrity();
    }

    // @u units and @c co-owners (@c4 archived; @x: B's).
    void seed_units_and_co_owners() {
        auto unit = [&](const char* name, json args, const CallerContext& who = {}) {
            ids[name] = seed_call("create_unit", std::move(args), who.syndicate_id.empty() ? admin : who)["id"];
        };
        unit("@u0", {{"number", "101"}, {"type", "apartment"}, {"floor", 1}, {"areaSqFt", 850.5}, {"fractionPercent", 35},
                     {"cadastralLot", "1 234 567"}, {"bedrooms", 2}, {"bathrooms", 1.5}});
        unit("@u1", {{"number", "102"}, {"type", "apartment"}, {"floor", 1}, {"fractionPercent", 30}});
        unit("@u2", {{"number", "201"}, {"type", "commercial"}, {"floor", 0}, {"areaSqM", 120}, {"fractionPercent", 34}});
        unit("@u3", {{"number", "P-1"}, {"type", "parking"}, {"floor", -1}, {"fractionPercent", 0.5}, {"linkedUnits", {"@u0"}}});
        unit("@u4", {{"number", "S-1"}, {"type", "storage"}, {"floor", -1}, {"fractionPercent", 0.5}});
        unit("@xu0", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 100}}, other_admin);

        auto co_owner = [&](const char* name, json args, const CallerContext& who = {}) {
            ids[name] = seed_call("create_co_owner", std::move(args), who.syndicate_id.empty() ? admin : who)["id"];
        };
        co_owner("@c0", {{"unitId", "@u0"}, {"firstName", "Marie"}, {"lastName", "Tremblay"}, {"email", "marie@example.ca"},
                         {"isPrimary", true}, {"isResident", true}, {"fractionPercent", 20}, {"hasPortalAccess", true}});
        co_owner("@c1", {{"unitId", "@u0"}, {"firstName", "Jean"}, {"lastName", "Gagnon"}, {"language", "en"},
                         {"fractionPercent", 15}, {"phone", "+15145550123"}});
        co_owner("@c2", {{"unitId", "@u1"}, {"firstName", "Éloïse"}, {"lastName", "Côté"}, {"isPrimary", true},
                         {"fractionPercent", 30}});
        co_owner("@c3", {{"unitId", "@u2"}, {"firstName", "Chen"}, {"lastName", "Wei"}, {"fractionPercent", 34}});
        co_owner("@c4", {{"unitId", "@u2"}, {"firstName", "Archivé"}, {"lastName", "Ancien"}});
        seed_call("delete_co_owner", {{"id", "@c4"}}, admin);
        co_owner("@xc0", {{"unitId", "@xu0"}, {"firstName", "Other"}, {"lastName", "Owner"}, {"fractionPercent", 100}},
                 other_admin);
    }

    // @m0 a draft, @m1 notice-sent, @m2 held with votes, @m3 minutes-sent (@d0 its minutes), and
    // their @r resolutions (@x: B's).
    void seed_meetings() {
        auto meeting = [&](const char* name, const std::string& when, const CallerContext& who = {}) {
            ids[name] = seed_call("create_meeting",
                                  {{"title", std::string("Assemblée ") + name}, {"type", "aga"}, {"scheduledAt", when},
                                   {"location", "Salle communautaire"}, {"agenda", {"Ouverture", "Budget"}}},
                                  who.syndicate_id.empty() ? admin : who)["id"];
        };
        auto resolution = [&](const char* name, const char* meeting_name, const char* majority) {
            ids[name] = seed_call("add_resolution",
                                  {{"meetingId", meeting_name}, {"title", std::string("Résolution ") + name},
                                   {"description", "Adopter le budget."}, {"majorityRequired", majority}},
                                  admin)["id"];
        };
        const json all_present = {{{"coOwnerId", "@c0"}, {"attendance", "present"}},
                                  {{"coOwnerId", "@c1"}, {"attendance", "proxy"}, {"proxyHolder", "Paul Roy"}},
                                  {{"coOwnerId", "@c2"}, {"attendance", "present"}},
                                  {{"coOwnerId", "@c3"}, {"attendance", "absent"}}};
        meeting("@m0", "2026-12-15T19:00:00-05:00");
        resolution("@r0", "@m0", "simple");
        for (const char* m : {"@m1", "@m2", "@m3"}) {
            meeting(m, "2026-12-16T19:00:00-05:00");
            seed_call("send_meeting_notice", {{"meetingId", m}, {"includeAgenda", true}}, admin);
        }
        seed_call("record_attendance", {{"meetingId", "@m1"}, {"attendees", all_present}}, admin);
        resolution("@r1", "@m1", "absolute");
        resolution("@r2", "@m2", "special");
        resolution("@r3", "@m3", "simple");
        for (const char* m : {"@m2", "@m3"}) {
            seed_call("record_attendance", {{"meetingId", m}, {"attendees", all_present}}, admin);
            seed_call("update_meeting", {{"id", m}, {"status", "held"}}, admin);
        }
        seed_call("record_votes", {{"resolutionId", "@r2"}, {"votesFor", 50}, {"votesAgainst", 15}, {"votesAbstain", 0}}, admin);
        seed_call("record_votes", {{"resolutionId", "@r3"}, {"votesFor", 60}, {"votesAgainst", 5}, {"votesAbstain", 0}}, admin);
        ids["@d0"] = seed_call("generate_minutes", {{"meetingId", "@m3"}, {"draft", false}, {"language", "en"}}, admin)["documentId"];
        seed_call("update_meeting", {{"id", "@m3"}, {"status", "minutes-sent"}}, admin);
        meeting("@xm0", "2026-12-20T19:00:00-05:00", other_admin);
        ids["@xr0"] = seed_call("add_resolution", {{"meetingId", "@xm0"}, {"title", "Other"}, {"majorityRequired", "simple"}},
                                other_admin)["id"];
    }

    // The registers: @w water heaters, @p insurance policies, @k contractors (@x: B's).
    void seed_registers() {
        auto record = [&](const char* name, const char* tool, json args, const CallerContext& who = {}) {
            ids[name] = seed_call(tool, std::move(args), who.syndicate_id.empty() ? admin : who)["id"];
        };
        record("@w0", "create_water_heater", {{"unitId", "@u0"}, {"brand", "Giant"}, {"capacityLitres", 151},
                                              {"manufactureDate", "2016-03-01"}, {"installDate", "2016-05-01"},
                                              {"hasDrainPan", true}, {"replacementProofDocumentId", "@d0"}});
        record("@w1", "create_water_heater", {{"unitId", nullptr}, {"installDate", "2021-01-15"}});
        record("@xw0", "create_water_heater", {{"unitId", "@xu0"}, {"manufactureDate", "2010-01-01"}}, other_admin);
        record("@p0", "create_insurance_policy",
               {{"kind", "property"}, {"insurer", "Assurances Mont-Royal"}, {"policyNumber", "CP-1"}, {"startDate", "2026-01-01"},
                {"endDate", "2027-01-01"}, {"lastAppraisalDate", "2019-05-01"},
                {"coverages", {{{"peril", "incendie"}, {"amountCents", 1000000000}, {"deductibleCents", 500000}}}}});
        record("@p1", "create_insurance_policy", {{"kind", "directors-and-officers"}, {"insurer", "Mutuelle"},
                                                  {"policyNumber", "DO-1"}, {"startDate", "2025-06-01"}, {"endDate", "2026-06-01"}});
        record("@xp0", "create_insurance_policy", {{"kind", "other"}, {"insurer", "B"}, {"policyNumber", "X"},
                                                   {"startDate", "2026-01-01"}, {"endDate", "2026-12-31"}}, other_admin);
        record("@k0", "create_contractor", {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"}, {"neq", "1171234567"},
                                            {"rbqLicence", "5678-1234-01"}, {"insuranceExpiry", "2026-12-01"}});
        record("@k1", "create_contractor", {{"name", "Toitures Gagnon"}, {"trade", "couvreur"}, {"email", "info@toitures.example"}});
        record("@xk0", "create_contractor", {{"name", "Autre"}, {"trade", "x"}, {"neq", "1171234567"}}, other_admin);
    }
};

// One World per process, made on first use.
inline World& world() {
    static World w;
    return w;
}

// The lines of an input (at most `most`; the rest is ignored).
inline std::vector<std::string_view> lines_of(const std::uint8_t* data, std::size_t size, std::size_t most) {
    std::vector<std::string_view> out;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    while (!text.empty() && out.size() < most) {
        const auto end = text.find('\n');
        out.push_back(text.substr(0, end));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return out;
}

}  // namespace syndic::fuzz
