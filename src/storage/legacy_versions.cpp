#include "storage/legacy_versions.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace syndic {
namespace {

struct LegacyStep {
    int version;  // the old global number (the file NNN_name.sql)
    std::string_view module;
    int number;   // within the module
};

// In the order they were applied. Versions 11, 13 and 15 each changed two modules' tables and were
// split in two, version 2 three modules' and in three (docs/decisions.md, "Migrations numbered by
// module").
constexpr LegacyStep steps[] = {
    {1, "core", 1},           // 001_core
    {2, "meetings", 1},       // 002_meetings: meetings, attendance, resolutions...
    {2, "documents", 1},      // ...the documents (minutes)...
    {2, "core", 2},           // ...and the outbox
    {3, "core", 3},           // 003_oauth
    {4, "core", 4},           // 004_list_indexes
    {5, "core", 5},           // 005_audit_trail
    {6, "water-heaters", 1},  // 006_water_heaters
    {7, "insurance", 1},      // 007_insurance
    {8, "contractors", 1},    // 008_contractors
    {9, "core", 6},           // 009_signing_keys_out
    {10, "co-owners", 1},     // 010_co_owner_fractions
    {11, "core", 7},          // 011_settings: the settings table and the quorum...
    {11, "water-heaters", 2}, // ...and the water heaters' replacement age
    {12, "co-owners", 2},     // 012_search_pending
    {13, "documents", 2},     // 013_documents: the store of every file...
    {13, "meetings", 6},      // ...and the minutes' titles from their meetings
    {14, "core", 8},          // 014_events_delivery
    {15, "meetings", 2},      // 015_declaration: the resolutions' decision columns...
    {15, "declaration", 1},   // ...and the declaration's tables
    {16, "board", 1},         // 016_board
    {17, "meetings", 3},      // 017_meetings_roll
    {18, "meetings", 4},      // 018_written_resolutions
    {19, "documents", 3},     // 019_document_kind_budget
    {20, "meetings", 5},      // 020_notice_package
};

}  // namespace

std::vector<MigrationKey> legacy_migrations(int version) {
    if (version < 0 || version > last_legacy_version)
        throw std::out_of_range("no schema version " + std::to_string(version) + " was numbered globally");
    std::vector<MigrationKey> keys;
    for (const auto& step : steps)
        if (step.version <= version) keys.push_back({std::string(step.module), step.number});
    return keys;
}

}  // namespace syndic
