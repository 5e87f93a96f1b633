// The syndicates' settings in one home (decisions: "Settings home, references and migrations"):
// declarations from the manifests, defaults, checked writes, the modules reading through the API,
// and an old database keeping its quorum and water heater age through migration 011.
#include "fixture.hpp"

#include <SQLiteCpp/Database.h>

#include <filesystem>
#include <unistd.h>

#include "legacy_database.hpp"
#include "storage/settings.hpp"

// Its own namespace: a unity build compiles several test files as one unit (tests/meson.build).
namespace settings_test {

using namespace syndic;
using namespace syndic::test;

namespace {

const std::string now_utc = "2026-11-21T15:00:00.000Z";

// A database file as a syndic-mcp of schema version `version` (1..20) left it.
void make_database_at(const std::string& path, int version) {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    make_legacy_database(db, version);
}

}  // namespace

TEST_SUITE("settings") {

TEST_CASE("the declarations come from the manifests") {
    const auto* quorum = find_setting("requiredQuorumPercent");
    REQUIRE(quorum != nullptr);
    CHECK(quorum->module == "meetings");
    CHECK(quorum->type == "number");
    CHECK(quorum->default_json == "51");
    const auto* age = find_setting("waterHeaterReplacementYears");
    REQUIRE(age != nullptr);
    CHECK(age->module == "water-heaters");
    CHECK(age->minimum == 1);
    CHECK(age->maximum == 30);
    CHECK(find_setting("noSuchSetting") == nullptr);
}

TEST_CASE("get_setting gives the default until set; set_setting checks the declaration") {
    Fixture fx;
    CHECK(setting_int(*fx.db, fx.syndicate, "waterHeaterReplacementYears") == 10);
    CHECK_FALSE(setting_is_set(*fx.db, fx.syndicate, "waterHeaterReplacementYears"));
    set_setting(*fx.db, fx.syndicate, "waterHeaterReplacementYears", 12, now_utc);
    CHECK(setting_int(*fx.db, fx.syndicate, "waterHeaterReplacementYears") == 12);
    CHECK(setting_is_set(*fx.db, fx.syndicate, "waterHeaterReplacementYears"));
    CHECK(setting_int(*fx.db, fx.other_syndicate, "waterHeaterReplacementYears") == 10);
    set_setting(*fx.db, fx.syndicate, "requiredQuorumPercent", 66.666667, now_utc);
    CHECK(setting_number(*fx.db, fx.syndicate, "requiredQuorumPercent") == 66.666667);

    const auto before = fx.snapshot();
    for (const json& bad : {json(0), json(31), json(12.5), json("12"), json(true)}) {
        try {
            set_setting(*fx.db, fx.syndicate, "waterHeaterReplacementYears", bad, now_utc);
            FAIL("accepted " << bad.dump());
        } catch (const DomainError& e) {
            CHECK(e.code() == "VALIDATION_FAILED");
            CHECK(e.field() == "/waterHeaterReplacementYears");
        }
    }
    CHECK_THROWS_AS(set_setting(*fx.db, fx.syndicate, "requiredQuorumPercent", 0, now_utc), DomainError);
    CHECK_THROWS_AS(set_setting(*fx.db, fx.syndicate, "requiredQuorumPercent", 100.5, now_utc), DomainError);
    CHECK(fx.snapshot() == before);
    CHECK_THROWS_AS(get_setting(*fx.db, fx.syndicate, "noSuchSetting"), std::invalid_argument);
    CHECK_THROWS_AS(set_setting(*fx.db, fx.syndicate, "noSuchSetting", 1, now_utc), std::invalid_argument);
}

TEST_CASE("a setting's format is checked by set_setting itself, so the CLI cannot store what the tool refuses") {
    Fixture fx;
    const auto before = fx.snapshot();
    for (const auto& [name, bad] : {std::pair{"neq", "12"}, {"neq", "1171234567x"}, {"neq", "11712345678"},
                                    {"mailFrom", "ca.example.org"}, {"mailFrom", "ca@example"}, {"mailFrom", "c a@example.org"},
                                    {"mailFrom", "ca@@example.org"}, {"portalUrl", "portail.example.org"},
                                    {"portalUrl", "https://"}, {"portalUrl", "ftp://portail.example.org"}}) {
        CAPTURE(name);
        CAPTURE(bad);
        CHECK_THROWS_AS(set_setting(*fx.db, fx.syndicate, name, bad, now_utc), DomainError);
    }
    CHECK(fx.snapshot() == before);
    set_setting(*fx.db, fx.syndicate, "neq", "1171-234 567", now_utc);
    CHECK(get_setting(*fx.db, fx.syndicate, "neq") == "1171234567");
    set_setting(*fx.db, fx.syndicate, "mailFrom", "ca@erables.example.org", now_utc);
    set_setting(*fx.db, fx.syndicate, "portalUrl", "https://portail.example.org/erables", now_utc);
    CHECK(get_setting(*fx.db, fx.syndicate, "portalUrl") == "https://portail.example.org/erables");
    CHECK(find_setting("neq")->format == "neq");
    CHECK(find_setting("address")->format.empty());
}

TEST_CASE("the modules read their settings: the water heaters' default is the declared one") {
    Fixture fx;
    const auto w = fx.call("create_water_heater", {{"unitId", nullptr}, {"manufactureDate", "2016-01-10"}});
    CHECK(w["replacementAgeYears"] == setting_int(*fx.db, fx.syndicate, "waterHeaterReplacementYears"));
    CHECK(w["replaceBy"] == "2026-01-10");
    set_setting(*fx.db, fx.syndicate, "waterHeaterReplacementYears", 12, now_utc);
    CHECK(fx.call("list_water_heaters")["data"][0]["replaceBy"] == "2028-01-10");
}

TEST_CASE("core 007 and water-heaters 002 (schema version 11): an old database keeps its quorum and water heater replacement age") {
    const auto folder = std::filesystem::temp_directory_path() / ("syndic-settings-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    const auto path = (folder / "old.db").string();
    make_database_at(path, 10);
    {
        SQLite::Database old(path, SQLite::OPEN_READWRITE);
        old.exec("INSERT INTO syndicates (id, name, quorum_units, water_heater_replacement_years, created_at) VALUES "
                 "('s-set', 'A', 66666667, 12, '2026-01-01T00:00:00.000Z'), "
                 "('s-default', 'B', 51000000, 10, '2026-01-01T00:00:00.000Z')");
    }
    {
        auto db = Database::open(path);
        CHECK(db->schema_version() == Database::latest_schema_version());
        CHECK(setting_number(*db, "s-set", "requiredQuorumPercent") == 66.666667);
        CHECK(setting_int(*db, "s-set", "waterHeaterReplacementYears") == 12);
        CHECK(setting_number(*db, "s-default", "requiredQuorumPercent") == 51);
        CHECK(setting_int(*db, "s-default", "waterHeaterReplacementYears") == 10);
        // One home: the old columns are gone.
        SQLite::Statement columns(db->sql(), "SELECT count(*) FROM pragma_table_info('syndicates') "
                                             "WHERE name IN ('quorum_units', 'water_heater_replacement_years')");
        columns.executeStep();
        CHECK(columns.getColumn(0).getInt() == 0);
    }
    std::filesystem::remove_all(folder);
}

}  // TEST_SUITE

}  // namespace settings_test
