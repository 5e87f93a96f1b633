// list_budgets, get_budget, create_budget and update_budget (catalogue §4.6): the budget forecast
// of a fiscal year, drafted from nothing, from the previous budget or from last year's ledger, its
// lines checked against the funds' charts, and shown with its contributions, its legal minimums
// and each unit's share as the assessment notices will bill it.
#include <SQLiteCpp/Statement.h>

#include <string>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/common.hpp"
#include "modules/funds/budget_model.hpp"
#include "modules/funds/tools.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"
#include "storage/settings.hpp"

namespace syndic::funds {

using nlohmann::json;

namespace {

// The day a budget is checked on: its adoption day once adopted, else today.
std::string check_day(const Budget& b, const ToolCall& call) { return b.adopted_on.value_or(today(call)); }

int instalment_count(Database& db, const std::string& syndicate_id) {
    const auto frequency = get_setting(db, syndicate_id, "assessmentFrequency").get<std::string>();
    return frequency == "annual" ? 1 : frequency == "quarterly" ? 4 : 12;
}

json preview(Database& db, const std::string& syndicate_id, const Budget& b) {
    const auto count = instalment_count(db, syndicate_id);
    json units = json::array();
    for (const auto& u : apportion(db, syndicate_id, pools_of(db, syndicate_id, b), "/id")) {
        json by_fund = json::object(), per_instalment = json::object();
        for (const auto& [fund, cents] : u.by_fund) {
            by_fund[fund] = cents;
            per_instalment[fund] = instalments(cents, count);
        }
        units.push_back({{"unitId", u.unit_id}, {"number", u.number}, {"type", u.type},
                         {"fractionPercent", percent(Fraction::from_units(u.fraction_units))},
                         {"yearlyCents", u.total()}, {"byFund", std::move(by_fund)}, {"instalments", per_instalment}});
    }
    return {{"instalmentsPerYear", count}, {"units", std::move(units)}};
}

// A line as given, checked: its account in its fund and of a type that fits its kind, its common
// portion a restricted one of the syndicate.
BudgetLine read_line(Database& db, const std::string& syndicate_id, const Arguments& r) {
    BudgetLine l{"", r.text("fund"), r.text("kind"), r.nonblank("label"), r.optional_text("accountId"),
                 r.optional_text("commonPortionId"), r.integer("amountCents")};
    if (l.fund == "operating" && l.kind == "contribution")
        throw invalid_argument(r.pointer("kind"), "is for the contingency and self-insurance funds",
                               "The operating fund's contribution is its expenses less its other income; contribution lines are "
                               "the contingency and self-insurance funds'.");
    if (l.account_id) {
        const auto account = accounting::require_account(db, syndicate_id, *l.account_id, r.pointer("accountId"));
        if (account.fund != l.fund)
            throw invalid_argument(r.pointer("accountId"), "is an account of another fund",
                                   "The account " + account.code + " (" + account.name + ") is the " + account.fund + " fund's, not the " + l.fund + " fund's.");
        const auto wanted = l.kind == "expense" ? "expense" : "income";
        if (account.type != wanted)
            throw invalid_argument(r.pointer("accountId"), std::string("is not an ") + wanted + " account",
                                   "A line of kind " + l.kind + " goes to an " + wanted + " account; " + account.code + " is of type " + account.type + ".");
    }
    if (l.common_portion_id) require_record_exists(db, syndicate_id, "common_portions", *l.common_portion_id, r.pointer("commonPortionId"), RecordState::active);
    return l;
}

void write_lines(Database& db, const std::string& syndicate_id, const std::string& budget_id, const std::vector<BudgetLine>& lines) {
    auto clear = db.prepare("DELETE FROM budget_lines WHERE budget_id = ?");
    bind_parameters(*clear, budget_id);
    clear->exec();
    auto q = db.prepare(
        "INSERT INTO budget_lines (id, budget_id, syndicate_id, line_no, fund, kind, account_id, label, amount_cents, common_portion_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::int64_t n = 0;
    for (const auto& l : lines) {
        q->reset();
        bind_parameters(*q, new_record_id(), budget_id, syndicate_id, ++n, l.fund, l.kind, l.account_id, l.label, l.amount_cents,
                        l.common_portion_id);
        q->exec();
    }
}

// Lines from a year's ledger: each expense and income account's activity, and each protected
// fund's contributions as its contribution line.
std::vector<BudgetLine> lines_from_ledger(Database& db, const std::string& syndicate_id, const accounting::FiscalYear& year) {
    std::vector<BudgetLine> lines;
    auto q = db.prepare(
        "SELECT a.id, a.fund, a.type, a.role, a.name, sum(l.debit_cents - l.credit_cents) FROM journal_lines l "
        "JOIN journal_entries e ON e.id = l.entry_id JOIN accounts a ON a.id = l.account_id WHERE l.syndicate_id = ?1 "
        "AND a.type IN ('expense', 'income') AND e.entry_date BETWEEN ?2 AND ?3 AND e.source <> 'closing' "
        "GROUP BY a.id ORDER BY CASE a.fund WHEN 'operating' THEN 0 WHEN 'contingency' THEN 1 ELSE 2 END, a.code");
    bind_parameters(*q, syndicate_id, year.starts_on, year.ends_on);
    while (q->executeStep()) {
        const auto fund = q->getColumn(1).getString();
        const auto type = q->getColumn(2).getString();
        const auto role = optional_text(*q, 3);
        const auto net = q->getColumn(5).getInt64();
        const auto cents = type == "expense" ? net : -net;
        if (cents <= 0) continue;
        const bool contribution = fund != "operating" && role == "contributions";
        if (fund == "operating" && (role == "contributions" || role == "special-contributions")) continue;  // what the budget asks
        lines.push_back({"", fund, contribution ? "contribution" : type == "expense" ? "expense" : "income",
                         q->getColumn(4).getString(), q->getColumn(0).getString(), std::nullopt, cents});
    }
    return lines;
}

}  // namespace

json list_budgets(const ToolCall& call) {
    const auto a = call.arguments();
    const auto page = page_request(a);
    const std::string where = " FROM budgets WHERE syndicate_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR fiscal_year = ?3)";
    std::vector<std::string> ids;
    const auto total = read_page(
        call.db, "SELECT count(*)" + where, "SELECT id" + where + " ORDER BY fiscal_year DESC LIMIT ?100 OFFSET ?101", page,
        [&](SQLite::Statement& q) { bind_parameters(q, call.caller.syndicate_id, a.optional_text("status"), a.optional_integer("fiscalYear")); },
        [&](SQLite::Statement& q) { ids.push_back(q.getColumn(0).getString()); });
    json data = json::array();
    for (const auto& id : ids) {
        const auto b = require_budget(call.db, call.caller.syndicate_id, id, "/id");
        data.push_back(budget_json(call.db, call.caller.syndicate_id, b, checks_of(call.db, call.caller.syndicate_id, b, check_day(b, call))));
    }
    return page_envelope(std::move(data), page, total);
}

json get_budget(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto b = require_budget(call.db, syndicate, a.text("id"), "/id");
    auto out = budget_json(call.db, syndicate, b, checks_of(call.db, syndicate, b, check_day(b, call)));
    if (a.flag("previewUnits", false)) out["preview"] = preview(call.db, syndicate, b);
    return out;
}

json create_budget(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto year = static_cast<int>(a.integer("fiscalYear"));
    if (const auto existing = budget_of_year(call.db, syndicate, year))
        throw DomainError("DUPLICATE_BUDGET", "The fiscal year " + std::to_string(year) + " has a budget already (" + existing->id +
                                                  "): change it with update_budget.")
            .at("/fiscalYear")
            .with("budgetId", existing->id);
    const auto copy = a.text_or("copyFrom", "none");
    std::vector<BudgetLine> lines;
    json warnings = json::array();
    if (copy == "previous-budget") {
        if (const auto previous = budget_of_year(call.db, syndicate, year - 1)) lines = previous->lines;
        else warnings.push_back("No budget for " + std::to_string(year - 1) + ": the new budget starts with no lines.");
    } else if (copy == "previous-actuals") {
        const auto day = accounting::fiscal_year_of(call.db, syndicate, today(call));
        // The last closed year if the previous one is closed, else the current one so far.
        const auto previous = accounting::fiscal_year_of(call.db, syndicate, std::to_string(year - 1) + day.starts_on.substr(4));
        lines = lines_from_ledger(call.db, syndicate, previous);
        if (lines.empty()) warnings.push_back("The ledger of " + std::to_string(previous.year) + " has no expense or income: the new budget starts with no lines.");
    }
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    auto q = call.db.prepare(
        "INSERT INTO budgets (id, syndicate_id, fiscal_year, created_at, updated_at, lines_changed_at) VALUES (?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate, static_cast<std::int64_t>(year), now, now, now);
    q->exec();
    write_lines(call.db, syndicate, id, lines);
    call.name_event("budget.created", "budget", id);
    const auto b = require_budget(call.db, syndicate, id, "/id");
    auto out = budget_json(call.db, syndicate, b, checks_of(call.db, syndicate, b, today(call)));
    for (const auto& w : warnings) out["warnings"].push_back(w);
    return out;
}

json update_budget(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    auto b = require_budget(call.db, syndicate, a.text("id"), "/id");
    std::optional<std::vector<BudgetLine>> lines;
    if (a.given("lines")) {
        lines.emplace();
        for (const auto& r : a.rows("lines")) lines->push_back(read_line(call.db, syndicate, r));
    }
    if (b.status == "adopted")
        throw DomainError("BUDGET_LOCKED", "The budget of " + std::to_string(b.fiscal_year) + " was adopted on " + *b.adopted_on +
                                               ": it no longer changes. A new need is a special assessment (create_special_assessment) or next year's budget.")
            .at("/id");
    const auto notes = a.has("notes") ? a.patch_text("notes") : std::nullopt;
    const bool minor = a.flag("minorChange", false);
    const bool changes = lines.has_value();
    if (minor && b.status == "consulted" && changes && (!notes || notes->empty()))
        throw invalid_argument("/notes", "is needed for a minor change",
                               "A consulted budget keeps its consultation after a change only when the change is minor and a note says what it is.");
    const auto now = to_utc_iso(call.clock.now());
    if (lines) write_lines(call.db, syndicate, b.id, *lines);
    // The meeting must have been consulted on what is adopted (art. 1072): a real change sends the
    // budget back to draft.
    const bool back_to_draft = changes && b.status == "consulted" && !minor;
    auto q = call.db.prepare(
        "UPDATE budgets SET notes = CASE WHEN ?2 THEN nullif(?3, '') ELSE notes END, status = CASE WHEN ?4 THEN 'draft' ELSE status END, "
        "consultation_meeting_id = CASE WHEN ?4 THEN NULL ELSE consultation_meeting_id END, "
        "consulted_on = CASE WHEN ?4 THEN NULL ELSE consulted_on END, updated_at = ?5, "
        "lines_changed_at = CASE WHEN ?6 THEN ?5 ELSE lines_changed_at END WHERE id = ?1");
    bind_parameters(*q, b.id, static_cast<std::int64_t>(notes.has_value()), notes.value_or(""), static_cast<std::int64_t>(back_to_draft), now,
                    static_cast<std::int64_t>(changes && !minor));
    q->exec();
    b = require_budget(call.db, syndicate, b.id, "/id");
    auto out = budget_json(call.db, syndicate, b, checks_of(call.db, syndicate, b, today(call)));
    if (back_to_draft)
        out["warnings"].push_back("The budget changed after the general meeting was consulted on it: it is a draft again, to be presented "
                                  "to a meeting (art. 1072), unless the change is minor (minorChange with a note).");
    return out;
}

}  // namespace syndic::funds
