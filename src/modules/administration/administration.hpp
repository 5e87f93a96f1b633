// The administration module (catalogue section 4.2): the outbox's messages (outbox_tools.cpp) and
// the webhooks with their deliveries (webhook_tools.cpp), the users and API keys (access_tools.cpp),
// the syndicate's operational settings (settings_tools.cpp).
#pragma once
#include "tools/registry.hpp"

namespace syndic {

void register_administration_module(ToolTable& table);
void register_webhook_tools(ToolTable& table);
void register_access_tools(ToolTable& table);
void register_settings_tools(ToolTable& table);

}  // namespace syndic
