#include "app/settings_commands.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <stdexcept>

#include "app/cli_audit.hpp"
#include "core/error.hpp"
#include "core/fraction.hpp"
#include "storage/settings.hpp"

namespace syndic::cli {

using nlohmann::json;

namespace {

constexpr const char* quorum_setting = "requiredQuorumPercent";
constexpr const char* heater_age_setting = "waterHeaterReplacementYears";

// A value as typed on the command line: the text itself for a string setting, else JSON (10,
// 66.5, true); "" or null clears a setting that may be null (mailFrom...).
json typed_value(const SettingDeclaration& d, const std::string& text) {
    if (d.nullable && (text.empty() || text == "null")) return nullptr;
    if (d.type == "string") return text;
    const auto parsed = json::parse(text, nullptr, false);
    return parsed.is_discarded() ? json(text) : parsed;
}

std::string shown(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

json described(Database& db, const std::string& syndicate, const SettingDeclaration& d) {
    json out = {{"name", d.name},
                {"module", d.module},
                {"value", get_setting(db, syndicate, d.name)},
                {"default", json::parse(d.default_json)},
                {"isSet", setting_is_set(db, syndicate, d.name)},
                {"type", d.type},
                {"description", d.description}};
    for (const auto& [key, bound] : {std::pair{"minimum", d.minimum}, {"maximum", d.maximum},
                                     {"exclusiveMinimum", d.exclusive_minimum}, {"exclusiveMaximum", d.exclusive_maximum}})
        if (bound) out[key] = *bound == std::floor(*bound) ? json(static_cast<std::int64_t>(*bound)) : json(*bound);
    if (!d.allowed.empty()) out["enum"] = d.allowed;
    if (d.nullable) out["nullable"] = true;
    if (!d.format.empty()) out["format"] = d.format;
    return out;
}

// Sets one setting of `syndicate` from the command `command`, with its audit event; false (a
// message on stderr, nothing changed) when the value does not fit its declaration.
bool set_from_command_line(Database& db, const Clock& clock, const std::string& syndicate, const std::string& command,
                           const std::string& name, const json& value) {
    CommandAudit audit(db, command);
    try {
        set_setting(db, syndicate, name, value, to_utc_iso(clock.now()));
    } catch (const DomainError& e) {
        std::cerr << "syndic-mcp: " << e.detail() << " Nothing was changed.\n";
        return false;
    }
    audit.commit(clock);
    return true;
}

void list_settings(Database& db, const std::string& syndicate, bool as_json) {
    json all = json::array();
    for (const auto& d : setting_declarations()) all.push_back(described(db, syndicate, d));
    if (as_json) {
        std::cout << all.dump(2) << "\n";
        return;
    }
    const auto pad = [](const std::string& text, std::size_t width) {
        return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
    };
    for (const auto& s : all)
        std::cout << pad(s["name"].get<std::string>(), 30) << pad(shown(s["value"]), 10)
                  << pad("(default " + shown(s["default"]) + ")", 16) << pad(s["module"].get<std::string>(), 16)
                  << s["description"].get<std::string>() << "\n";
}

}  // namespace

void SettingsCommand::add_to(CLI::App& app) {
    command = app.add_subcommand(
        "settings", "List the syndicate's settings with their defaults, show one (NAME) or set one (NAME VALUE)");
    command->add_option("--syndicate", syndicate, "syndicate id (default: the only one)");
    command->add_option("name", name, "a setting's name, e.g. waterHeaterReplacementYears (see the list)");
    command->add_option("value", value, "its new value, checked against its declaration (type, minimum, maximum, values); '' clears one that may be null");
    command->add_flag("--json", as_json, "print the setting(s) as JSON: name, module, value, default, isSet, type, bounds");
}

int SettingsCommand::run(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    const auto chosen = pick_syndicate(*db, syndicate);
    if (name.empty()) {
        list_settings(*db, chosen, as_json);
        return 0;
    }
    const auto* d = find_setting(name);
    if (!d) {
        std::string known;
        for (const auto& s : setting_declarations()) known += " " + s.name;
        throw std::runtime_error("no setting named " + name + "; the settings are:" + known);
    }
    const bool setting = command->count("value") > 0;
    if (setting && !set_from_command_line(*db, clock, chosen, "settings", d->name, typed_value(*d, value))) return 1;
    if (as_json) std::cout << described(*db, chosen, *d).dump() << "\n";
    else std::cout << shown(get_setting(*db, chosen, d->name)) << "\n";
    if (setting) std::cerr << "Set " << d->name << " of syndicate " << chosen << ".\n";
    return 0;
}

void QuorumCommand::add_to(CLI::App& app) {
    command = app.add_subcommand(
        "quorum", "Show the syndicate's required quorum, or set it (51 unless its declaration of co-ownership says otherwise)");
    command->add_option("--syndicate", syndicate, "syndicate id (default: the only one)");
    command->add_option("percent", percent, "the new quorum, in percent of the fractions (more than 0, at most 100)")
        ->check(CLI::Range(0.000001, 100.0));
}

int QuorumCommand::run(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    const auto chosen = pick_syndicate(*db, syndicate);
    // Kept as the exact decimal a fraction holds (millionths of a percent).
    if (percent && !set_from_command_line(*db, clock, chosen, "quorum", quorum_setting,
                                          json::parse(Fraction::from_percent(*percent).to_string())))
        return 1;
    std::cout << Fraction::from_percent(setting_number(*db, chosen, quorum_setting)).to_string() << "\n";
    if (percent) std::cerr << "Set the required quorum of syndicate " << chosen << ".\n";
    return 0;
}

void WaterHeaterAgeCommand::add_to(CLI::App& app) {
    command = app.add_subcommand(
        "water-heater-age",
        "Show the age in years at which the syndicate's water heaters are to be replaced, or set it (10 unless its insurer allows more)");
    command->add_option("--syndicate", syndicate, "syndicate id (default: the only one)");
    command->add_option("years", years, "the new replacement age, counted from the manufacture date (1 to 30)")
        ->check(CLI::Range(1, 30));
}

int WaterHeaterAgeCommand::run(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    const auto chosen = pick_syndicate(*db, syndicate);
    if (years && !set_from_command_line(*db, clock, chosen, "water-heater-age", heater_age_setting, *years)) return 1;
    std::cout << setting_int(*db, chosen, heater_age_setting) << "\n";
    if (years) std::cerr << "Set the water heater replacement age of syndicate " << chosen << ".\n";
    return 0;
}

}  // namespace syndic::cli
