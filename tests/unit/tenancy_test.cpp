// Tenancy (decisions 4; issue 7, point 5): syndicate B calls every tool of the catalogue with
// syndicate A's ids. Each call must answer exactly as for an id that exists nowhere (same code,
// field, figures and detail, the id aside) and leave A's rows and exported files as they were.
// `tenancy_cases` names the tools that have a case here; a tool the registry offers without one
// fails the catalogue test at the end.
#include "fixture.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

using namespace syndic::test;
namespace fs = std::filesystem;

namespace {

// Every tool that has a tenancy case in this file. A tool joins this list only with its case.
const std::set<std::string> tenancy_cases = {
    // co-owners
    "list_co_owners", "get_co_owner", "create_co_owner", "update_co_owner", "delete_co_owner",
    "restore_co_owner", "bulk_create_co_owners",
    // units
    "list_units", "get_unit", "create_unit", "update_unit", "delete_unit",
    // declaration
    "get_fraction_sum", "rebalance_fractions",
    // meetings
    "list_meetings", "get_meeting", "create_meeting", "update_meeting", "send_meeting_notice",
    "record_attendance", "record_votes", "add_resolution", "calculate_quorum", "generate_minutes",
    // audit
    "list_audit_events",
    // water heaters, insurance, contractors
    "list_water_heaters", "create_water_heater", "update_water_heater", "delete_water_heater",
    "list_insurance_policies", "create_insurance_policy", "update_insurance_policy", "delete_insurance_policy",
    "list_contractors", "create_contractor", "update_contractor", "delete_contractor",
};

// An id of the right shape that exists in no syndicate.
const std::string ghost_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// A refusal as the client sees it (code and error data), with `id` written as <id>.
std::string wire_form(const syndic::DomainError& e, const std::string& id) {
    return replace_all(json{{"code", e.code()}, {"data", syndic::error_data(e)}}.dump(), id, "<id>");
}

// Syndicate A (the fixture's admin) with a small building, and syndicate B (fx.other_admin) with
// nothing yet. Every test has B reach for A's records.
struct TwoSyndicates : Fixture {
    std::string data_dir;
    json a101, a102, a_parking;  // A's units: fractions 60 + 39.8 + 0 = 99.8
    json marie;                  // A's primary co-owner of 101 (60 %), with portal access and an e-mail
    json jean;                   // A's archived co-owner of 102

    TwoSyndicates() {
        char pattern[] = "/tmp/syndic-tenancy-test-XXXXXX";
        const char* made = mkdtemp(pattern);
        REQUIRE(made != nullptr);
        data_dir = made;
        db->set_data_dir(data_dir);

        a101 = unit("101", 60);
        a102 = unit("102", 39.8);
        a_parking = unit("P-1", 0, "parking");
        a_parking = call("update_unit", {{"id", a_parking["id"]}, {"linkedUnits", json::array({a101["id"]})}});
        marie = co_owner(a101["id"], "Marie", "Tremblay",
                         {{"email", "marie@example.ca"}, {"isPrimary", true}, {"hasPortalAccess", true},
                          {"fractionPercent", 60}});
        jean = co_owner(a102["id"], "Jean", "Lapointe", {{"isPrimary", true}});
        call("delete_co_owner", {{"id", jean["id"]}});
        jean = call("get_co_owner", {{"id", jean["id"]}});
    }
    ~TwoSyndicates() {
        std::error_code ignored;
        fs::remove_all(data_dir, ignored);
    }
    TwoSyndicates(const TwoSyndicates&) = delete;
    TwoSyndicates& operator=(const TwoSyndicates&) = delete;

    json as_b(const std::string& tool, const json& args = json::object()) { return call_as(other_admin, tool, args); }

    // The tables whose rows carry a syndicate_id, read from the schema, so a table added later
    // is compared too.
    std::vector<std::string> tenant_tables() {
        std::vector<std::string> out;
        SQLite::Statement q(db->sql(),
                            "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS "
                            "(SELECT 1 FROM pragma_table_info(m.name) p WHERE p.name = 'syndicate_id') ORDER BY m.name");
        while (q.executeStep()) out.push_back(q.getColumn(0).getString());
        return out;
    }

    // Every row of one syndicate, in every table that carries a syndicate_id, and its row of
    // syndicates: to prove B's calls left A's data alone, byte for byte.
    std::string rows_of(const std::string& syndicate_id) {
        std::string out;
        auto dump = [&](const std::string& table, const std::string& sql) {
            SQLite::Statement q(db->sql(), sql);
            q.bind(1, syndicate_id);
            const int n = q.getColumnCount();
            std::vector<std::string> rows;
            while (q.executeStep()) {
                std::string row;
                for (int i = 0; i < n; ++i) {
                    const auto c = q.getColumn(i);
                    row += c.isNull() ? "<null>" : std::string(static_cast<const char*>(c.getBlob()), c.getBytes());
                    row += "|";
                }
                rows.push_back(std::move(row));
            }
            std::sort(rows.begin(), rows.end());
            for (const auto& r : rows) out += r + "\n";
            out += table + ": " + std::to_string(rows.size()) + "\n--\n";
        };
        dump("syndicates", "SELECT * FROM syndicates WHERE id = ?");
        for (const auto& table : tenant_tables()) dump(table, "SELECT * FROM " + table + " WHERE syndicate_id = ?");
        return out;
    }
    std::string rows_of_a() { return rows_of(syndicate); }

    // The files under the data folder's exports/, with their sizes.
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
    std::size_t exported_file_count() {
        std::error_code ec;
        const auto exports = fs::path(data_dir) / "exports";
        if (!fs::exists(exports, ec)) return 0;
        return static_cast<std::size_t>(std::distance(fs::directory_iterator(exports), fs::directory_iterator()));
    }

    // Both syndicates' rows and the exported files.
    std::string state() { return rows_of(syndicate) + rows_of(other_syndicate) + exported_files(); }

    int compared = 0;  // refusals compared with a missing id's

    // B's call naming A's record `a_id` is refused with `code`, exactly as the same call naming an
    // id that exists nowhere (code, field, figures, detail: the client cannot tell them apart),
    // and neither call changes a row of either syndicate or a file.
    void check_as_missing(const std::string& tool, const json& args, const json& a_id, const std::string& code) {
        CAPTURE(tool);
        CAPTURE(args.dump());
        const std::string id = a_id.get<std::string>();
        const auto ghost_args = json::parse(replace_all(args.dump(), id, ghost_id));
        REQUIRE_MESSAGE(ghost_args != args, "the arguments do not name " << id);
        const auto before = state();
        const auto refused = error_as(other_admin, tool, args);
        CHECK(state() == before);
        const auto missing = error_as(other_admin, tool, ghost_args);
        CHECK(state() == before);
        CHECK(refused.code() == code);
        CHECK(wire_form(refused, id) == wire_form(missing, ghost_id));
        ++compared;
    }
};

std::vector<std::string> numbers_of(const json& list) {
    std::vector<std::string> out;
    for (const auto& u : list["data"]) out.push_back(u["number"]);
    return out;
}

// A's meetings in each state, with what they bring (attendance, resolutions, votes, minutes, the
// outbox), and B's own small building and meeting: B reaches for A's meetings from there.
struct WithMeetings : TwoSyndicates {
    json draft;    // A's draft meeting
    json held;     // A's held meeting: notice sent, Marie present, a resolution voted, final minutes
    json open;     // A's board meeting whose notice was sent, with a pending resolution
    json voted, pending;  // A's resolutions of `held` and `open`
    json minutes;         // A's final minutes of `held`
    json b101, b_luc, b_meeting, b_resolution;

    json meeting_as(const syndic::CallerContext& who, const std::string& title, const std::string& when,
                    const std::string& type = "aga") {
        return call_as(who, "create_meeting",
                       {{"title", title}, {"type", type}, {"scheduledAt", when}, {"location", "Salle communautaire"},
                        {"agenda", json::array({"Ouverture", "Budget"})}});
    }

    WithMeetings() {
        syndic::set_required_quorum(*db, syndicate, syndic::Fraction::percent(60));
        draft = meeting_as(admin, "Brouillon de A", "2027-01-19T19:00:00-05:00");
        held = meeting_as(admin, "AGA de A", "2026-12-15T19:00:00-05:00");
        call("send_meeting_notice", {{"meetingId", held["id"]}});
        call("record_attendance", {{"meetingId", held["id"]},
                                   {"attendees", json::array({json{{"coOwnerId", marie["id"]}, {"attendance", "present"}}})}});
        voted = call("add_resolution", {{"meetingId", held["id"]}, {"title", "Budget de A"}, {"majorityRequired", "simple"}});
        call("record_votes", {{"resolutionId", voted["id"]}, {"votesFor", 60}, {"votesAgainst", 0}, {"votesAbstain", 0}});
        call("update_meeting", {{"id", held["id"]}, {"status", "held"}});
        minutes = call("generate_minutes", {{"meetingId", held["id"]}});
        held = call("get_meeting", {{"id", held["id"]}});
        open = meeting_as(admin, "Conseil de A", "2026-12-16T19:00:00-05:00", "board");
        call("send_meeting_notice", {{"meetingId", open["id"]}});
        pending = call("add_resolution", {{"meetingId", open["id"]}, {"title", "Toiture"}, {"majorityRequired", "absolute"}});
        open = call("get_meeting", {{"id", open["id"]}});
        draft = call("get_meeting", {{"id", draft["id"]}});

        b101 = as_b("create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 100}});
        b_luc = as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"},
                                         {"email", "luc@example.org"}, {"fractionPercent", 100}});
        b_meeting = meeting_as(other_admin, "AGA de B", "2026-12-15T19:00:00-05:00");
        as_b("send_meeting_notice", {{"meetingId", b_meeting["id"]}});
        b_resolution = as_b("add_resolution", {{"meetingId", b_meeting["id"]}, {"title", "Budget de B"},
                                               {"majorityRequired", "simple"}});
        REQUIRE(held["status"] == "held");
        REQUIRE(held["documents"].size() == 1);
        REQUIRE(exported_file_count() == 1);
    }
};

// A's registers of the issue 8 modules: a water heater in 101 with its proof of replacement (a
// document of A's), a property policy, a contractor with an NEQ; B has its own unit 101.
struct WithRegisters : TwoSyndicates {
    std::string a_document = "a-proof-document";
    json heater, policy, contractor, b101;

    WithRegisters() {
        add_document(syndicate, a_document);
        heater = call("create_water_heater", {{"unitId", a101["id"]}, {"brand", "Giant"}, {"manufactureDate", "2016-06-01"},
                                              {"replacementProofDocumentId", a_document}});
        policy = call("create_insurance_policy",
                      {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "A-1"}, {"startDate", "2026-01-01"},
                       {"endDate", "2027-01-01"}, {"coverages", json::array({json{{"peril", "fire"}, {"amountCents", 100}}})}});
        contractor = call("create_contractor",
                          {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"}, {"neq", "1171234567"}});
        b101 = as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    }
};

json present(const json& co_owner) { return {{"coOwnerId", co_owner["id"]}, {"attendance", "present"}}; }
json votes(const json& resolution, double yes) {
    return {{"resolutionId", resolution["id"]}, {"votesFor", yes}, {"votesAgainst", 0}, {"votesAbstain", 0}};
}

}  // namespace

TEST_SUITE("tenancy") {

TEST_CASE("list_co_owners: syndicate B sees none of A's co-owners") {
    TwoSyndicates fx;
    REQUIRE(fx.call("list_co_owners", {{"includeArchived", true}})["pagination"]["total"] == 2);

    for (const auto& args : {json::object(), json{{"includeArchived", true}}, json{{"search", "tremblay"}},
                             json{{"search", "example.ca"}}, json{{"unitId", fx.a101["id"]}},
                             json{{"hasPortalAccess", true}}}) {
        CAPTURE(args.dump());
        const auto list = fx.as_b("list_co_owners", args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
    }

    // B's own co-owner, with the same name: each syndicate lists only its own.
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_marie =
        fx.as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Marie"}, {"lastName", "Tremblay"}});
    const auto b_list = fx.as_b("list_co_owners", {{"includeArchived", true}});
    REQUIRE(b_list["data"].size() == 1);
    CHECK(b_list["data"][0]["id"] == b_marie["id"]);
    CHECK(b_list["pagination"]["total"] == 1);
    const auto a_list = fx.call("list_co_owners", {{"search", "tremblay"}});
    REQUIRE(a_list["data"].size() == 1);
    CHECK(a_list["data"][0]["id"] == fx.marie["id"]);
}

TEST_CASE("get_co_owner: A's co-owners are not found for B") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "get_co_owner", (json{{"id", fx.marie["id"]}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "get_co_owner", (json{{"id", fx.jean["id"]}}));
    // Indistinguishable from an id that exists nowhere.
    CHECK(fx.error_as(fx.other_admin, "get_co_owner", {{"id", fx.marie["id"]}}).field() ==
          fx.error_as(fx.other_admin, "get_co_owner", {{"id", "00000000-0000-4000-8000-000000000000"}}).field());
    CHECK(fx.call("get_co_owner", {{"id", fx.marie["id"]}}) == fx.marie);
    CHECK(fx.rows_of_a() == before);
}

TEST_CASE("create_co_owner: B cannot attach a co-owner to A's unit") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "create_co_owner",
                     (json{{"unitId", fx.a101["id"]}, {"firstName", "Eve"}, {"lastName", "Intruse"}}));
    CHECK(fx.error_as(fx.other_admin, "create_co_owner",
                      {{"unitId", fx.a101["id"]}, {"firstName", "Eve"}, {"lastName", "Intruse"}})
              .field() == "/unitId");

    // B's own unit 101 takes its own primary co-owner although A's 101 has one.
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_primary = fx.as_b("create_co_owner", {{"unitId", b101["id"]},
                                                       {"firstName", "Luc"},
                                                       {"lastName", "Gagnon"},
                                                       {"isPrimary", true}});
    CHECK(b_primary["isPrimary"] == true);
    CHECK(b_primary["unitNumber"] == "101");
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("list_co_owners", {{"unitId", fx.a101["id"]}})["pagination"]["total"] == 1);
}

TEST_CASE("update_co_owner: B can neither change A's co-owner nor move its own into A's unit") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "update_co_owner",
                     (json{{"id", fx.marie["id"]}, {"email", "attacker@example.com"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "update_co_owner",
                     (json{{"id", fx.jean["id"]}, {"firstName", "X"}}));

    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_luc =
        fx.as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"}});
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_co_owner",
                     (json{{"id", b_luc["id"]}, {"unitId", fx.a102["id"]}}));
    CHECK(fx.as_b("get_co_owner", {{"id", b_luc["id"]}})["unitId"] == b101["id"]);

    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_co_owner", {{"id", fx.marie["id"]}})["email"] == "marie@example.ca");
}

TEST_CASE("delete_co_owner: B's admin cannot archive A's co-owner") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "delete_co_owner", (json{{"id", fx.marie["id"]}}));
    CHECK(fx.rows_of_a() == before);
    const auto marie = fx.call("get_co_owner", {{"id", fx.marie["id"]}});
    CHECK(marie["deletedAt"].is_null());
    CHECK(marie["hasPortalAccess"] == true);
}

TEST_CASE("restore_co_owner: B can neither restore A's archived co-owner nor learn it exists") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "restore_co_owner", (json{{"id", fx.jean["id"]}}));
    // An active co-owner of A is "not found" too, not NOT_ARCHIVED.
    CHECK_REFUSED_AS(fx, fx.other_admin, "CO_OWNER_NOT_FOUND", "restore_co_owner", (json{{"id", fx.marie["id"]}}));
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_co_owner", {{"id", fx.jean["id"]}})["deletedAt"].is_string());
}

TEST_CASE("bulk_create_co_owners: rows pointing at A's units are refused, B's rows go to B") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto r = fx.as_b(
        "bulk_create_co_owners",
        {{"coOwners", json::array({json{{"unitId", fx.a101["id"]}, {"firstName", "Eve"}, {"lastName", "Intruse"}},
                                   json{{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"}},
                                   json{{"unitId", fx.a102["id"]}, {"firstName", "Ève"}, {"lastName", "Autre"}}})}});
    CHECK(r["createdCount"] == 1);
    REQUIRE(r["errors"].size() == 2);
    CHECK(r["errors"][0]["code"] == "UNIT_NOT_FOUND");
    CHECK(r["errors"][0]["field"] == "/coOwners/0/unitId");
    CHECK(r["errors"][1]["code"] == "UNIT_NOT_FOUND");
    CHECK(r["errors"][1]["field"] == "/coOwners/2/unitId");

    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("list_co_owners", {{"includeArchived", true}})["pagination"]["total"] == 2);
    const auto b_list = fx.as_b("list_co_owners");
    REQUIRE(b_list["data"].size() == 1);
    CHECK(b_list["data"][0]["lastName"] == "Gagnon");
}

TEST_CASE("list_units: syndicate B sees none of A's units") {
    TwoSyndicates fx;
    REQUIRE(fx.call("list_units")["pagination"]["total"] == 3);
    for (const auto& args : {json::object(), json{{"search", "101"}}, json{{"type", "parking"}},
                             json{{"includeLinked", true}}}) {
        CAPTURE(args.dump());
        const auto list = fx.as_b("list_units", args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
    }
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_list = fx.as_b("list_units", {{"includeLinked", true}});
    CHECK(numbers_of(b_list) == std::vector<std::string>{"101"});
    CHECK(b_list["data"][0]["id"] == b101["id"]);
    CHECK(b_list["data"][0]["linkedUnits"].empty());
    CHECK(numbers_of(fx.call("list_units")) == std::vector<std::string>{"101", "102", "P-1"});
}

TEST_CASE("get_unit: A's units are not found for B") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "get_unit", (json{{"id", fx.a101["id"]}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "get_unit",
                     (json{{"id", fx.a_parking["id"]}, {"includeLinked", true}}));
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_unit", {{"id", fx.a101["id"]}})["linkedUnits"] == json::array({fx.a_parking["id"]}));
}

TEST_CASE("create_unit: numbers and the fraction sum are per syndicate") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();

    SUBCASE("B may use A's numbers, but not twice in B") {
        const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}, {"fractionPercent", 50}});
        CHECK(b101["number"] == "101");
        CHECK(b101["id"] != fx.a101["id"]);
        CHECK(fx.as_b("create_unit", {{"number", "p-1"}, {"type", "parking"}})["number"] == "p-1");
        CHECK_REFUSED_AS(fx, fx.other_admin, "DUPLICATE_UNIT_NUMBER", "create_unit",
                         (json{{"number", "101"}, {"type", "storage"}}));
        // A's own rule still holds for A.
        CHECK(fx.error("create_unit", {{"number", "101"}, {"type", "storage"}}).code() == "DUPLICATE_UNIT_NUMBER");
        CHECK(fx.rows_of_a() == before);
    }
    SUBCASE("B's fractions are summed on their own: 100 in B is fine while A holds 99.8") {
        const auto b = fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 100}});
        CHECK(b["fractionPercent"] == 100);
        CHECK(fx.as_b("get_fraction_sum")["sum"] == 100);
        CHECK(fx.call("get_fraction_sum")["sum"] == 99.8);
        CHECK(fx.rows_of_a() == before);
    }
    SUBCASE("B's new parking cannot be linked to A's apartment") {
        CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "create_unit",
                         (json{{"number", "P-7"}, {"type", "parking"}, {"linkedUnits", json::array({fx.a101["id"]})}}));
        CHECK(fx.as_b("list_units")["data"].empty());
    }
}

TEST_CASE("update_unit: B can neither change A's units nor link to them") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();

    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", fx.a101["id"]}, {"number", "999"}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", fx.a_parking["id"]}, {"linkedUnits", json::array()}}));

    const auto b_parking = fx.as_b("create_unit", {{"number", "P-1"}, {"type", "parking"}});
    const auto b_apartment = fx.as_b("create_unit", {{"number", "201"}, {"type", "apartment"}});
    // B's parking onto A's apartment.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", b_parking["id"]}, {"linkedUnits", json::array({fx.a101["id"]})}}));
    CHECK(fx.error_as(fx.other_admin, "update_unit",
                      {{"id", b_parking["id"]}, {"linkedUnits", json::array({fx.a101["id"]})}})
              .field() == "/linkedUnits/0");
    // B's apartment taking A's parking.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "update_unit",
                     (json{{"id", b_apartment["id"]}, {"linkedUnits", json::array({fx.a_parking["id"]})}}));

    // B may rename its unit to a number A uses.
    CHECK(fx.as_b("update_unit", {{"id", b_apartment["id"]}, {"number", "102"}})["number"] == "102");

    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_unit", {{"id", fx.a_parking["id"]}})["linkedUnits"] == json::array({fx.a101["id"]}));
    CHECK(fx.call("get_unit", {{"id", fx.a101["id"]}})["number"] == "101");
}

TEST_CASE("delete_unit: B cannot delete A's unit") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();
    // A's parking has fraction 0 and no co-owner: only tenancy stands in the way.
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", fx.a_parking["id"]}}));
    CHECK_REFUSED_AS(fx, fx.other_admin, "UNIT_NOT_FOUND", "delete_unit", (json{{"id", fx.a101["id"]}}));
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("get_unit", {{"id", fx.a_parking["id"]}})["linkedUnits"] == json::array({fx.a101["id"]}));
}

TEST_CASE("get_fraction_sum: each syndicate sums its own units") {
    TwoSyndicates fx;
    const auto empty = fx.as_b("get_fraction_sum");
    CHECK(empty["sum"] == 0);
    CHECK(empty["unitCount"] == 0);
    CHECK(empty["balanced"] == false);

    fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 40}});
    const auto b = fx.as_b("get_fraction_sum");
    CHECK(b["sum"] == 40);
    CHECK(b["unitCount"] == 1);

    const auto a = fx.call("get_fraction_sum");
    CHECK(a["sum"] == 99.8);
    CHECK(a["unitCount"] == 3);
    CHECK(a["balanced"] == true);
}

TEST_CASE("rebalance_fractions: B's rebalance touches only B's units") {
    TwoSyndicates fx;
    const auto before = fx.rows_of_a();

    SUBCASE("B without units has nothing to rebalance, and A's 99.8 is left alone") {
        CHECK_REFUSED_AS(fx, fx.other_admin, "FRACTION_SUM_OUT_OF_RANGE", "rebalance_fractions", json::object());
        CHECK(fx.call("get_fraction_sum")["sum"] == 99.8);
    }
    SUBCASE("B's units are scaled to 100, A's are not") {
        const auto b1 = fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 30}});
        const auto b2 = fx.as_b("create_unit", {{"number", "2"}, {"type", "apartment"}, {"fractionPercent", 10}});
        const auto b_before = fx.rows_of(fx.other_syndicate);

        const auto dry = fx.as_b("rebalance_fractions", {{"dryRun", true}});
        CHECK(dry["changes"].size() == 2);
        CHECK(fx.rows_of(fx.other_syndicate) == b_before);

        const auto r = fx.as_b("rebalance_fractions");
        CHECK(r["previousSum"] == 40);
        CHECK(r["sum"] == 100);
        CHECK(r["unitCount"] == 2);
        REQUIRE(r["changes"].size() == 2);
        for (const auto& c : r["changes"]) CHECK((c["unitId"] == b1["id"] || c["unitId"] == b2["id"]));
        CHECK(fx.as_b("get_unit", {{"id", b1["id"]}})["fractionPercent"] == 75);
        CHECK(fx.as_b("get_unit", {{"id", b2["id"]}})["fractionPercent"] == 25);

        CHECK(fx.rows_of_a() == before);
        CHECK(fx.call("get_fraction_sum")["sum"] == 99.8);
        CHECK(fx.call("get_unit", {{"id", fx.a101["id"]}})["fractionPercent"] == 60);
    }
    SUBCASE("A's rebalance leaves B's units alone") {
        fx.as_b("create_unit", {{"number", "1"}, {"type", "apartment"}, {"fractionPercent", 30}});
        const auto b_before = fx.rows_of(fx.other_syndicate);
        const auto r = fx.call("rebalance_fractions");
        CHECK(r["sum"] == 100);
        CHECK(r["unitCount"] == 3);
        CHECK(fx.rows_of(fx.other_syndicate) == b_before);
        CHECK(fx.as_b("get_fraction_sum")["sum"] == 30);
    }
}

TEST_CASE("the tables compared are every table that carries a syndicate_id") {
    TwoSyndicates fx;
    const auto tables = fx.tenant_tables();
    for (const char* t : {"units", "unit_links", "co_owners", "meetings", "meeting_attendees", "resolutions", "documents",
                          "outbox", "api_keys", "users", "co_owner_tallies", "water_heaters", "insurance_policies",
                          "contractors"}) {
        CAPTURE(t);
        CHECK(std::find(tables.begin(), tables.end(), t) != tables.end());
    }
    // A change to one of A's rows shows; B's rows are not A's.
    const auto before = fx.rows_of_a();
    fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    CHECK(fx.rows_of_a() == before);
    fx.db->sql().exec("UPDATE units SET cadastral_lot = 'x' WHERE number = 'P-1'");
    CHECK(fx.rows_of_a() != before);
}

TEST_CASE("co-owner and unit tools: A's ids answer B as ids that exist nowhere") {
    TwoSyndicates fx;
    const auto b101 = fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_parking = fx.as_b("create_unit", {{"number", "P-9"}, {"type", "parking"}});
    const auto b_luc =
        fx.as_b("create_co_owner", {{"unitId", b101["id"]}, {"firstName", "Luc"}, {"lastName", "Gagnon"}});
    const auto a_before = fx.rows_of_a();

    for (const auto* who : {&fx.marie, &fx.jean}) {
        const auto& id = (*who)["id"];
        fx.check_as_missing("get_co_owner", {{"id", id}}, id, "CO_OWNER_NOT_FOUND");
        fx.check_as_missing("update_co_owner", {{"id", id}, {"email", "eve@example.com"}}, id, "CO_OWNER_NOT_FOUND");
        fx.check_as_missing("update_co_owner", {{"id", id}, {"unitId", b101["id"]}}, id, "CO_OWNER_NOT_FOUND");
        fx.check_as_missing("delete_co_owner", {{"id", id}}, id, "CO_OWNER_NOT_FOUND");
        fx.check_as_missing("restore_co_owner", {{"id", id}}, id, "CO_OWNER_NOT_FOUND");
    }
    for (const auto* unit : {&fx.a101, &fx.a102, &fx.a_parking}) {
        const auto& id = (*unit)["id"];
        fx.check_as_missing("get_unit", {{"id", id}, {"includeLinked", true}}, id, "UNIT_NOT_FOUND");
        fx.check_as_missing("update_unit", {{"id", id}, {"number", "999"}}, id, "UNIT_NOT_FOUND");
        fx.check_as_missing("update_unit", {{"id", id}, {"fractionPercent", 0}}, id, "UNIT_NOT_FOUND");
        fx.check_as_missing("delete_unit", {{"id", id}}, id, "UNIT_NOT_FOUND");
        fx.check_as_missing("create_co_owner", {{"unitId", id}, {"firstName", "Eve"}, {"lastName", "Intruse"}}, id,
                            "UNIT_NOT_FOUND");
        fx.check_as_missing("update_co_owner", {{"id", b_luc["id"]}, {"unitId", id}}, id, "UNIT_NOT_FOUND");
    }
    fx.check_as_missing("create_unit", {{"number", "P-7"}, {"type", "parking"}, {"linkedUnits", json::array({fx.a101["id"]})}},
                        fx.a101["id"], "UNIT_NOT_FOUND");
    fx.check_as_missing("update_unit", {{"id", b_parking["id"]}, {"linkedUnits", json::array({fx.a101["id"]})}},
                        fx.a101["id"], "UNIT_NOT_FOUND");
    fx.check_as_missing("update_unit", {{"id", b101["id"]}, {"linkedUnits", json::array({fx.a_parking["id"]})}},
                        fx.a_parking["id"], "UNIT_NOT_FOUND");

    // A bulk's rows naming A's units fail as rows naming missing units do; B's own row goes in.
    auto bulk = [&](const json& unit_id) {
        return fx.as_b("bulk_create_co_owners",
                       {{"coOwners", json::array({json{{"unitId", unit_id}, {"firstName", "Eve"}, {"lastName", "Intruse"}},
                                                  json{{"unitId", b101["id"]}, {"firstName", "Paul"}, {"lastName", "Roy"}}})}});
    };
    const auto with_a = bulk(fx.a101["id"]);
    const auto with_ghost = bulk(ghost_id);
    CHECK(with_a["createdCount"] == 1);
    CHECK(replace_all(with_a["errors"].dump(), fx.a101["id"], "<id>") == replace_all(with_ghost["errors"].dump(), ghost_id, "<id>"));
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.compared == 31);
}

TEST_CASE("list_meetings: B sees none of A's meetings, under any filter") {
    WithMeetings fx;
    REQUIRE(fx.call("list_meetings")["pagination"]["total"] == 3);
    const auto before = fx.state();
    for (const auto& args : {json::object(), json{{"status", "held"}}, json{{"status", "draft"}}, json{{"type", "board"}},
                             json{{"from", "2026-12-01"}, {"to", "2027-12-31"}}, json{{"from", "2027-01-19"}},
                             json{{"pageSize", 200}, {"page", 1}}}) {
        CAPTURE(args.dump());
        const auto list = fx.as_b("list_meetings", args);
        for (const auto& m : list["data"]) CHECK(m["id"] == fx.b_meeting["id"]);
        CHECK(list["pagination"]["total"] == list["data"].size());
    }
    CHECK(fx.as_b("list_meetings", {{"status", "held"}})["data"].empty());
    CHECK(fx.as_b("list_meetings", {{"type", "board"}})["data"].empty());
    const auto all_b = fx.as_b("list_meetings");
    REQUIRE(all_b["data"].size() == 1);
    CHECK(all_b["data"][0]["id"] == fx.b_meeting["id"]);
    CHECK(all_b["data"][0]["resolutionCount"] == 1);
    CHECK(fx.state() == before);
}

TEST_CASE("get_meeting, calculate_quorum: A's meetings are missing for B") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("get_meeting", {{"id", id}}, id, "MEETING_NOT_FOUND");
        fx.check_as_missing("calculate_quorum", {{"meetingId", id}}, id, "MEETING_NOT_FOUND");
    }
    // A's resolution and document ids are not meetings either.
    fx.check_as_missing("get_meeting", {{"id", fx.voted["id"]}}, fx.voted["id"], "MEETING_NOT_FOUND");
    fx.check_as_missing("get_meeting", {{"id", fx.minutes["documentId"]}}, fx.minutes["documentId"], "MEETING_NOT_FOUND");

    // B's own meeting shows B's alone; its quorum counts B's attendance against B's 51 %, not A's 60 %.
    const auto b = fx.as_b("get_meeting", {{"id", fx.b_meeting["id"]}});
    CHECK(b["attendees"].empty());
    CHECK(b["documents"].empty());
    REQUIRE(b["resolutions"].size() == 1);
    CHECK(b["resolutions"][0]["id"] == fx.b_resolution["id"]);
    const auto q = fx.as_b("calculate_quorum", {{"meetingId", fx.b_meeting["id"]}});
    CHECK(q["required"] == 51);
    CHECK(q["total"] == 0);
    CHECK(fx.call("calculate_quorum", {{"meetingId", fx.held["id"]}})["required"] == 60);
    CHECK(fx.call("get_meeting", {{"id", fx.held["id"]}}) == fx.held);
}

TEST_CASE("create_meeting: B's meeting is B's; A's list and rows stay as they were") {
    WithMeetings fx;
    const auto before = fx.rows_of_a();
    const auto a_list = fx.call("list_meetings");
    // The same title, type and time as A's held meeting.
    const auto m = fx.meeting_as(fx.other_admin, "AGA de A", "2026-12-15T19:00:00-05:00");
    CHECK(m["id"] != fx.held["id"]);
    CHECK(m["status"] == "draft");
    CHECK(m["attendees"].empty());
    CHECK(m["resolutions"].empty());
    CHECK(fx.rows_of_a() == before);
    CHECK(fx.call("list_meetings") == a_list);
    CHECK(fx.error("get_meeting", {{"id", m["id"]}}).code() == "MEETING_NOT_FOUND");
}

TEST_CASE("update_meeting: B can change none of A's meetings, nor learn their status") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("update_meeting", {{"id", id}}, id, "MEETING_NOT_FOUND");
        fx.check_as_missing("update_meeting", {{"id", id}, {"title", "Piraté"}}, id, "MEETING_NOT_FOUND");
        fx.check_as_missing("update_meeting", {{"id", id}, {"scheduledAt", "2027-02-02T19:00:00-05:00"}}, id,
                            "MEETING_NOT_FOUND");
        fx.check_as_missing("update_meeting", {{"id", id}, {"agenda", json::array({"Piraté"})}}, id, "MEETING_NOT_FOUND");
        // For A these would be refused as INVALID_STATUS_TRANSITION (with the status) or done.
        for (const char* status : {"draft", "notice-sent", "held", "minutes-sent"})
            fx.check_as_missing("update_meeting", {{"id", id}, {"status", status}}, id, "MEETING_NOT_FOUND");
    }
    CHECK(fx.error("update_meeting", {{"id", fx.held["id"]}, {"status", "draft"}}).code() == "INVALID_STATUS_TRANSITION");
}

TEST_CASE("send_meeting_notice: B sends no notice for A's meetings, to anyone") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("send_meeting_notice", {{"meetingId", id}}, id, "MEETING_NOT_FOUND");
        fx.check_as_missing("send_meeting_notice",
                            {{"meetingId", id}, {"includeAgenda", false}, {"justification", "Urgence"}}, id,
                            "MEETING_NOT_FOUND");
    }
    // B's own notice goes to B's co-owners only.
    const auto a_before = fx.rows_of_a();
    const auto bm = fx.meeting_as(fx.other_admin, "Deuxième de B", "2027-01-19T19:00:00-05:00");
    const auto sent = fx.as_b("send_meeting_notice", {{"meetingId", bm["id"]}});
    CHECK(sent["queued"] == 1);
    CHECK(sent["withoutEmail"].empty());
    SQLite::Statement q(fx.db->sql(), "SELECT recipient, syndicate_id, co_owner_id FROM outbox WHERE meeting_id = ?");
    q.bind(1, bm["id"].get<std::string>());
    REQUIRE(q.executeStep());
    CHECK(q.getColumn(0).getString() == "luc@example.org");
    CHECK(q.getColumn(1).getString() == fx.other_syndicate);
    CHECK(q.getColumn(2).getString() == fx.b_luc["id"].get<std::string>());
    CHECK_FALSE(q.executeStep());
    CHECK(fx.rows_of_a() == a_before);
}

TEST_CASE("record_attendance: B records nothing at A's meetings, and A's co-owners attend none of B's") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("record_attendance", {{"meetingId", id}, {"attendees", json::array({present(fx.marie)})}}, id,
                            "MEETING_NOT_FOUND");
        fx.check_as_missing("record_attendance", {{"meetingId", id}, {"attendees", json::array({present(fx.b_luc)})}}, id,
                            "MEETING_NOT_FOUND");
    }
    // A's co-owners, active or archived, at B's meeting: not found, as a missing co-owner, even
    // after one of B's own; and B's meeting keeps no attendance of the refused call.
    for (const auto* a : {&fx.marie, &fx.jean}) {
        fx.check_as_missing("record_attendance", {{"meetingId", fx.b_meeting["id"]}, {"attendees", json::array({present(*a)})}},
                            (*a)["id"], "CO_OWNER_NOT_FOUND");
        fx.check_as_missing("record_attendance",
                            {{"meetingId", fx.b_meeting["id"]},
                             {"attendees", json::array({present(fx.b_luc),
                                                        json{{"coOwnerId", (*a)["id"]}, {"attendance", "proxy"},
                                                             {"proxyHolder", "Eve"}}})}},
                            (*a)["id"], "CO_OWNER_NOT_FOUND");
    }
    CHECK(fx.as_b("get_meeting", {{"id", fx.b_meeting["id"]}})["attendees"].empty());
    const auto r = fx.as_b("record_attendance", {{"meetingId", fx.b_meeting["id"]}, {"attendees", json::array({present(fx.b_luc)})}});
    REQUIRE(r["attendees"].size() == 1);
    CHECK(r["quorum"]["total"] == 100);
}

TEST_CASE("add_resolution: B adds nothing to A's meetings") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("add_resolution", {{"meetingId", id}, {"title", "Piraté"}, {"majorityRequired", "simple"}}, id,
                            "MEETING_NOT_FOUND");
        fx.check_as_missing("add_resolution",
                            {{"meetingId", id}, {"title", "Piraté"}, {"description", "x"}, {"majorityRequired", "special"}},
                            id, "MEETING_NOT_FOUND");
    }
    // B's resolutions are numbered in B's meeting alone.
    const auto r = fx.as_b("add_resolution", {{"meetingId", fx.b_meeting["id"]}, {"title", "Deux"}, {"majorityRequired", "simple"}});
    CHECK(r["number"] == 2);
}

TEST_CASE("record_votes: B votes on none of A's resolutions, nor through A's meetings") {
    WithMeetings fx;
    for (const auto* r : {&fx.voted, &fx.pending}) {
        const auto& id = (*r)["id"];
        fx.check_as_missing("record_votes", votes(*r, 0), id, "RESOLUTION_NOT_FOUND");
        auto with_meeting = votes(*r, 0);
        with_meeting["meetingId"] = (*r)["meetingId"];
        fx.check_as_missing("record_votes", with_meeting, id, "RESOLUTION_NOT_FOUND");
    }
    // B's resolution named with A's meeting: as with a missing meeting.
    for (const auto* m : {&fx.held, &fx.open}) {
        auto args = votes(fx.b_resolution, 1);
        args["meetingId"] = (*m)["id"];
        fx.check_as_missing("record_votes", args, (*m)["id"], "RESOLUTION_NOT_FOUND");
    }
    // A's meeting id given as the resolution.
    fx.check_as_missing("record_votes", {{"resolutionId", fx.open["id"]}, {"votesFor", 0}, {"votesAgainst", 0}, {"votesAbstain", 0}},
                        fx.open["id"], "RESOLUTION_NOT_FOUND");
    CHECK(fx.as_b("record_votes", votes(fx.b_resolution, 10))["outcome"] == "passed");
}

TEST_CASE("generate_minutes: B writes no minutes of A's meetings, and no file") {
    WithMeetings fx;
    for (const auto* m : {&fx.draft, &fx.held, &fx.open}) {
        const auto& id = (*m)["id"];
        fx.check_as_missing("generate_minutes", {{"meetingId", id}}, id, "MEETING_NOT_FOUND");
        fx.check_as_missing("generate_minutes", {{"meetingId", id}, {"draft", true}, {"language", "en"}}, id,
                            "MEETING_NOT_FOUND");
    }
    CHECK(fx.exported_file_count() == 1);
    // B's own minutes: B's document, none of A's.
    const auto a_before = fx.rows_of_a();
    const auto doc = fx.as_b("generate_minutes", {{"meetingId", fx.b_meeting["id"]}, {"draft", true}});
    CHECK(fx.exported_file_count() == 2);
    const auto b = fx.as_b("get_meeting", {{"id", fx.b_meeting["id"]}});
    REQUIRE(b["documents"].size() == 1);
    CHECK(b["documents"][0]["documentId"] == doc["documentId"]);
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.call("get_meeting", {{"id", fx.held["id"]}})["documents"] == fx.held["documents"]);
}

TEST_CASE("A's own calls find nothing of B's either") {
    WithMeetings fx;
    const auto b_before = fx.rows_of(fx.other_syndicate);
    for (const auto& probe :
         std::vector<std::tuple<std::string, json, std::string>>{
             {"get_meeting", {{"id", fx.b_meeting["id"]}}, "MEETING_NOT_FOUND"},
             {"update_meeting", {{"id", fx.b_meeting["id"]}, {"title", "x"}}, "MEETING_NOT_FOUND"},
             {"calculate_quorum", {{"meetingId", fx.b_meeting["id"]}}, "MEETING_NOT_FOUND"},
             {"generate_minutes", {{"meetingId", fx.b_meeting["id"]}, {"draft", true}}, "MEETING_NOT_FOUND"},
             {"record_votes", votes(fx.b_resolution, 1), "RESOLUTION_NOT_FOUND"},
             {"record_attendance", {{"meetingId", fx.held["id"]}, {"attendees", json::array({present(fx.b_luc)})}}, "CO_OWNER_NOT_FOUND"},
             {"get_co_owner", {{"id", fx.b_luc["id"]}}, "CO_OWNER_NOT_FOUND"},
             {"get_unit", {{"id", fx.b101["id"]}}, "UNIT_NOT_FOUND"}}) {
        const auto& tool = std::get<0>(probe);
        CAPTURE(tool);
        CHECK(fx.error(tool, std::get<1>(probe)).code() == std::get<2>(probe));
    }
    CHECK(fx.rows_of(fx.other_syndicate) == b_before);
}

TEST_CASE("list_audit_events: B reads none of A's events, and B's writes are not A's") {
    TwoSyndicates fx;
    const auto a_events = fx.call("list_audit_events")["pagination"]["total"].get<int>();
    REQUIRE(a_events >= 6);  // A's units, link and co-owners, the archive

    for (const auto& args : {json::object(), json{{"recordId", fx.marie["id"]}}, json{{"recordType", "co-owner"}},
                             json{{"actorId", fx.admin.api_key_id}}, json{{"tool", "create_co_owner"}},
                             json{{"action", "archive"}}, json{{"from", "2026-01-01"}, {"to", "2026-12-31"}}}) {
        CAPTURE(args.dump());
        const auto before = fx.rows_of_a();
        const auto list = fx.as_b("list_audit_events", args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
        CHECK(fx.rows_of_a() == before);
    }

    // B's own write is B's event: A's trail does not grow, and B's shows only it.
    fx.as_b("create_unit", {{"number", "101"}, {"type", "apartment"}});
    const auto b_list = fx.as_b("list_audit_events");
    REQUIRE(b_list["data"].size() == 1);
    CHECK(b_list["data"][0]["actor"]["id"] == fx.other_admin.api_key_id);
    CHECK(fx.call("list_audit_events")["pagination"]["total"] == a_events);
}

TEST_CASE("list_water_heaters, list_insurance_policies, list_contractors: B sees none of A's records") {
    WithRegisters fx;
    const auto before = fx.state();
    for (const auto& [tool, args] : std::vector<std::pair<std::string, json>>{
             {"list_water_heaters", json::object()},
             {"list_water_heaters", {{"status", "overdue"}}},
             {"list_water_heaters", {{"unitId", fx.a101["id"]}}},
             {"list_insurance_policies", json::object()},
             {"list_insurance_policies", {{"kind", "property"}, {"expiringSoon", true}}},
             {"list_insurance_policies", {{"appraisalOutdated", true}}},
             {"list_contractors", json::object()},
             {"list_contractors", {{"search", "belanger"}}},
             {"list_contractors", {{"trade", "plomberie"}}}}) {
        CAPTURE(tool);
        CAPTURE(args.dump());
        const auto list = fx.as_b(tool, args);
        CHECK(list["data"].empty());
        CHECK(list["pagination"]["total"] == 0);
    }
    CHECK(fx.state() == before);
    CHECK(fx.call("list_water_heaters")["pagination"]["total"] == 1);
    CHECK(fx.call("list_insurance_policies", {{"appraisalOutdated", true}})["pagination"]["total"] == 1);
    CHECK(fx.call("list_contractors", {{"search", "belanger"}})["pagination"]["total"] == 1);
}

TEST_CASE("water heaters, insurance, contractors: A's ids answer B as ids that exist nowhere") {
    WithRegisters fx;
    const auto b_heater = fx.as_b("create_water_heater", {{"unitId", fx.b101["id"]}});
    const auto a_before = fx.rows_of_a();

    const auto& h = fx.heater["id"];
    fx.check_as_missing("update_water_heater", {{"id", h}, {"brand", "Rheem"}}, h, "WATER_HEATER_NOT_FOUND");
    fx.check_as_missing("update_water_heater", {{"id", h}, {"unitId", fx.b101["id"]}}, h, "WATER_HEATER_NOT_FOUND");
    fx.check_as_missing("delete_water_heater", {{"id", h}}, h, "WATER_HEATER_NOT_FOUND");
    // B can neither put a heater in A's unit nor cite A's document as its proof.
    fx.check_as_missing("create_water_heater", {{"unitId", fx.a101["id"]}}, fx.a101["id"], "UNIT_NOT_FOUND");
    fx.check_as_missing("update_water_heater", {{"id", b_heater["id"]}, {"unitId", fx.a101["id"]}}, fx.a101["id"],
                        "UNIT_NOT_FOUND");
    fx.check_as_missing("create_water_heater", {{"unitId", nullptr}, {"replacementProofDocumentId", fx.a_document}},
                        json(fx.a_document), "DOCUMENT_NOT_FOUND");
    fx.check_as_missing("update_water_heater", {{"id", b_heater["id"]}, {"replacementProofDocumentId", fx.a_document}},
                        json(fx.a_document), "DOCUMENT_NOT_FOUND");

    const auto& p = fx.policy["id"];
    fx.check_as_missing("update_insurance_policy", {{"id", p}, {"insurer", "Eve"}}, p, "INSURANCE_POLICY_NOT_FOUND");
    fx.check_as_missing("update_insurance_policy", {{"id", p}, {"endDate", "2020-01-01"}}, p, "INSURANCE_POLICY_NOT_FOUND");
    fx.check_as_missing("delete_insurance_policy", {{"id", p}}, p, "INSURANCE_POLICY_NOT_FOUND");

    const auto& c = fx.contractor["id"];
    fx.check_as_missing("update_contractor", {{"id", c}, {"phone", "+15145550000"}}, c, "CONTRACTOR_NOT_FOUND");
    fx.check_as_missing("delete_contractor", {{"id", c}}, c, "CONTRACTOR_NOT_FOUND");
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.compared == 12);
}

TEST_CASE("create_water_heater, create_insurance_policy, create_contractor: B's records are B's") {
    WithRegisters fx;
    const auto a_before = fx.rows_of_a();
    // The same NEQ in another syndicate is another syndicate's business; B's policy and heater
    // are B's alone.
    const auto b_contractor = fx.as_b("create_contractor", {{"name", "Plomberie Bélanger"}, {"trade", "plomberie"},
                                                            {"neq", "117 123 4567"}});
    CHECK(b_contractor["neq"] == "1171234567");
    fx.as_b("update_contractor", {{"id", b_contractor["id"]}, {"neq", "1171234567"}});
    fx.as_b("create_insurance_policy", {{"kind", "property"}, {"insurer", "Intact"}, {"policyNumber", "A-1"},
                                        {"startDate", "2026-01-01"}, {"endDate", "2027-01-01"}});
    fx.as_b("create_water_heater", {{"unitId", fx.b101["id"]}, {"manufactureDate", "2016-06-01"}});
    CHECK(fx.rows_of_a() == a_before);
    CHECK(fx.call("list_contractors")["pagination"]["total"] == 1);
    CHECK(fx.call("list_insurance_policies")["pagination"]["total"] == 1);
    CHECK(fx.call("list_water_heaters")["pagination"]["total"] == 1);
    CHECK(fx.as_b("list_contractors")["data"][0]["id"] == b_contractor["id"]);
    // A's own NEQ is still A's to refuse twice.
    CHECK_REFUSED(fx, "DUPLICATE_NEQ", "create_contractor", (json{{"name", "Autre"}, {"trade", "x"}, {"neq", "1171234567"}}));
}

// Every tool the registry offers must have a case above: a tool added later (an audit log...)
// without one fails here, by name.
TEST_CASE("the catalogue: every tool has a tenancy case") {
    Fixture fx;
    std::set<std::string> offered;
    for (const auto& tool : fx.registry.tools()) {
        offered.insert(tool.name);
        CHECK_MESSAGE(tenancy_cases.count(tool.name) == 1,
                      "the tool " << tool.name << " has no tenancy case in tests/unit/tenancy_test.cpp");
    }
    for (const auto& name : tenancy_cases)
        CHECK_MESSAGE(offered.count(name) == 1, "tenancy_cases names " << name << ", which the registry does not offer");
    CHECK(offered.size() == tenancy_cases.size());
}

}
