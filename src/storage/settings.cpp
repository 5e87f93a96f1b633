#include "storage/settings.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/embedded.hpp"
#include "core/error.hpp"
#include "storage/database.hpp"

namespace syndic {

using nlohmann::json;

namespace {

std::optional<double> bound(const json& declared, const char* key) {
    if (!declared.contains(key)) return std::nullopt;
    if (!declared[key].is_number())
        throw std::logic_error(std::string("setting bound ") + key + " is not a number: " + declared.dump());
    return declared[key].get<double>();
}

// A module's manifest as the settings read it: its id, its embedded path and its "settings".
struct ModuleSettings {
    std::string module, file;
    json settings;
};

// The "settings" of every module's manifest (the embedded "<module>/module.json"), by module id.
std::vector<ModuleSettings> manifests_settings() {
    std::vector<ModuleSettings> out;
    for (const auto& file : embedded_schemas()) {
        const auto slash = file.name.find('/');
        if (slash == std::string_view::npos || file.name.substr(slash + 1) != "module.json") continue;
        const auto doc = json::parse(file.content);
        out.push_back({doc.at("module").get<std::string>(), std::string(file.name), doc.value("settings", json::object())});
    }
    std::sort(out.begin(), out.end(), [](const ModuleSettings& a, const ModuleSettings& b) { return a.module < b.module; });
    return out;
}

std::vector<SettingDeclaration> read_declarations() {
    std::map<std::string, SettingDeclaration> by_name;
    for (const auto& manifest : manifests_settings()) {
        for (const auto& [name, declared] : manifest.settings.items()) {
            const auto where = "setting " + name + " of " + manifest.file;
            if (const auto it = by_name.find(name); it != by_name.end())
                throw std::logic_error("setting " + name + " is declared twice, by the modules " + it->second.module +
                                       " and " + manifest.module + "; a setting name belongs to one module");
            if (!declared.is_object() || !declared.contains("type") || !declared.contains("default"))
                throw std::logic_error(where + " needs a type and a default");
            SettingDeclaration d{name, manifest.module, declared["type"].get<std::string>(),
                                 declared.value("description", std::string()),
                                 bound(declared, "minimum"), bound(declared, "maximum"),
                                 bound(declared, "exclusiveMinimum"), bound(declared, "exclusiveMaximum"),
                                 declared["default"].dump(),
                                 declared.value("nullable", false),
                                 declared.value("enum", std::vector<std::string>{}),
                                 declared.value("shownBy", std::string()),
                                 declared.value("format", std::string())};
            if (!d.format.empty() && (d.type != "string" || (d.format != "neq" && d.format != "email" && d.format != "url")))
                throw std::logic_error(where + ": format " + d.format + " is not one of neq, email, url for a string");
            if (const auto why = setting_refusal(d, declared["default"]); !why.empty())
                throw std::logic_error(where + ": its default " + why);
            by_name.emplace(name, std::move(d));
        }
    }
    std::vector<SettingDeclaration> out;
    for (auto& [name, d] : by_name) out.push_back(std::move(d));
    return out;
}

const SettingDeclaration& declared(std::string_view name) {
    if (const auto* d = find_setting(name)) return *d;
    throw std::invalid_argument("no module declares the setting " + std::string(name));
}

std::string number_text(double x) {
    std::ostringstream out;
    out.precision(15);
    out << x;
    return out.str();
}

bool is_email(const std::string& text) {
    const auto at = text.find('@');
    if (at == 0 || at == std::string::npos || text.find('@', at + 1) != std::string::npos) return false;
    if (std::any_of(text.begin(), text.end(), [](unsigned char c) { return c <= ' '; })) return false;
    const auto domain = text.substr(at + 1);
    // Labels separated by dots, at least two, none empty.
    return domain.find('.') != std::string::npos && domain.front() != '.' && domain.back() != '.' &&
           domain.find("..") == std::string::npos;
}

bool is_web_address(const std::string& text) {
    for (const char* scheme : {"http://", "https://"}) {
        const std::string s = scheme;
        if (text.size() > s.size() && text.compare(0, s.size(), s) == 0)
            return std::none_of(text.begin(), text.end(), [](unsigned char c) { return c <= ' '; });
    }
    return false;
}

std::string format_refusal(const SettingDeclaration& d, const std::string& text) {
    if (d.format == "neq" && (text.size() != 10 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })))
        return "is not a Quebec enterprise number (NEQ: 10 digits, e.g. 1171234567) (\"" + text + "\")";
    if (d.format == "email" && !is_email(text)) return "is not an e-mail address (\"" + text + "\")";
    if (d.format == "url" && !is_web_address(text)) return "is not a web address starting with http:// or https:// (\"" + text + "\")";
    return "";
}

std::optional<std::string> stored(Database& db, const std::string& syndicate_id, std::string_view name) {
    auto q = db.prepare("SELECT value FROM settings WHERE syndicate_id = ? AND name = ?");
    q->bind(1, syndicate_id);
    q->bind(2, std::string(name));
    if (!q->executeStep()) return std::nullopt;
    return q->getColumn(0).getString();
}

}  // namespace

const std::vector<SettingDeclaration>& setting_declarations() {
    static const std::vector<SettingDeclaration> all = read_declarations();
    return all;
}

const SettingDeclaration* find_setting(std::string_view name) {
    for (const auto& d : setting_declarations())
        if (d.name == name) return &d;
    return nullptr;
}

std::string setting_refusal(const SettingDeclaration& d, const json& value) {
    if (value.is_null() && d.nullable) return "";
    const bool fits = d.type == "integer"   ? value.is_number_integer()
                      : d.type == "number"  ? value.is_number()
                      : d.type == "string"  ? value.is_string()
                      : d.type == "boolean" ? value.is_boolean()
                                            : false;
    if (!fits) return "is not " + std::string(d.type == "integer" ? "an " : "a ") + d.type + " (" + value.dump() + ")";
    if (value.is_string() && !d.allowed.empty() &&
        std::find(d.allowed.begin(), d.allowed.end(), value.get<std::string>()) == d.allowed.end()) {
        std::string list;
        for (const auto& a : d.allowed) list += (list.empty() ? "" : ", ") + a;
        return "is not one of " + list + " (" + value.dump() + ")";
    }
    if (value.is_string()) return format_refusal(d, value.get<std::string>());
    if (!value.is_number()) return "";
    const double x = value.get<double>();
    if (d.minimum && x < *d.minimum) return "is less than " + number_text(*d.minimum) + " (" + value.dump() + ")";
    if (d.maximum && x > *d.maximum) return "is more than " + number_text(*d.maximum) + " (" + value.dump() + ")";
    if (d.exclusive_minimum && x <= *d.exclusive_minimum)
        return "must be more than " + number_text(*d.exclusive_minimum) + " (" + value.dump() + ")";
    if (d.exclusive_maximum && x >= *d.exclusive_maximum)
        return "must be less than " + number_text(*d.exclusive_maximum) + " (" + value.dump() + ")";
    return "";
}

json get_setting(Database& db, const std::string& syndicate_id, std::string_view name) {
    const auto& d = declared(name);
    return json::parse(stored(db, syndicate_id, name).value_or(d.default_json));
}

bool setting_is_set(Database& db, const std::string& syndicate_id, std::string_view name) {
    declared(name);
    return stored(db, syndicate_id, name).has_value();
}

json normalised_setting(const SettingDeclaration& d, json value) {
    if (d.format == "neq" && value.is_string()) {
        std::string digits;
        for (const char c : value.get<std::string>())
            if (c != ' ' && c != '-') digits += c;
        value = digits;
    }
    return value;
}

void set_setting(Database& db, const std::string& syndicate_id, std::string_view name, const json& given,
                 const std::string& now) {
    const auto& d = declared(name);
    const json value = normalised_setting(d, given);
    if (const auto why = setting_refusal(d, value); !why.empty())
        throw DomainError(codes::validation_failed, "The setting " + d.name + " " + why + ": " + d.description)
            .at("/" + d.name);
    if (value.is_null()) {  // a setting that may be null, cleared: back to its default (none)
        auto clear = db.prepare("DELETE FROM settings WHERE syndicate_id = ? AND name = ?");
        clear->bind(1, syndicate_id);
        clear->bind(2, d.name);
        clear->exec();
        return;
    }
    auto q = db.prepare(
        "INSERT INTO settings (syndicate_id, name, value, updated_at) VALUES (?1, ?2, ?3, ?4) "
        "ON CONFLICT (syndicate_id, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at "
        "WHERE value <> excluded.value");
    q->bind(1, syndicate_id);
    q->bind(2, d.name);
    q->bind(3, value.dump());
    q->bind(4, now);
    q->exec();
}

std::int64_t setting_int(Database& db, const std::string& syndicate_id, std::string_view name) {
    return get_setting(db, syndicate_id, name).get<std::int64_t>();
}

double setting_number(Database& db, const std::string& syndicate_id, std::string_view name) {
    return get_setting(db, syndicate_id, name).get<double>();
}

}  // namespace syndic
