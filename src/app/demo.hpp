// The demo syndicate: a small realistic building (units whose fractions sum to 100, co-owners,
// parking and storage linked to apartments, the coming annual meeting with two resolutions, water
// heaters, policies and contractors; its registered declaration with by-laws and common portions,
// the parking a restricted one; a board of three elected last year with its manager, the outbox's
// history of their resolutions; a paused webhook to a receiver on this machine),
// entered through the tools like any client would: the "demo" sections of the modules' seed files
// (schemas/<module>/seed.json, tools/seeds.hpp), their dates counted from today.
#pragma once
#include <string>

#include "core/clock.hpp"
#include "storage/database.hpp"
#include "tools/registry.hpp"

namespace syndic {

inline constexpr const char* demo_syndicate_name = "Syndicat de la copropriété Le Jardin Saint-Denis (démo)";

// The demo syndicate's id, creating it with its data when the database has none.
std::string ensure_demo_syndicate(Database& db, const Clock& clock, const ToolRegistry& registry);

}  // namespace syndic
