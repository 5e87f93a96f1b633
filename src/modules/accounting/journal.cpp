// record_journal_entry and list_transactions (catalogue §4.4): the manual entries a treasurer
// posts (opening balances, corrections, transfers) under the ledger's rules, and the journal read
// back, newest first.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/fund_use.hpp"
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

// Opening balances state what the books held when they start here: balance-sheet accounts only
// (assets, liabilities, fund balances), dated no later than the first entry of any other kind, so
// an "opening" entry cannot spend (money leaving a protected fund goes through an authorisation).
void require_opening_allowed(Database& db, const std::string& syndicate_id, const EntryDraft& draft) {
    if (draft.source != "opening") return;
    for (std::size_t i = 0; i < draft.lines.size(); ++i) {
        const auto& type = draft.lines[i].account.type;
        if (type == "income" || type == "expense")
            throw invalid_argument("/lines/" + std::to_string(i) + "/accountId", "is not a balance-sheet account",
                                   "Opening balances go to asset, liability and fund-balance accounts; " + draft.lines[i].account.code +
                                       " is an " + type + " account (an income or expense is an adjustment).");
    }
    auto q = db.prepare("SELECT min(entry_date) FROM journal_entries WHERE syndicate_id = ? AND source <> 'opening'");
    bind_parameters(*q, syndicate_id);
    if (q->executeStep() && !q->getColumn(0).isNull() && draft.date > q->getColumn(0).getString())
        throw invalid_argument("/date", "is after the books started",
                               "The books hold entries from " + q->getColumn(0).getString() +
                                   ": opening balances are dated on or before it (a later correction is an adjustment).");
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
    // Every record named exists, before any rule.
    std::optional<FundUseAuthorization> authorization;
    if (draft.fund_use_authorization_id)
        authorization = require_authorization(call.db, syndicate, *draft.fund_use_authorization_id, "/fundUseAuthorizationId");
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
    require_opening_allowed(call.db, syndicate, draft);
    const auto used = require_fund_use_allowed(call.db, syndicate, draft, authorization, "/fundUseAuthorizationId");
    const auto now = to_utc_iso(call.clock.now());
    const auto id = post_entry(call.db, syndicate, draft, now);
    if (authorization) record_fund_use(call.db, *authorization, id, used, now);
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
