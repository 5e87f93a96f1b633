#include "events/tick.hpp"

#include <nlohmann/json.hpp>

#include <SQLiteCpp/Statement.h>

#include <stdexcept>
#include <vector>

#include "core/context.hpp"
#include "core/embedded.hpp"
#include "events/event_log.hpp"
#include "events/event_types.hpp"
#include "storage/database.hpp"

namespace syndic {
namespace {

using nlohmann::json;

struct TickRule {
    std::string type;         // water_heater.overdue
    std::string tool;         // list_water_heaters
    json arguments;           // {"status": "overdue"}
    std::string record_type;  // water-heater
    std::string state_field;  // replaceBy
};

const std::vector<TickRule>& tick_rules() {
    static const std::vector<TickRule> rules = [] {
        for (const auto& file : embedded_schemas()) {
            if (file.name != "events.json") continue;
            std::vector<TickRule> out;
            const auto doc = json::parse(file.content);
            for (const auto& [type, rule] : doc.at("tick").items()) {
                if (type == "about") continue;
                if (!is_derived_event(type))
                    throw std::logic_error("schemas/events.json: tick." + type + " is not a derived event");
                out.push_back({type, rule.at("tool").get<std::string>(), rule.at("arguments"),
                               rule.at("recordType").get<std::string>(), rule.at("state").get<std::string>()});
            }
            return out;
        }
        throw std::logic_error("schemas/events.json is not embedded");
    }();
    return rules;
}

const AuditActor tick_actor{"system", "syndic-mcp", ""};

struct Found {
    const TickRule* rule;
    json record;
};

// Every record of the syndicate in a rule's state, read page by page through its tool.
void read_records(const ToolReader& read, Database& db, const Clock& clock, const CallerContext& caller,
                  const TickRule& rule, std::vector<Found>& out) {
    for (int page = 1;; ++page) {
        json args = rule.arguments;
        args["page"] = page;
        args["pageSize"] = 200;
        const auto result = read(rule.tool, args, caller, db, clock);
        for (const auto& record : result.at("data")) out.push_back({&rule, record});
        if (static_cast<std::int64_t>(page) * 200 >= result.at("pagination").at("total").get<std::int64_t>()) break;
    }
}

std::string state_of(const json& record, const std::string& field) {
    const auto& v = record.at(field);
    return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

std::string tick_day(Instant now) { return montreal_date(now - std::chrono::hours(2)); }

TickRun run_tick(Database& db, const Clock& clock, const ToolReader& read) {
    TickRun run;
    for (const auto& rule : tick_rules()) run.emitted[rule.type] = 0;
    std::vector<std::string> syndicates;
    {
        auto q = db.prepare("SELECT id FROM syndicates ORDER BY id");
        while (q->executeStep()) syndicates.push_back(q->getColumn(0).getString());
    }
    for (const auto& syndicate : syndicates) {
        ++run.syndicates;
        const CallerContext caller{syndicate, "system:tick", {"*"}, Role::admin};
        std::vector<Found> found;
        for (const auto& rule : tick_rules()) read_records(read, db, clock, caller, rule, found);
        if (found.empty()) continue;
        const auto now = to_utc_iso(clock.now());
        const AuditContext context{syndicate, tick_actor, "tick", now};
        WriteTransaction tx(db);
        for (const auto& [rule, record] : found) {
            const auto id = record.at("id").get<std::string>();
            auto mark = db.prepare(
                "INSERT INTO derived_event_marks (syndicate_id, type, record_id, state, emitted_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
            mark->bind(1, syndicate);
            mark->bind(2, rule->type);
            mark->bind(3, id);
            mark->bind(4, state_of(record, rule->state_field));
            mark->bind(5, now);
            if (mark->exec() == 0) continue;  // already told for this state
            append_event(db, context, syndicate, rule->type, rule->record_type, id, record.dump());
            ++run.emitted[rule->type];
        }
        tx.commit();
    }
    return run;
}

}  // namespace syndic
