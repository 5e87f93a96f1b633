// The accounting module's tool handlers, one file per part of the books (accounts.cpp,
// journal.cpp, payments.cpp, statements.cpp, interest.cpp, expenses.cpp,
// reconciliation.cpp, financial_statements.cpp, closing.cpp); accounting.cpp binds them.
#pragma once
#include <nlohmann/json.hpp>

#include "modules/accounting/budget_questions.hpp"
#include "modules/accounting/closing_questions.hpp"
#include "tools/registry.hpp"

namespace syndic::accounting {

nlohmann::json list_accounts(const ToolCall& call);
nlohmann::json create_account(const ToolCall& call);
nlohmann::json record_journal_entry(const ToolCall& call);
nlohmann::json list_transactions(const ToolCall& call);
nlohmann::json record_payment(const ToolCall& call);
nlohmann::json reverse_payment(const ToolCall& call);
nlohmann::json get_owner_statement(const ToolCall& call);
nlohmann::json list_arrears(const ToolCall& call);
nlohmann::json apply_late_interest(const ToolCall& call);
nlohmann::json record_expense(const ToolCall& call);
nlohmann::json reconcile_bank_account(const ToolCall& call);
// The statements ask the funds module for the budget (budget_questions.hpp).
nlohmann::json get_financial_statements(const ToolCall& call, const BudgetAnswers& budget);
// Closing asks the modules built on accounting too (closing_questions.hpp).
nlohmann::json close_fiscal_year(const ToolCall& call, const BudgetAnswers& budget, const ClosingAnswers& closing);

}  // namespace syndic::accounting
