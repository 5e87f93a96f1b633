// The funds module's tool handlers (catalogue §4.6), one file per part: budgets.cpp (the forecast),
// adoption.cpp (consultation and adoption), variance.cpp, position.cpp (fund position and the
// self-insurance requirement), studies.cpp (contingency fund studies), authorizations.cpp (fund
// use); funds.cpp binds them.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "modules/accounting/fund_use.hpp"
#include "modules/funds/plan_question.hpp"
#include "tools/registry.hpp"

namespace syndic::funds {

nlohmann::json list_budgets(const ToolCall& call);
nlohmann::json get_budget(const ToolCall& call);
nlohmann::json create_budget(const ToolCall& call);
nlohmann::json update_budget(const ToolCall& call);
nlohmann::json record_budget_consultation(const ToolCall& call);
nlohmann::json adopt_budget(const ToolCall& call);
nlohmann::json get_budget_variance(const ToolCall& call);
nlohmann::json get_fund_position(const ToolCall& call, const MajorWorksPlanTotal& plan_total);
nlohmann::json get_self_insurance_requirement(const ToolCall& call);
nlohmann::json record_fund_study(const ToolCall& call);
nlohmann::json authorize_fund_use(const ToolCall& call);

// What the financial statements ask of the budget (accounting/budget_questions.hpp): a year's budget
// against the actuals to a day (get_budget_variance's figures), a year's forecast.
std::optional<nlohmann::json> budget_comparison(Database& db, const std::string& syndicate_id, int fiscal_year, const std::string& to);
std::optional<nlohmann::json> budget_forecast(Database& db, const std::string& syndicate_id, int fiscal_year);

// A fund study and an authorisation as the tools show them.
nlohmann::json fund_study_json(Database& db, const std::string& syndicate_id, const std::string& id);
nlohmann::json authorization_json(const accounting::FundUseAuthorization& a);

}  // namespace syndic::funds
