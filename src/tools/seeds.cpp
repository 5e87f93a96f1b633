#include "tools/seeds.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/embedded.hpp"
#include "core/error.hpp"
#include "delivery/webhook_address.hpp"
#include "storage/migration_catalogue.hpp"
#include "storage/migration_order.hpp"

namespace syndic {

using nlohmann::json;

// Its own name: a unity build compiles this file with others (tools/unity_unit.py).
namespace seed_calls {

constexpr std::string_view seed_file_name = "/seed.json";

// The seed files, by module.
std::map<std::string, json> seed_files() {
    std::map<std::string, json> out;
    for (const auto& file : embedded_schemas()) {
        if (!is_seed_file(file.name)) continue;
        const std::string module(file.name.substr(0, file.name.size() - seed_file_name.size()));
        auto doc = json::parse(file.content);
        if (!doc.is_object()) throw std::runtime_error("schemas/" + std::string(file.name) + ": a seed file is an object of sections");
        out.emplace(module, std::move(doc));
    }
    return out;
}

// "@date-330" -> {"date", -330}; nothing when the text is not a clock expression.
std::optional<std::pair<std::string, int>> clock_expression(std::string_view text) {
    for (const std::string_view kind : {"date", "instant", "year"}) {
        if (text.size() < kind.size() + 3 || text.substr(1, kind.size()) != kind) continue;
        const auto rest = text.substr(kind.size() + 1);
        if (rest[0] != '+' && rest[0] != '-') continue;
        int days = 0;
        const auto [end, error] = std::from_chars(rest.data() + 1, rest.data() + rest.size(), days);
        if (error != std::errc() || end != rest.data() + rest.size()) continue;
        return std::pair{std::string(kind), rest[0] == '-' ? -days : days};
    }
    return std::nullopt;
}

// A clock expression's value: demo dates count from today, so the demo never ages.
std::optional<std::string> clock_value(std::string_view text, const Clock& clock) {
    const auto expression = clock_expression(text);
    if (!expression) return std::nullopt;
    const auto [kind, days] = *expression;
    // A day counts on Montreal's calendar: 24-hour steps across a change of time would land late
    // in the evening on the next day.
    if (kind == "date") return add_calendar_days(montreal_date(clock.now()), days);
    const auto at = clock.now() + std::chrono::hours(24) * days;
    const auto on_the_hour = std::chrono::floor<std::chrono::hours>(at);
    if (kind == "instant") return to_utc_iso(on_the_hour);
    return std::to_string(montreal_local(on_the_hour).year);
}

struct Context {
    const std::map<std::string, std::string>& names;
    const Clock& clock;
    const json* each = nullptr;  // the listed record an "each" call is made for
};

// "@each/field": a field of the record an "each" call is made for, as it is (a number stays one).
std::optional<json> each_field(const std::string& token, const Context& at) {
    if (token.rfind("@each/", 0) != 0) return std::nullopt;
    if (!at.each) throw std::runtime_error(token + " outside a call with \"each\"");
    const auto field = token.substr(6);
    if (!at.each->contains(field)) throw std::runtime_error(token + ": the listed record has no field " + field);
    return (*at.each)[field];
}

// What a token starting with '@' stands for: "@each", a name made before, or the clock.
std::string token_value(const std::string& token, const Context& at) {
    if (token == "@each") {
        if (!at.each) throw std::runtime_error("@each outside a call with \"each\"");
        return at.each->at("id").get<std::string>();
    }
    if (const auto field = each_field(token, at)) return field->is_string() ? field->get<std::string>() : field->dump();
    if (const auto it = at.names.find(token); it != at.names.end()) return it->second;
    if (auto value = clock_value(token, at.clock)) return *value;
    throw std::runtime_error(token + " names no record made before (seeds run in the modules' dependsOn order)");
}

std::string resolved_text(const std::string& text, const Context& at) {
    if (!text.empty() && text[0] == '@') return token_value(text, at);
    std::string out = text;
    for (auto open = out.find("{@"); open != std::string::npos; open = out.find("{@", open)) {
        const auto close = out.find('}', open);
        if (close == std::string::npos) throw std::runtime_error("'{@' without its '}' in \"" + text + "\"");
        const auto value = token_value(out.substr(open + 1, close - open - 1), at);
        out.replace(open, close - open + 1, value);
        open += value.size();
    }
    return out;
}

json resolved(const json& value, const Context& at) {
    if (value.is_string()) {
        // A whole "@year±N" is a number (a fiscal year); inside a text ("{@year+0}-01-01"), text.
        const auto& text = value.get<std::string>();
        if (const auto e = clock_expression(text); e && e->first == "year") return std::stoi(resolved_text(text, at));
        if (auto field = each_field(text, at)) return std::move(*field);
        return resolved_text(text, at);
    }
    if (!value.is_structured()) return value;
    json out = value;
    for (auto& item : out) item = resolved(item, at);
    return out;
}

const std::set<std::string> call_keys = {"tool", "args", "name", "idAt", "state", "each", "at"};

json call_tool(const ToolRegistry& registry, Database& db, const Clock& clock, const CallerContext& caller,
               const std::string& tool, const json& args) {
    try {
        return registry.call(tool, args, caller, db, clock);
    } catch (const DomainError& e) {
        throw std::runtime_error(tool + " refused with " + e.code() + ": " + e.detail() + " (arguments " + args.dump() + ")");
    }
}

// The records a call answers in its list at "list" (a JSON pointer, default "/data") whose fields
// equal those of `where` (or are within a bound: "dueOn<=", "number>=").
std::vector<json> listed_records(const ToolRegistry& registry, Database& db, const Context& at, const CallerContext& caller,
                                 const json& each) {
    for (const auto& [key, value] : each.items())
        if (key != "tool" && key != "args" && key != "where" && key != "list")
            throw std::runtime_error("unknown key \"" + key + "\" in an \"each\"");
    const auto answer = call_tool(registry, db, at.clock, caller, each.at("tool").get<std::string>(),
                                  resolved(each.value("args", json::object()), at));
    const auto where = resolved(each.value("where", json::object()), at);
    std::vector<json> out;
    for (const auto& record : answer.at(json::json_pointer(each.value("list", "/data")))) {
        const bool matches = std::all_of(where.items().begin(), where.items().end(), [&](const auto& field) {
            // "dueOn<=": a bound (days compare as text); "number>=": a bound; else equal.
            const auto& key = field.key();
            const auto bound = key.size() > 2 && (key.ends_with("<=") || key.ends_with(">=")) ? key.substr(key.size() - 2) : "";
            const auto name = key.substr(0, key.size() - bound.size());
            if (!record.contains(name)) return false;
            if (bound == "<=") return record[name] <= field.value();
            if (bound == ">=") return record[name] >= field.value();
            return record[name] == field.value();
        });
        if (matches) out.push_back(record);
    }
    return out;
}

// One call of a section (or one per listed record, with "each"); what it names, when it names.
std::optional<SeededRecord> run_call(const ToolRegistry& registry, Database& db, const Clock& clock,
                                     const CallerContext& caller, const json& call,
                                     std::map<std::string, std::string>& names) {
    if (!call.is_object() || !call.contains("tool") || !call["tool"].is_string())
        throw std::runtime_error("a call is an object with a \"tool\"");
    for (const auto& [key, value] : call.items())
        if (!call_keys.count(key)) throw std::runtime_error("unknown key \"" + key + "\" in a call");
    const auto tool = call["tool"].get<std::string>();
    // "at": the call is made with the clock at that instant (a meeting held on its day, its votes).
    std::optional<FixedClock> moved;
    if (call.contains("at")) {
        const auto when = parse_iso_instant(resolved_text(call["at"].get<std::string>(), Context{names, clock}));
        if (!when) throw std::runtime_error("\"at\" is not an ISO 8601 instant with an offset");
        moved.emplace(*when);
    }
    const Clock& call_clock = moved ? static_cast<const Clock&>(*moved) : clock;
    const Context at{names, call_clock};
    if (call.contains("each")) {
        if (call.contains("name")) throw std::runtime_error("a call with \"each\" names nothing");
        for (const auto& record : listed_records(registry, db, at, caller, call["each"])) {
            const Context for_one{names, call_clock, &record};
            call_tool(registry, db, call_clock, caller, tool, resolved(call.value("args", json::object()), for_one));
        }
        return std::nullopt;
    }
    const auto result = call_tool(registry, db, call_clock, caller, tool, resolved(call.value("args", json::object()), at));
    if (!call.contains("name")) return std::nullopt;
    const auto name = call["name"].get<std::string>();
    if (name.size() < 2 || name[0] != '@' || clock_expression(name) || name.rfind("@each", 0) == 0)
        throw std::runtime_error("a name is '@' and a word, not a clock expression: " + name);
    const auto id = result.at(json::json_pointer(call.value("idAt", "/id"))).get<std::string>();
    if (!names.emplace(name, id).second) throw std::runtime_error(name + " is named twice");
    return SeededRecord{"", name, id, call.value("state", "")};
}

}  // namespace seed_calls

bool is_seed_file(std::string_view path) {
    const auto slash = path.find('/');
    return slash != std::string_view::npos && path.substr(slash) == seed_calls::seed_file_name;
}

std::vector<std::string> seeded_modules() {
    const auto files = seed_calls::seed_files();
    std::vector<std::string> out;
    for (const auto& module : module_order(embedded_module_graph()))
        if (files.count(module)) out.push_back(module);
    if (out.size() != files.size())
        throw std::runtime_error("a seed file (schemas/<module>/seed.json) belongs to no module with a manifest");
    return out;
}

std::vector<SeededRecord> run_seeds(const ToolRegistry& registry, Database& db, const Clock& clock,
                                    const CallerContext& caller, std::string_view section,
                                    std::map<std::string, std::string>& names) {
    const auto files = seed_calls::seed_files();
    std::vector<SeededRecord> made;
    // The administration seed saves a paused webhook to 127.0.0.1 (the demo's receiver).
    const LoopbackWebhooksWhileSeeding loopback;
    for (const auto& module : seeded_modules()) {
        const auto& doc = files.at(module);
        const auto calls = doc.find(std::string(section));
        if (calls == doc.end()) continue;
        if (!calls->is_array()) throw std::runtime_error("schemas/" + module + "/seed.json: " + std::string(section) + " is not a list of calls");
        for (std::size_t i = 0; i < calls->size(); ++i) {
            try {
                if (auto record = seed_calls::run_call(registry, db, clock, caller, calls->at(i), names)) {
                    record->module = module;
                    made.push_back(std::move(*record));
                }
            } catch (const std::exception& e) {
                throw std::runtime_error("schemas/" + module + "/seed.json, " + std::string(section) + "[" +
                                         std::to_string(i) + "]: " + e.what());
            }
        }
    }
    return made;
}

}  // namespace syndic
