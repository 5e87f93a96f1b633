// What the logbook's tools share: the components as a record table (their replacement year and
// remaining life computed against today), and the shown forms of a schedule and of a maintenance
// record. Included only by the logbook's sources.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "modules/logbook/open_projects.hpp"
#include "modules/record_table.hpp"

namespace syndic::logbook {

// The inventory's table: replacementYear is the year set by hand or by the latest inspection
// (replacement_year), else installedYear + expectedLifeYears; remainingLifeYears is it less this year.
const RecordTable& components();

// SQL over the row `r` of logbook_components, with ?99 today.
#define SYNDIC_REPLACEMENT_YEAR "coalesce(r.replacement_year, r.installed_year + r.expected_life_years)"
#define SYNDIC_THIS_YEAR "CAST(substr(" SYNDIC_TODAY ", 1, 4) AS INTEGER)"

// The component's record (active), or COMPONENT_NOT_FOUND at `field`.
nlohmann::json require_component(const ToolCall& call, const std::string& id, const std::string& field);

// This year, in Montreal, by the call's clock.
int this_year(const ToolCall& call);

// A schedule as the tools show it: its status against today and `horizon_days` (due within it).
nlohmann::json schedule_json(Database& db, const std::string& id, const std::string& today, int horizon_days = 60);
// The columns schedule_row reads, from maintenance_schedules `s` joined to logbook_components `c`.
extern const char* const schedule_columns;
nlohmann::json schedule_row(SQLite::Statement& q, const std::string& today, int horizon_days);

// A maintenance record as the tools show it.
nlohmann::json maintenance_json(Database& db, const std::string& id);
extern const char* const maintenance_columns;  // from maintenance_records `m` joined to logbook_components `c`
nlohmann::json maintenance_row(SQLite::Statement& q);

// The 25-year plan of major works (get_major_works_plan's answer) from `from_year`, `years` long, at
// `inflation_percent` a year; the open projects at what the contingency fund has still to pay.
nlohmann::json major_works_plan(const ToolCall& call, int from_year, int years, double inflation_percent, const OpenProjects& open);

// A revision as the tools show it, from revision_columns of logbook_revisions.
extern const char* const revision_columns;
nlohmann::json revision_json(SQLite::Statement& q);

// The logbook's status (get_logbook's answer) on the call's today.
nlohmann::json logbook_status(const ToolCall& call);

}  // namespace syndic::logbook
