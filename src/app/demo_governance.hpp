// The demo's governance (declaration, by-laws, common portions, the board and its manager) and its
// administration (an inactive webhook to a receiver on this machine, the outbox's history), entered
// through the tools as demo.cpp enters the rest.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <map>
#include <string>

namespace syndic {

using DemoCall = std::function<nlohmann::json(const char* tool, const nlohmann::json& args)>;

// `units`: unit number → id; `days_ago`: the Montreal day that many days before today.
void seed_demo_declaration(const DemoCall& call, const std::map<std::string, std::string>& units,
                           const std::function<std::string(int)>& days_ago);
void seed_demo_administration(const DemoCall& call);
// The board elected last year by the co-owners' written resolution (all signed), its three
// officers, the manager named by the directors' written resolution; the messages those queued are
// the outbox's history (sent, one failed).
void seed_demo_board(const DemoCall& call, const std::function<std::string(int)>& days_ago);

}  // namespace syndic
