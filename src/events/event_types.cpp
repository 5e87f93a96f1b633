#include "events/event_types.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/embedded.hpp"

namespace syndic {
namespace {

struct EventCatalogue {
    std::string api_version;
    std::map<std::string, std::string, std::less<>> module_of;  // event name → module id
    std::set<std::string, std::less<>> modules, derived;
};

const EventCatalogue& catalogue() {
    static const EventCatalogue loaded = [] {
        for (const auto& file : embedded_schemas()) {
            if (file.name != "events.json") continue;
            const auto doc = nlohmann::json::parse(file.content);
            EventCatalogue c;
            c.api_version = doc.at("apiVersion").get<std::string>();
            for (const auto& [module, names] : doc.at("modules").items()) {
                c.modules.insert(module);
                for (const auto& name : names)
                    if (!c.module_of.emplace(name.get<std::string>(), module).second)
                        throw std::logic_error("schemas/events.json: " + name.get<std::string>() + " is listed twice");
            }
            for (const auto& name : doc.at("derived")) {
                if (!c.module_of.contains(name.get<std::string>()))
                    throw std::logic_error("schemas/events.json: derived " + name.get<std::string>() + " is in no module");
                c.derived.insert(name.get<std::string>());
            }
            return c;
        }
        throw std::logic_error("schemas/events.json is not embedded");
    }();
    return loaded;
}

}  // namespace

const std::string& event_api_version() { return catalogue().api_version; }

bool is_event_type(std::string_view name) { return catalogue().module_of.contains(name); }

bool is_derived_event(std::string_view name) { return catalogue().derived.contains(name); }

bool is_subscription_name(std::string_view name) {
    if (name.ends_with(".*")) return catalogue().modules.contains(name.substr(0, name.size() - 2));
    return is_event_type(name);
}

bool subscription_matches(const std::vector<std::string>& subscriptions, std::string_view type) {
    const auto& c = catalogue();
    const auto module = c.module_of.find(type);
    if (module == c.module_of.end()) return false;
    return std::any_of(subscriptions.begin(), subscriptions.end(), [&](const std::string& s) {
        return s == type || (s.ends_with(".*") && std::string_view(s).substr(0, s.size() - 2) == module->second);
    });
}

std::string_view event_noun(std::string_view type) { return type.substr(0, type.find('.')); }

}  // namespace syndic
