#include "modules/accounting/accounting.hpp"

#include "modules/accounting/tools.hpp"

namespace syndic {

void register_accounting_module(ToolTable& table) {
    table.bind("list_accounts", accounting::list_accounts);
    table.bind("create_account", accounting::create_account);
    table.bind("record_journal_entry", accounting::record_journal_entry);
    table.bind("list_transactions", accounting::list_transactions);
    table.bind("record_payment", accounting::record_payment);
    table.bind("reverse_payment", accounting::reverse_payment);
    table.bind("get_owner_statement", accounting::get_owner_statement);
    table.bind("list_arrears", accounting::list_arrears);
    table.bind("apply_late_interest", accounting::apply_late_interest);
    table.bind("record_expense", accounting::record_expense);
    table.bind("reconcile_bank_account", accounting::reconcile_bank_account);
    table.bind("get_financial_statements", [budget = table.question<accounting::BudgetAnswers>(accounting::budget_question)](
                                               const ToolCall& call) -> ToolResult { return accounting::get_financial_statements(call, *budget); });
    table.bind("close_fiscal_year", [budget = table.question<accounting::BudgetAnswers>(accounting::budget_question),
                                     closing = table.question<accounting::ClosingAnswers>(accounting::closing_question)](
                                        const ToolCall& call) -> ToolResult { return accounting::close_fiscal_year(call, *budget, *closing); });
}

}  // namespace syndic
