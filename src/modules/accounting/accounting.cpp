#include "modules/accounting/accounting.hpp"

#include "modules/accounting/tools.hpp"

namespace syndic {

void register_accounting_module(ToolTable& table) {
    table.bind("list_accounts", accounting::list_accounts);
    table.bind("create_account", accounting::create_account);
    table.bind("record_journal_entry", accounting::record_journal_entry);
    table.bind("list_transactions", accounting::list_transactions);
}

}  // namespace syndic
