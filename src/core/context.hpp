// Who is calling: the syndicate every query is scoped to, the key's scopes and role. Built by
// auth/ from a credential; read by tools/ (scope checks) and modules/ (tenancy).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

namespace syndic {

enum class Role { member, admin };

struct CallerContext {
    std::string syndicate_id;
    std::string api_key_id;  // the key's id; for a user's OAuth token, "user:" and the user's id
    std::vector<std::string> scopes;
    Role role = Role::member;
    std::string user_id{};   // set for a user calling through an OAuth application
    std::string client_id{}; // that application
    // The HTTP bridge's public base URL (https://host/api) when the call came over HTTP; empty
    // over stdio. A remote caller is given download addresses, never the server's file paths.
    std::string remote_base{};

    bool has_scope(const std::string& scope) const {
        return std::find(scopes.begin(), scopes.end(), scope) != scopes.end() ||
               std::find(scopes.begin(), scopes.end(), "*") != scopes.end();
    }
    bool is_admin() const { return role == Role::admin; }
};

}  // namespace syndic
