// A syndicate's records made from the modules' seed files (schemas/<module>/seed.json, embedded
// with the schemas): the demo syndicate (`syndic-mcp demo`), and syndicates A and B of the tenancy
// sweep and of the fuzz world, all through this one function, so a new module adds its records
// in its own folder and nowhere else (docs/decisions.md, "Seeds and x-references").
//
// A seed file is an object of sections ("demo", "a", "b"), each an ordered list of tool calls:
//   {"tool": "create_unit", "args": {...}, "name": "@u0", "state": "parking"}
//   {"tool": "generate_minutes", "args": {"meetingId": "@m3"}, "name": "@d0", "idAt": "/documentId"}
//   {"tool": "update_outbox_message", "args": {"id": "@each", "status": "sent"},
//    "each": {"tool": "list_outbox_messages", "args": {"status": "queued"}, "where": {...}}}
// "name" keeps the id the result holds at "idAt" (default "/id") for later calls; "state" says in
// which state the seed leaves that record, so a test may take one record of each state; "each"
// makes the call once per record a list tool answers (its "data") whose fields equal "where" (a
// key ending in "<=" or ">=" bounds the field instead: {"dueOn<=": "@date+0"}),
// "@each" standing for that record's id and "@each/field" for one of its fields (a number stays a
// number); the list is the answer's "data", or the array at "list" (a JSON pointer:
//   "each": {"tool": "get_owner_statement", "args": {...}, "list": "/openCharges"});
// "at" makes the call with the clock at that instant (an
// ISO 8601 instant or a clock expression: a meeting is held on its day, after its notice; a
// written resolution's signatures are dated from its recording). In "args", a string equal to a
// name is replaced by its id, and the clock's expressions by their value, counted from the call's
// clock ("at" moves it: "@date+0" is then that day): "@date-330" (the Montreal day 330 days before
// today), "@instant+30" (30 days from now, on the hour, UTC), "@year+30" (that instant's Montreal
// year); "{@...}" inside a longer string is replaced the same way.
//
// The modules' sections run in the modules' dependsOn order (as their migrations do: a module's
// after those it depends on), so a call may name the records of any module placed before it.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.hpp"
#include "core/context.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"

namespace syndic {

// A record a seed named: its module, its name ("@m2"), its id and the state the seed leaves it in
// ("" when the seed says none).
struct SeededRecord {
    std::string module;
    std::string name;
    std::string id;
    std::string state;
};

// Runs `section` of every module's seed file as `caller`. `names` holds the names already made
// (a section may name another syndicate's records only to be refused) and receives the new ones.
// Throws std::runtime_error naming the module, the call and why when a call is refused, names an
// unknown record, or the file is not well formed; the calls made before it stay made (the caller
// holds the transaction).
std::vector<SeededRecord> run_seeds(const ToolRegistry& registry, Database& db, const Clock& clock,
                                    const CallerContext& caller, std::string_view section,
                                    std::map<std::string, std::string>& names);

// The modules with a seed file, in the order their sections run.
std::vector<std::string> seeded_modules();

// Whether an embedded schema path is a module's seed file ("units/seed.json").
bool is_seed_file(std::string_view path);

namespace seed_calls {
// A clock expression's value on `clock` ("@date-330", "@instant+30", "@year+30"), or nothing when
// `text` is none: days on Montreal's calendar, so a demo date never slips a day across a change of time.
std::optional<std::string> clock_value(std::string_view text, const Clock& clock);
}  // namespace seed_calls

}  // namespace syndic
