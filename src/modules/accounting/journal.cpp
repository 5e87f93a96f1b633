// record_journal_entry and list_transactions (catalogue §4.4): the manual entries a treasurer
// posts (opening balances, corrections, transfers) under the ledger's rules, and the journal read
// back, newest first.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
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
// as an opening balance or in a transfer, an entry that only moves money between asset accounts
// and interfund accounts (an expense paid from it is record_expense's, with its own checks).
void require_manual_lines_allowed(const std::vector<Line>& lines, const std::string& source) {
    if (source == "opening") return;
    const bool only_money_moving = std::all_of(lines.begin(), lines.end(), [](const Line& l) {
        return l.account.type == "asset" && l.account.role != "receivables";
    });
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& account = lines[i].account;
        if (!account.system) continue;
        const bool receivables = account.role == "receivables";
        const bool bank = account.role == "bank" && !(source == "transfer" && only_money_moving);
        if (!receivables && !bank) continue;
        throw DomainError(codes::system_account,
                          "The account " + account.code + " (" + account.name + ", " + account.fund + " fund) is posted by " +
                              (receivables ? std::string("charges and payments (assessment notices, record_payment)")
                                           : std::string("payments and expenses, and by transfers between asset and interfund accounts only")) +
                              "; this " + source + " entry may touch it only as an opening balance.")
            .at("/lines/" + std::to_string(i) + "/accountId")
            .with("accountId", account.id);
    }
}

// What the fund may repay the other funds on `day` without an authorisation: the least it owes
// them (the credit balance of its interfund account) on that day and on every later day with an
// entry, so a backdated repayment cannot repay what a later entry already repaid.
std::int64_t repayable(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& day) {
    const auto interfund = system_account(db, syndicate_id, fund, "interfund").id;
    auto q = db.prepare(
        "SELECT e.entry_date, sum(l.debit_cents - l.credit_cents) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
        "WHERE l.account_id = ? AND e.entry_date > ? GROUP BY e.entry_date ORDER BY e.entry_date");
    bind_parameters(*q, interfund, day);
    std::int64_t balance = account_balance(db, interfund, day);
    std::int64_t owed = -balance;
    while (q->executeStep()) {
        balance += q->getColumn(1).getInt64();
        owed = std::min(owed, -balance);
    }
    return std::max<std::int64_t>(0, owed);
}

// Money leaving the contingency or self-insurance fund needs an authorisation for a use the law
// allows (arts. 1071, 1071.1): what the entry takes from the fund's resources (a net debit to its
// expense, income and equity accounts), or the money its assets pay out (a net credit to its bank
// and other asset accounts, interfund and receivables aside), less what repays the fund's debt to
// the other funds through its interfund account. Opening entries state balances and are exempt.
void require_fund_use_allowed(Database& db, const std::string& syndicate_id, const EntryDraft& draft) {
    if (draft.source == "opening") return;
    for (const std::string fund : {"contingency", "self-insurance"}) {
        std::int64_t spent = 0, paid_out = 0, to_interfund = 0;
        for (const auto& l : draft.lines) {
            if (l.account.fund != fund) continue;
            const auto net_debit = l.debit_cents - l.credit_cents;
            const auto& type = l.account.type;
            if (type == "expense" || type == "income" || type == "equity") spent += net_debit;
            else if (l.account.role == "interfund") to_interfund += net_debit;
            else if (type == "asset" && l.account.role != "receivables") paid_out -= net_debit;
        }
        std::int64_t repaid = 0;
        if (paid_out > 0 && to_interfund > 0) repaid = std::min({paid_out, to_interfund, repayable(db, syndicate_id, fund, draft.date)});
        const auto leaving = std::max({std::int64_t{0}, spent, paid_out - repaid});
        if (leaving == 0) continue;
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

// A list's from/to on a column of days (catalogue §0: a day or an instant): the day given, or the
// Montreal day of the date-time given; nullopt when absent.
std::optional<std::string> day_bound(const Arguments& args, const char* key) {
    const auto given = args.optional_text(key);
    if (!given) return std::nullopt;
    if (given->size() == 10) return date_argument(args, key);
    return montreal_date(instant_argument(args, key));
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
    // Every record named exists, before any rule. The funds module records the authorisations
    // (authorize_fund_use, catalogue §4.6); until it exists none does, so every id names nothing.
    if (draft.fund_use_authorization_id)
        throw DomainError(codes::fund_use_authorization_not_found,
                          "No authorisation " + *draft.fund_use_authorization_id + " to use a fund in this syndicate.")
            .at("/fundUseAuthorizationId");
    const auto rows = a.rows("lines");
    for (const auto& r : rows) {
        Line l;
        l.account = require_account(call.db, syndicate, r.text("accountId"), r.pointer("accountId"));
        l.unit_id = r.optional_text("unitId");
        l.co_owner_id = r.optional_text("coOwnerId");
        l.contractor_id = r.optional_text("contractorId");
        if (l.unit_id) require_record_exists(call.db, syndicate, "units", *l.unit_id, r.pointer("unitId"), RecordState::active);
        if (l.co_owner_id)
            require_record_exists(call.db, syndicate, "co_owners", *l.co_owner_id, r.pointer("coOwnerId"), RecordState::active);
        if (l.contractor_id)
            require_record_exists(call.db, syndicate, "contractors", *l.contractor_id, r.pointer("contractorId"), RecordState::active);
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
    require_fund_use_allowed(call.db, syndicate, draft);
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
                            day_bound(a, "from"), day_bound(a, "to"));
        },
        [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
    json data = json::array();
    for (const auto& id : ids) data.push_back(entry_json(call.db, call.caller.syndicate_id, id));
    return page_envelope(std::move(data), page, total);
}

}  // namespace syndic::accounting
