// record_journal_entry and list_transactions (catalogue §4.4): the manual entries a treasurer
// posts (opening balances, corrections, transfers) under the ledger's rules, and the journal read
// back, newest first.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/error.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

// Co-owner receivables move by charges and payments only; a fund's own bank account by payments,
// expenses and transfers: a manual entry touches the first only as an opening balance, the second
// as an opening balance or a transfer.
void require_manual_lines_allowed(const std::vector<Line>& lines, const std::string& source) {
    if (source == "opening") return;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& account = lines[i].account;
        if (!account.system) continue;
        const bool receivables = account.role == "receivables";
        const bool bank = account.role == "bank" && source != "transfer";
        if (!receivables && !bank) continue;
        throw DomainError(codes::system_account,
                          "The account " + account.code + " (" + account.name + ", " + account.fund + " fund) is posted by " +
                              (receivables ? "charges and payments (assessment notices, record_payment)"
                                           : "payments, expenses and transfers (source transfer)") +
                              "; a manual " + source + " entry touches it only as an opening balance.")
            .at("/lines/" + std::to_string(i) + "/accountId")
            .with("accountId", account.id);
    }
}

// What the fund owes the other funds as of `day`: the credit balance of its interfund account.
std::int64_t owed_to_other_funds(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& day) {
    return -account_balance(db, system_account(db, syndicate_id, fund, "interfund").id, day);
}

// Money leaving the contingency or self-insurance fund (its expenses, its cash paid out) needs an
// authorisation for a use the law allows (arts. 1071, 1071.1), except cash that repays what the
// fund owes the other funds (a debit to its interfund account, up to what it owes).
void require_fund_use_allowed(const ToolCall& call, const std::vector<Line>& lines, const EntryDraft& draft) {
    if (draft.source == "opening") return;
    for (const std::string fund : {"contingency", "self-insurance"}) {
        std::int64_t spent = 0, cash_out = 0, to_interfund = 0;
        for (const auto& l : lines) {
            if (l.account.fund != fund) continue;
            if (l.account.type == "expense") spent += l.debit_cents - l.credit_cents;
            if (l.account.is_bank) cash_out += l.credit_cents - l.debit_cents;
            if (l.account.role == "interfund") to_interfund += l.debit_cents - l.credit_cents;
        }
        std::int64_t repaid = 0;
        if (cash_out > 0 && to_interfund > 0)
            repaid = std::min({cash_out, to_interfund,
                               std::max<std::int64_t>(0, owed_to_other_funds(call.db, call.caller.syndicate_id, fund, draft.date))});
        const auto leaving = std::max<std::int64_t>(0, spent) + std::max<std::int64_t>(0, cash_out - repaid);
        if (leaving == 0) continue;
        if (draft.fund_use_authorization_id)
            // The funds module records the authorisations (authorize_fund_use, catalogue §4.6); until
            // it exists none does, so every id names nothing.
            throw DomainError(codes::fund_use_authorization_not_found,
                              "No authorisation " + *draft.fund_use_authorization_id + " to use a fund in this syndicate.")
                .at("/fundUseAuthorizationId");
        throw DomainError(codes::fund_use_not_allowed,
                          std::to_string(leaving) + " cents would leave the " + fund + " fund without an authorisation: " +
                              (fund == "contingency" ? "the contingency fund pays only major repairs and replacements of common portions (art. 1071)"
                                                     : "the self-insurance fund pays only deductibles and uninsured damage (art. 1071.1)") +
                              ". Give fundUseAuthorizationId, or repay only what the fund owes through its interfund account.")
            .at("/lines")
            .with("fund", fund)
            .with("cents", leaving);
    }
}

}  // namespace

json record_journal_entry(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    EntryDraft draft;
    draft.date = *date_argument(a, "date");
    draft.description = a.nonblank("description");
    draft.source = a.text("source");
    draft.fund_use_authorization_id = a.optional_text("fundUseAuthorizationId");
    // Every record named exists, before any rule.
    const auto rows = a.rows("lines");
    for (const auto& r : rows) {
        Line l;
        l.account = require_account(call.db, syndicate, r.text("accountId"), r.pointer("accountId"));
        l.unit_id = r.optional_text("unitId");
        l.co_owner_id = r.optional_text("coOwnerId");
        l.contractor_id = r.optional_text("contractorId");
        if (l.unit_id) require_record_exists(call.db, syndicate, "units", *l.unit_id, r.pointer("unitId"));
        if (l.co_owner_id) require_record_exists(call.db, syndicate, "co_owners", *l.co_owner_id, r.pointer("coOwnerId"));
        if (l.contractor_id) require_record_exists(call.db, syndicate, "contractors", *l.contractor_id, r.pointer("contractorId"));
        draft.lines.push_back(std::move(l));
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto& l = draft.lines[i];
        l.debit_cents = rows[i].integer_or("debitCents", 0);
        l.credit_cents = rows[i].integer_or("creditCents", 0);
        if ((l.debit_cents > 0) == (l.credit_cents > 0))
            throw invalid_argument(rows[i].pointer(), "needs either debitCents or creditCents above 0, not both",
                                   "Each line debits or credits its account: give debitCents or creditCents, above 0.");
    }
    require_open_period(call.db, syndicate, draft.date, "/date");
    require_balanced(draft.lines);
    require_manual_lines_allowed(draft.lines, draft.source);
    require_fund_use_allowed(call, draft.lines, draft);
    const auto id = post_entry(call.db, syndicate, draft, to_utc_iso(call.clock.now()));
    call.name_event("ledger.entry_posted", "journal-entry", id);
    return entry_json(call.db, syndicate, id);
}

json list_transactions(const ToolCall& call) {
    const auto a = call.arguments();
    const auto page = page_request(a);
    // ?1 syndicate, ?2 fund, ?3 account, ?4 unit, ?5 contractor, ?6 source, ?7 from, ?8 to.
    const std::string where =
        " FROM journal_entries e WHERE e.syndicate_id = ?1 AND (?6 IS NULL OR e.source = ?6) AND (?7 IS NULL OR e.entry_date >= ?7) "
        "AND (?8 IS NULL OR e.entry_date <= ?8) AND (?2 IS NULL AND ?3 IS NULL AND ?4 IS NULL AND ?5 IS NULL OR EXISTS ("
        "  SELECT 1 FROM journal_lines l WHERE l.entry_id = e.id AND (?2 IS NULL OR l.fund = ?2) AND (?3 IS NULL OR l.account_id = ?3) "
        "  AND (?4 IS NULL OR l.unit_id = ?4) AND (?5 IS NULL OR l.contractor_id = ?5)))";
    std::vector<std::string> ids;
    const auto total = read_page(
        call.db, "SELECT count(*)" + where, "SELECT e.id" + where + " ORDER BY e.entry_date DESC, e.number DESC LIMIT ?100 OFFSET ?101",
        page,
        [&](SQLite::Statement& q) {
            bind_parameters(q, call.caller.syndicate_id, a.optional_text("fund"), a.optional_text("accountId"),
                            a.optional_text("unitId"), a.optional_text("contractorId"), a.optional_text("source"),
                            date_argument(a, "from"), date_argument(a, "to"));
        },
        [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
    json data = json::array();
    for (const auto& id : ids) data.push_back(entry_json(call.db, call.caller.syndicate_id, id));
    return page_envelope(std::move(data), page, total);
}

}  // namespace syndic::accounting
