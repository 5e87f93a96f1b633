#include "app/key_commands.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <stdexcept>

#include "app/cli_audit.hpp"
#include "modules/modules.hpp"

namespace syndic::cli {

using nlohmann::json;

void print_key(const IssuedKey& key, const std::string& syndicate_id, bool as_json, const char* id_name) {
    if (as_json) std::cout << json{{id_name, id_name == std::string("syndicateId") ? syndicate_id : key.id}, {"apiKey", key.secret}}.dump() << "\n";
    else std::cout << key.secret << "\n";
}

namespace {

// The scopes a new key gets: every scope for none or "*", else the listed ones, each known to the
// registry (or one of the core modules' scopes).
std::vector<std::string> checked_scopes(const ToolRegistry& registry, const std::string& text) {
    if (text.empty() || text == "*") return {all_scopes};
    auto known = registry.all_scopes();
    for (const char* s : {"read:co-owners", "write:co-owners", "read:meetings", "write:meetings"})
        if (std::find(known.begin(), known.end(), s) == known.end()) known.push_back(s);
    auto scopes = split_list(text);
    for (const auto& s : scopes)
        if (std::find(known.begin(), known.end(), s) == known.end()) {
            std::string list;
            for (const auto& k : known) list += " " + k;
            throw std::runtime_error("unknown scope '" + s + "'; known scopes:" + list);
        }
    return scopes;
}

}  // namespace

void KeysCommand::add_to(CLI::App& app) {
    auto* keys = app.add_subcommand("keys", "Create, list and revoke API keys");
    keys->require_subcommand(1);
    create = keys->add_subcommand("create", "Create an API key and print it once");
    create->add_option("--syndicate", syndicate, "syndicate id (default: the only one)");
    create->add_option("--role", role, "admin or member")->capture_default_str()->check(CLI::IsMember({"admin", "member"}));
    create->add_option("--scopes", scopes, "comma-separated scopes (default: every scope)");
    create->add_option("--name", name, "a label to recognise the key")->capture_default_str();
    create->add_flag("--json", as_json, "print {\"apiKeyId\":..,\"apiKey\":..}");
    list = keys->add_subcommand("list", "List API keys (never their secrets)");
    list->add_option("--syndicate", syndicate, "only this syndicate's keys");
    list->add_flag("--json", as_json, "print a JSON array");
    revoke = keys->add_subcommand("revoke", "Revoke an API key");
    revoke->add_option("id", revoke_id, "the key's id, or its prefix as `keys list` shows it (sk_l56E0…), or a unique beginning of either")->required();
}

bool KeysCommand::parsed() const { return create->parsed() || list->parsed() || revoke->parsed(); }

int KeysCommand::run(const Common& common, const Clock& clock) {
    if (create->parsed()) return run_create(common, clock);
    if (list->parsed()) return run_list(common);
    return run_revoke(common, clock);
}

int KeysCommand::run_create(const Common& common, const Clock& clock) {
    ToolRegistry registry(all_tool_handlers());
    auto db = open_existing(common.db_path);
    const auto chosen = pick_syndicate(*db, syndicate);
    CommandAudit audit(*db, "keys create");
    const auto key = issue_api_key(*db, clock, chosen, *parse_role(role), checked_scopes(registry, scopes), name);
    audit.commit(clock);
    std::cerr << "Created " << role << " key " << key.id << " for syndicate " << chosen
              << "; the secret is shown only this once:\n";
    print_key(key, chosen, as_json, "apiKeyId");
    return 0;
}

int KeysCommand::run_list(const Common& common) {
    auto db = open_existing(common.db_path);
    const auto keys = list_api_keys(*db, syndicate.empty() ? std::nullopt : std::optional(syndicate));
    std::map<std::string, std::string> syndicate_names;
    for (const auto& s : list_syndicates(*db)) syndicate_names[s.id] = s.name;
    json out = json::array();
    for (const auto& k : keys) {
        std::string listed;
        for (const auto& s : k.scopes) listed += (listed.empty() ? "" : ",") + s;
        if (as_json)
            out.push_back({{"apiKeyId", k.id}, {"syndicateId", k.syndicate_id}, {"name", k.name},
                           {"prefix", k.prefix}, {"role", role_name(k.role)}, {"scopes", k.scopes},
                           {"createdAt", k.created_at}, {"revokedAt", k.revoked_at ? json(*k.revoked_at) : json(nullptr)}});
        else
            std::cout << k.id << "  " << k.prefix << "…  " << role_name(k.role) << "  "
                      << (listed == "*" ? "all scopes" : listed) << "  " << k.name << "  ("
                      << syndicate_names[k.syndicate_id] << ")  created "
                      << k.created_at << (k.revoked_at ? "  REVOKED " + *k.revoked_at : "") << "\n";
    }
    if (as_json) std::cout << out.dump(2) << "\n";
    else if (keys.empty()) std::cerr << "No API keys.\n";
    return 0;
}

int KeysCommand::run_revoke(const Common& common, const Clock& clock) {
    auto db = open_existing(common.db_path);
    CommandAudit audit(*db, "keys revoke");
    if (!revoke_api_key(*db, clock, revoke_id)) {
        const auto n = active_keys_matching(*db, revoke_id).size();
        std::cerr << "syndic-mcp: " << (n > 1 ? std::to_string(n) + " active keys match '" + revoke_id +
                                                    "'; give more of the id or prefix"
                                              : "no active key matches '" + revoke_id + "'")
                  << " (see `syndic-mcp keys list`); nothing was revoked\n";
        return 1;
    }
    audit.commit(clock);
    std::cerr << "Revoked key " << revoke_id << ".\n";
    return 0;
}

}  // namespace syndic::cli
