#include "modules/water_heaters/water_heaters.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/error.hpp"
#include "modules/record_table.hpp"
#include "modules/units/units.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace {

// The syndicate's replacement age: its setting waterHeaterReplacementYears (storage/settings), else
// the default the module's manifest declares (a test holds the two equal).
#define REPLACEMENT_YEARS "coalesce(CAST(s.value AS INTEGER), " SYNDIC_DEFAULT_REPLACEMENT_YEARS ")"
#define SYNDIC_DEFAULT_REPLACEMENT_YEARS "10"
// replaceBy: the manufacture date, else the installation date, plus the syndicate's age.
#define REPLACE_BY \
    "date(coalesce(r.manufacture_date, r.install_date), '+' || " REPLACEMENT_YEARS " || ' years')"
#define STATUS                                                                                            \
    "CASE WHEN " REPLACE_BY " IS NULL THEN 'unknown' WHEN " REPLACE_BY " < " SYNDIC_TODAY " THEN 'overdue' " \
    "WHEN " REPLACE_BY " <= date(" SYNDIC_TODAY ", '+180 days') THEN 'due-soon' ELSE 'ok' END"

using enum FieldType;
const RecordTable water_heaters{
    "water_heaters",
    {{"unitId", "unit_id", reference},
     {"unitNumber", "(SELECT number FROM units u WHERE u.id = r.unit_id)", text, FieldRole::computed},
     {"brand", "brand", text},
     {"model", "model", text},
     {"serialNumber", "serial_number", text},
     {"capacityLitres", "capacity_litres", number},
     {"manufactureDate", "manufacture_date", date},
     {"installDate", "install_date", date},
     {"hasDrainPan", "has_drain_pan", boolean},
     {"hasLeakDetector", "has_leak_detector", boolean},
     {"hasAutoShutoff", "has_auto_shutoff", boolean},
     {"replacementProofDocumentId", "replacement_proof_document_id", reference},
     {"notes", "notes", text},
     {"replacementAgeYears", REPLACEMENT_YEARS, integer, FieldRole::computed},
     {"replaceBy", REPLACE_BY, date, FieldRole::computed},
     {"status", STATUS, text, FieldRole::computed}},
    " LEFT JOIN settings s ON s.syndicate_id = r.syndicate_id AND s.name = 'waterHeaterReplacementYears'",
};

std::string date_of(const json& record, const char* key) {
    return record.value(key, json()).is_string() ? record[key].get<std::string>() : std::string();
}

// The rules a water heater obeys once `values` are applied to `record` (empty for a creation).
void check_water_heater(const ToolCall& call, const json& record, json& values) {
    const auto& syndicate = call.caller.syndicate_id;
    if (values.contains("unitId") && values["unitId"].is_string())
        require_record_exists(call.db, syndicate, "units", values["unitId"], "/unitId", RecordState::active);
    if (values.contains("replacementProofDocumentId") && values["replacementProofDocumentId"].is_string()) {
        require_record_exists(call.db, syndicate, "documents", values["replacementProofDocumentId"],
                              "/replacementProofDocumentId");
    }
    const auto after = merged(record, values);
    const auto made = date_of(after, "manufactureDate"), installed = date_of(after, "installDate");
    const auto day = today(call);
    const auto refuse = [&](const char* field, const std::string& detail) {
        return DomainError(codes::invalid_date_range, detail).at(std::string("/") + field).with("today", day);
    };
    if (!made.empty() && made > day)
        throw refuse("manufactureDate", "The manufacture date " + made + " is in the future.");
    if (!installed.empty() && installed > day)
        throw refuse("installDate", "The installation date " + installed + " is in the future.");
    if (!made.empty() && !installed.empty() && installed < made)
        throw refuse(values.contains("installDate") ? "installDate" : "manufactureDate",
                     "The installation date " + installed + " is before the manufacture date " + made + ".")
            .with("manufactureDate", made)
            .with("installDate", installed);
}

json list_water_heaters(const ToolCall& call) {
    const auto a = call.arguments();
    return list_records(call, water_heaters,
                        "(?2 IS NULL OR r.unit_id = ?2) AND (?3 IS NULL OR " STATUS " = ?3) AND "
                        "(?4 IS NULL OR (r.unit_id IS NULL) = ?4)",
                        REPLACE_BY " IS NULL, " REPLACE_BY ", (SELECT number FROM units u WHERE u.id = r.unit_id), r.id",
                        [&](SQLite::Statement& q) {
                            if (a.has("unitId")) q.bind(2, a.text("unitId"));
                            if (a.has("status")) q.bind(3, a.text("status"));
                            if (a.has("commonPortions")) q.bind(4, a.flag("commonPortions", false) ? 1 : 0);
                        });
}

json create_water_heater(const ToolCall& call) { return create_from_arguments(call, water_heaters, check_water_heater); }

json update_water_heater(const ToolCall& call) { return update_from_arguments(call, water_heaters, check_water_heater); }

json delete_water_heater(const ToolCall& call) { return archive_record(call, water_heaters, call.arguments().text("id")); }

}  // namespace

void register_water_heaters_module(ToolTable& table) {
    table.bind("list_water_heaters", list_water_heaters);
    table.bind("create_water_heater", create_water_heater);
    table.bind("update_water_heater", update_water_heater);
    table.bind("delete_water_heater", delete_water_heater);
}

}  // namespace syndic

// This file's SQL fragments end with it (a unity build compiles several files as one).
#undef REPLACEMENT_YEARS
#undef SYNDIC_DEFAULT_REPLACEMENT_YEARS
#undef REPLACE_BY
#undef STATUS
