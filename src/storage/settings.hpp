// The syndicates' settings, in one home: the `settings` table (one row per setting a syndicate
// has set, its value as JSON text) read and written through this API only. Each setting is
// declared by its module's manifest ("settings" of schemas/<module>/module.json: type, bounds,
// default, description), read here from the embedded manifests (core/embedded.hpp) without the
// manifest reader of tools/ above; a setting without a row has its default. Knows no tool, and not
// what a setting means to its module.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

class Database;

struct SettingDeclaration {
    std::string name;         // camelCase, unique over every module: "waterHeaterReplacementYears"
    std::string module;       // the module whose manifest declares it
    std::string type;         // "integer", "number", "string" or "boolean"
    std::string description;  // one sentence
    std::optional<double> minimum, maximum, exclusive_minimum, exclusive_maximum;
    std::string default_json;  // the default as JSON text ("10")
    bool nullable = false;              // "nullable": true: null is a value (none recorded)
    std::vector<std::string> allowed;   // "enum": the only values a string setting takes
    // "shownBy": the tool that shows and changes it when that is not get_settings/update_settings
    // (the quorum is a parameter of the declaration: get_declaration); "" for the settings tools.
    std::string shown_by;
    // "format": what a string setting's text is, checked wherever it is set (update_settings, the
    // CLI): "neq" (10 digits; spaces and hyphens between them are dropped), "email" or "url"
    // (http or https); "" for free text.
    std::string format;
};

// Every declared setting, sorted by name; std::logic_error naming both modules when two declare
// one name, or naming the setting when its declaration lacks a type or a default that fits it.
const std::vector<SettingDeclaration>& setting_declarations();
// nullptr when no module declares `name`.
const SettingDeclaration* find_setting(std::string_view name);

// Why `value` does not fit `declaration` (its type, its bounds, its values, its format), "" when it fits.
std::string setting_refusal(const SettingDeclaration& declaration, const nlohmann::json& value);
// The value as it is stored: an NEQ's digits alone; any other value as given.
nlohmann::json normalised_setting(const SettingDeclaration& declaration, nlohmann::json value);

// The syndicate's value of the setting: the stored one, else the declared default. An unknown
// name is std::invalid_argument (a module's own mistake, not the caller's).
nlohmann::json get_setting(Database& db, const std::string& syndicate_id, std::string_view name);
// Whether the syndicate has set the setting (false: it has the default).
bool setting_is_set(Database& db, const std::string& syndicate_id, std::string_view name);
// Sets the syndicate's value (`now` an ISO 8601 UTC instant) in the caller's write transaction,
// so the audit trail records it; null (for a setting that may be null) removes the syndicate's
// value, which is then the default again. A value that does not fit is a DomainError VALIDATION_FAILED
// at "/<name>", nothing written; an unknown name is std::invalid_argument.
void set_setting(Database& db, const std::string& syndicate_id, std::string_view name, const nlohmann::json& value,
                 const std::string& now);

// Typed reads for a module's own setting.
std::int64_t setting_int(Database& db, const std::string& syndicate_id, std::string_view name);
double setting_number(Database& db, const std::string& syndicate_id, std::string_view name);

}  // namespace syndic
