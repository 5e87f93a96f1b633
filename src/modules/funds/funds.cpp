#include "modules/funds/funds.hpp"

#include "modules/accounting/budget_questions.hpp"
#include "modules/funds/plan_question.hpp"
#include "modules/funds/tools.hpp"

namespace syndic {

void register_funds_module(ToolTable& table) {
    table.bind("list_budgets", funds::list_budgets);
    table.bind("get_budget", funds::get_budget);
    table.bind("create_budget", funds::create_budget);
    table.bind("update_budget", funds::update_budget);
    table.bind("record_budget_consultation", funds::record_budget_consultation);
    table.bind("adopt_budget", funds::adopt_budget);
    table.bind("get_budget_variance", funds::get_budget_variance);
    table.bind("get_fund_position", [plan = table.question<funds::MajorWorksPlanTotal>(funds::major_works_plan_question)](
                                        const ToolCall& call) -> ToolResult { return funds::get_fund_position(call, *plan); });
    table.bind("get_self_insurance_requirement", funds::get_self_insurance_requirement);
    table.bind("record_fund_study", funds::record_fund_study);
    table.bind("authorize_fund_use", funds::authorize_fund_use);
    *table.question<accounting::BudgetAnswers>(accounting::budget_question) = {funds::budget_comparison, funds::budget_forecast};
}

}  // namespace syndic
