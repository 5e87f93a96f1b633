// What the projects' tools share: a project as stored and as shown, its money (what was invoiced,
// paid and held back), and the checks of its state. Included only by the projects' sources.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/registry.hpp"

namespace syndic::projects {

struct Project {
    std::string id, number, title, category, status;
    std::optional<std::string> emergency_works, contractor_id, actual_start, completed_on, holdback_releasable_on;
    std::optional<std::int64_t> contract_amount_cents;
    std::int64_t budget_cents = 0;
    nlohmann::json funding_sources, component_ids;
};

// The project of the caller's syndicate (PROJECT_NOT_FOUND at `field`); archived ones only when `archived_too`.
Project require_project(const ToolCall& call, const std::string& id, const std::string& field, bool archived_too = false);

// INVALID_STATUS_TRANSITION at `field` (data.status) unless the project's status is one of `allowed`.
void require_status(const Project& p, std::initializer_list<const char*> allowed, const std::string& what, const std::string& field = "/id");

// The project as the tools show it.
nlohmann::json project_json(const ToolCall& call, const std::string& id);

// The project's money (get_project_budget's answer).
nlohmann::json budget_json(Database& db, const std::string& id);

// The contract and its approved change orders; 0 without a contract.
std::int64_t committed_cents(Database& db, const Project& p);

// The child record `id` of the project in `table` (quotes, tasks...), or its not-found code at `field`.
void require_child(const ToolCall& call, const char* table, const std::string& id, const std::string& project_id, const std::string& field);

// Whether `day` is after today, refused at `field` with INVALID_DATE_RANGE.
void require_not_future(const ToolCall& call, const std::string& day, const std::string& field);

// The director in office `id` (DIRECTOR_NOT_FOUND at `field`).
void require_director(const ToolCall& call, const std::string& id, const std::string& field);

// A project's parts as the tools show them (views.cpp).
nlohmann::json quote_json(Database& db, const std::string& id);
nlohmann::json task_json(Database& db, const std::string& id);
nlohmann::json change_order_json(Database& db, const std::string& id);
nlohmann::json progress_json(Database& db, const std::string& id);
nlohmann::json invoice_json(Database& db, const std::string& id);
nlohmann::json warranty_claim_json(Database& db, const std::string& id);

}  // namespace syndic::projects
