// The syndicate's operational settings (catalogue section 4.2: get_settings, update_settings):
// its name (the syndicates row) and every setting the modules declare in their manifests
// (storage/settings), except those another tool owns ("shownBy": the quorum is the declaration's,
// get_declaration). A setting never set shows its default and is named in `defaults`.
#include "modules/administration/administration.hpp"

#include <nlohmann/json.hpp>

#include <string>

#include "auth/credentials.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic {
namespace {

using nlohmann::json;

bool shown_here(const SettingDeclaration& d) { return d.shown_by.empty(); }

// The last change of a record in the audit trail ("" if none): a setting's changes are kept there
// even once cleared (its row gone).
std::string last_change(Database& db, const std::string& syndicate, const char* record_type, const std::string& record_id) {
    auto q = db.prepare(
        "SELECT max(occurred_at) FROM audit_events WHERE syndicate_id = ? AND record_id = ? AND record_type = ?");
    bind_parameters(*q, syndicate, record_id, record_type);
    q->executeStep();
    return q->getColumn(0).isNull() ? "" : q->getColumn(0).getString();
}

// The settings as the tools show them, with the last change of any of them (the syndicate's name
// included), from the audit trail.
json settings_json(Database& db, const std::string& syndicate) {
    std::string updated = last_change(db, syndicate, "syndicate", syndicate);
    json out = {{"syndicateName", syndicate_name(db, syndicate)}};
    json defaults = json::array();
    for (const auto& d : setting_declarations()) {
        if (!shown_here(d)) continue;
        out[d.name] = get_setting(db, syndicate, d.name);
        if (!setting_is_set(db, syndicate, d.name)) defaults.push_back(d.name);
        if (const auto at = last_change(db, syndicate, "setting", syndicate + "/" + d.name); at > updated) updated = at;
    }
    out["defaults"] = std::move(defaults);
    const auto instant = parse_iso_instant(updated);
    out["updatedAt"] = instant ? json(to_montreal_iso(*instant)) : json(nullptr);
    return out;
}

json get_settings(const ToolCall& call) { return settings_json(call.db, call.caller.syndicate_id); }

json update_settings(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto before = settings_json(call.db, syndicate);
    const auto now = to_utc_iso(call.clock.now());
    const auto args = call.arguments();
    for (const auto& [name, given] : args.values().items()) {
        if (name == "syndicateName") {
            auto q = call.db.prepare("UPDATE syndicates SET name = ?1 WHERE id = ?2 AND name <> ?1");
            bind_parameters(*q, nonblank_text(given, "/syndicateName"), syndicate);
            q->exec();
            continue;
        }
        const auto* d = find_setting(name);
        if (!d || !shown_here(*d))
            throw invalid_argument("/" + name, "is not a setting", name + " is not one of the settings get_settings shows.");
        json value = given;
        if (value.is_string() && d->allowed.empty()) value = nonblank_text(value, "/" + name);
        set_setting(call.db, syndicate, name, value, now);
    }
    auto after = settings_json(call.db, syndicate);
    json compared = after, previous = before;
    compared.erase("updatedAt");
    previous.erase("updatedAt");
    if (compared != previous) {
        // The audit trail records this change after the handler returns: the change is now.
        after["updatedAt"] = to_montreal_iso(call.clock.now());
        call.name_event("settings.updated", "settings", syndicate);
    }
    return after;
}

}  // namespace

void register_settings_tools(ToolTable& table) {
    table.bind("get_settings", get_settings);
    table.bind("update_settings", update_settings);
}

}  // namespace syndic
