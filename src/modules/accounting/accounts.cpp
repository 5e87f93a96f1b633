// list_accounts and create_account (catalogue §4.4): the chart of the three funds with balances,
// and the accounts a syndicate adds to it (a second bank account, an expense heading).
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

// ?1 syndicate, ?2 fund, ?3 type, ?4 as of, ?5 zero balances kept (1) or not (0).
constexpr const char* chart_select =
    "SELECT a.id, a.code, a.name, a.type, a.fund, a.system, a.role, a.is_bank, a.bank_institution, a.bank_last4, "
    "a.created_at, a.updated_at, "
    "coalesce((SELECT sum(l.debit_cents - l.credit_cents) FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id "
    "          WHERE l.account_id = a.id AND e.entry_date <= ?4), 0) AS balance "
    "FROM accounts a WHERE a.syndicate_id = ?1 AND (?2 IS NULL OR a.fund = ?2) AND (?3 IS NULL OR a.type = ?3)";
constexpr const char* fund_order = "CASE a.fund WHEN 'operating' THEN 0 WHEN 'contingency' THEN 1 ELSE 2 END";

json account_json(SQLite::Statement& q) {
    const bool bank = q.getColumn(7).getInt64() != 0;
    return {{"id", q.getColumn(0).getString()},
            {"code", q.getColumn(1).getString()},
            {"name", q.getColumn(2).getString()},
            {"type", q.getColumn(3).getString()},
            {"fund", q.getColumn(4).getString()},
            {"system", q.getColumn(5).getInt64() != 0},
            {"role", nullable_text(q.getColumn(6))},
            {"isBank", bank},
            {"bank", bank ? json{{"institution", nullable_text(q.getColumn(8))}, {"last4", nullable_text(q.getColumn(9))}}
                          : json(nullptr)},
            {"balanceCents", q.getColumn(12).getInt64()},
            {"createdAt", shown_time(q.getColumn(10))},
            {"updatedAt", shown_time(q.getColumn(11))}};
}

}  // namespace

// A fund's money should sit in a bank account of its own (arts. 1071, 1071.1): one whose
// institution and last 4 digits are recorded and no other fund's bank account shares.
std::optional<std::string> own_bank_warning(Database& db, const std::string& syndicate_id, const std::string& fund) {
    auto q = db.prepare(
        "SELECT 1 FROM accounts a WHERE a.syndicate_id = ?1 AND a.fund = ?2 AND a.is_bank = 1 AND a.bank_last4 IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM accounts o WHERE o.syndicate_id = ?1 AND o.fund <> ?2 AND o.is_bank = 1 "
        "                AND o.bank_last4 = a.bank_last4 AND coalesce(o.bank_institution, '') = coalesce(a.bank_institution, ''))");
    bind_parameters(*q, syndicate_id, fund);
    if (q->executeStep()) return std::nullopt;
    return "The " + fund + " fund has no bank account of its own recorded (an institution and the last 4 digits no other "
           "fund's account shares). Keeping each fund's money apart in its own account is recommended (arts. 1071, 1071.1): "
           "it stays liquid, available and out of reach of the syndicate's other creditors.";
}

json list_accounts(const ToolCall& call) {
    const auto a = call.arguments();
    const auto as_of = date_argument(a, "asOf").value_or(today(call));
    const auto page = page_request(a);
    const bool zero = a.flag("includeZero", true);
    const std::string filtered = std::string("SELECT * FROM (") + chart_select + ") a WHERE (?5 = 1 OR a.balance <> 0)";
    json data = json::array();
    const auto total = read_page(
        call.db, "SELECT count(*) FROM (" + filtered + ")",
        filtered + " ORDER BY " + fund_order + ", a.code LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) {
            bind_parameters(q, call.caller.syndicate_id, a.optional_text("fund"), a.optional_text("type"), as_of,
                            static_cast<std::int64_t>(zero ? 1 : 0));
        },
        [&](SQLite::Statement& q) { data.push_back(account_json(q)); });
    auto out = page_envelope(std::move(data), page, total);
    out["asOf"] = as_of;
    return out;
}

json create_account(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string code = a.text("code"), fund = a.text("fund"), type = a.text("type");
    const auto name = a.nonblank("name");
    const bool bank = a.flag("isBank", false);
    if (bank && type != "asset")
        throw invalid_argument("/type", "must be asset for a bank account", "A bank account is an asset: give type asset with isBank.");
    if (a.given("bank") && !bank)
        throw invalid_argument("/bank", "is only for a bank account", "Give isBank true with bank, or leave bank out.");
    auto same = call.db.prepare("SELECT id FROM accounts WHERE syndicate_id = ? AND fund = ? AND code = ?");
    bind_parameters(*same, syndicate, fund, code);
    if (same->executeStep())
        throw DomainError(codes::duplicate_account_code, "The " + fund + " fund's chart already has an account " + code + ".")
            .at("/code")
            .with("accountId", same->getColumn(0).getString());
    std::optional<std::string> institution, last4;
    if (a.given("bank")) {
        const auto b = a.object("bank");
        institution = b.optional_nonblank("institution");
        last4 = b.optional_text("last4");
    }
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto insert = call.db.prepare(
        "INSERT INTO accounts (id, syndicate_id, fund, code, name, type, role, system, is_bank, bank_institution, bank_last4, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?)");
    bind_parameters(*insert, id, syndicate, fund, code, name, type, static_cast<std::int64_t>(bank ? 1 : 0), institution, last4,
                    now, now);
    insert->exec();
    auto read = call.db.prepare(std::string(chart_select) + " AND a.id = ?6");
    bind_parameters(*read, syndicate, std::nullopt, std::nullopt, today(call), static_cast<std::int64_t>(1), id);
    read->executeStep();
    json warnings = json::array();
    if (bank)
        if (const auto w = own_bank_warning(call.db, syndicate, fund)) warnings.push_back(*w);
    auto account = account_json(*read);
    account["warnings"] = std::move(warnings);
    return account;
}

}  // namespace syndic::accounting
