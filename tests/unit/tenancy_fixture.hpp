// What the tenancy tests (tests/unit/tenancy*_test.cpp but the sweep) share: syndicate A with a
// small building and syndicate B with nothing yet, both syndicates' rows and exported files, and
// the check that B's call naming A's record is refused as one naming a missing id. It holds no
// case of its own: those stay in the test files.
#pragma once
#include "fixture.hpp"
#include "tenant_rows.hpp"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace syndic::test::tenancy_fixture {

// An id of the right shape that exists in no syndicate.
inline const std::string ghost_id = "3f1c2a4e-9b7d-4e21-8a55-0d6f3b2c1e99";

inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// A refusal as the client sees it (code and error data), with `id` written as <id>.
inline std::string wire_form(const syndic::DomainError& e, const std::string& id) {
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
        std::filesystem::remove_all(data_dir, ignored);
    }
    TwoSyndicates(const TwoSyndicates&) = delete;
    TwoSyndicates& operator=(const TwoSyndicates&) = delete;

    json as_b(const std::string& tool, const json& args = json::object()) { return call_as(other_admin, tool, args); }

    // The tables whose rows carry a syndicate_id, and every row of one syndicate in them.
    std::vector<std::string> tenant_tables() { return syndic::test::tenant_tables(*db); }
    std::string rows_of(const std::string& syndicate_id) { return tenant_rows(*db, syndicate_id); }
    std::string rows_of_a() { return rows_of(syndicate); }

    // The files under the data folder's exports/, with their sizes.
    std::string exported_files() {
        std::vector<std::string> files;
        std::error_code ec;
        const auto exports = std::filesystem::path(data_dir) / "exports";
        if (std::filesystem::exists(exports, ec))
            for (const auto& entry : std::filesystem::directory_iterator(exports))
                files.push_back(entry.path().filename().string() + ":" + std::to_string(entry.file_size()));
        std::sort(files.begin(), files.end());
        std::string out;
        for (const auto& f : files) out += f + "\n";
        return out;
    }
    std::size_t exported_file_count() {
        std::error_code ec;
        const auto exports = std::filesystem::path(data_dir) / "exports";
        if (!std::filesystem::exists(exports, ec)) return 0;
        return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(exports), std::filesystem::directory_iterator()));
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

}  // namespace syndic::test::tenancy_fixture
