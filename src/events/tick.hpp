// The daily tick (catalogue section 6, "Derived events"): the events of a state reached by the
// passing of time, not by a call (a water heater overdue, a policy expiring), each at most once
// per record and state. How each is found is declared in schemas/events.json ("tick"): a read tool
// of its module and the field that is the state; the records are read through that tool, so an
// event's data is the record as the tool shows it. `syndic-mcp tick` runs it; the HTTP bridge runs
// it at start and every day at 02:00 in Montreal. The tools are called through a reader the caller
// hands in (app/ builds it from a registry of every module): the tick knows no registry.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <map>
#include <string>

#include "core/clock.hpp"
#include "core/context.hpp"

namespace syndic {

class Database;

// One call of a read tool: its result for `arguments`, called as `caller` on `db` at `clock`
// (a page of records: {"data": [...], "pagination": {"total": ...}}).
using ToolReader = std::function<nlohmann::json(const std::string& tool, const nlohmann::json& arguments,
                                                const CallerContext& caller, Database& db, const Clock& clock)>;

struct TickRun {
    int syndicates = 0;
    std::map<std::string, int> emitted;  // event type → events written by this run
    int total() const {
        int n = 0;
        for (const auto& [type, count] : emitted) n += count;
        return n;
    }
};

// One tick over every syndicate of `db` on the Montreal day of `clock.now()`. `read` must answer
// for the tools the tick's rules read (those of schemas/events.json "tick"). Each syndicate's events
// are written in one transaction with their marks and their webhook deliveries.
TickRun run_tick(Database& db, const Clock& clock, const ToolReader& read);

// The day whose tick is due at `now`: the Montreal date, counted from 02:00 (at 01:59 it is still
// the day before's). A process runs the tick when this day changes.
std::string tick_day(Instant now);

}  // namespace syndic
