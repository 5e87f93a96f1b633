// The event names of catalogue section 6 (schemas/events.json, embedded): which exist, which the
// daily tick derives, and what a webhook's subscription (names and <module>.* wildcards) receives.
// Knows names only, not storage or delivery.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace syndic {

// "2026-11": the envelope's apiVersion.
const std::string& event_api_version();

// Whether `name` is an event of section 6 (co_owner.created...).
bool is_event_type(std::string_view name);
// Whether the daily tick, not a call, emits it (water_heater.overdue...).
bool is_derived_event(std::string_view name);
// An event name, or "<module id>.*" for every event of a module ("co-owners.*").
bool is_subscription_name(std::string_view name);
// Whether a webhook subscribed to `subscriptions` receives events of `type`.
bool subscription_matches(const std::vector<std::string>& subscriptions, std::string_view type);

// "co_owner.created" → "co_owner"; "resolution.decided" → "resolution".
std::string_view event_noun(std::string_view type);

}  // namespace syndic
