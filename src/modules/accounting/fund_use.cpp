#include "modules/accounting/fund_use.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

namespace {

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

}  // namespace

std::string use_of(const std::string& fund) {
    return fund == "contingency" ? "the contingency fund pays only major repairs and replacements of common portions (art. 1071)"
                                 : "the self-insurance fund pays only deductibles and uninsured damage (art. 1071.1)";
}

FundUseAuthorization require_authorization(Database& db, const std::string& syndicate_id, const std::string& id,
                                           const std::string& field) {
    auto q = db.prepare(
        "SELECT a.id, a.fund, a.purpose, a.use_kind, a.resolution_id, a.status, a.created_at, a.updated_at, a.project_id, "
        "a.insurance_claim_id, a.amount_cents, coalesce((SELECT sum(u.cents) FROM fund_use_authorization_uses u "
        "WHERE u.authorization_id = a.id), 0) FROM fund_use_authorizations a WHERE a.id = ? AND a.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep())
        throw DomainError(codes::fund_use_authorization_not_found, "No authorisation " + id + " to use a fund in this syndicate.").at(field);
    FundUseAuthorization a;
    a.id = q->getColumn(0).getString();
    a.fund = q->getColumn(1).getString();
    a.purpose = q->getColumn(2).getString();
    a.use_kind = q->getColumn(3).getString();
    a.resolution_id = q->getColumn(4).getString();
    a.status = q->getColumn(5).getString();
    a.created_at = q->getColumn(6).getString();
    a.updated_at = q->getColumn(7).getString();
    a.project_id = optional_text(*q, 8);
    a.insurance_claim_id = optional_text(*q, 9);
    a.amount_cents = q->getColumn(10).getInt64();
    a.used_cents = q->getColumn(11).getInt64();
    return a;
}

std::int64_t authorized_unused(Database& db, const std::string& syndicate_id, const std::string& fund, const std::string& as_of) {
    const auto end = montreal_day_start(as_of, 1);
    const auto before = end ? to_utc_iso(*end) : as_of;  // the first instant after the day
    auto q = db.prepare(
        "SELECT coalesce(sum(a.amount_cents - coalesce((SELECT sum(u.cents) FROM fund_use_authorization_uses u JOIN journal_entries e "
        "ON e.id = u.entry_id WHERE u.authorization_id = a.id AND e.entry_date <= ?3), 0)), 0) FROM fund_use_authorizations a "
        "WHERE a.syndicate_id = ?1 AND a.fund = ?2 AND a.created_at < ?4 "
        // A used authorisation (its project closed, or spent whole) allows nothing from the day it was used.
        "AND (a.status = 'authorized' OR (a.status = 'used' AND a.updated_at >= ?4))");
    bind_parameters(*q, syndicate_id, fund, as_of, before);
    q->executeStep();
    return q->getColumn(0).getInt64();
}

std::string record_authorization(Database& db, const std::string& syndicate_id, const FundUseAuthorization& draft,
                                 const std::string& now) {
    const auto id = new_record_id();
    auto q = db.prepare(
        "INSERT INTO fund_use_authorizations (id, syndicate_id, fund, amount_cents, purpose, use_kind, project_id, insurance_claim_id, "
        "resolution_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate_id, draft.fund, draft.amount_cents, draft.purpose, draft.use_kind, draft.project_id,
                    draft.insurance_claim_id, draft.resolution_id, now, now);
    q->exec();
    return id;
}

std::map<std::string, std::int64_t> money_leaving(Database& db, const std::string& syndicate_id, const EntryDraft& draft) {
    std::map<std::string, std::int64_t> out;
    if (draft.source == "opening") return out;
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
        if (leaving > 0) out[fund] = leaving;
    }
    return out;
}

std::int64_t require_fund_use_allowed(Database& db, const std::string& syndicate_id, const EntryDraft& draft,
                                      const std::optional<FundUseAuthorization>& authorization, const std::string& field) {
    std::int64_t used = 0;
    for (const auto& [fund, leaving] : money_leaving(db, syndicate_id, draft)) {
        if (!authorization || authorization->fund != fund)
            throw DomainError(codes::fund_use_not_allowed,
                              std::to_string(leaving) + " cents would leave the " + fund + " fund without an authorisation of that fund: " +
                                  use_of(fund) + ". Give fundUseAuthorizationId (authorize_fund_use), or repay only what the fund owes through its interfund account.")
                .at("/lines")
                .with("fund", fund)
                .with("cents", leaving);
        if (leaving > authorization->remaining_cents())
            throw DomainError(codes::fund_use_exceeded,
                              "The authorisation " + authorization->id + " (" + authorization->purpose + ") allows " +
                                  std::to_string(authorization->remaining_cents()) + " cents more from the " + fund + " fund; this takes " +
                                  std::to_string(leaving) + ". The board authorises more with another authorize_fund_use.")
                .at(field)
                .with("remainingCents", authorization->remaining_cents())
                .with("cents", leaving);
        used = leaving;
    }
    return used;
}

void record_fund_use(Database& db, const FundUseAuthorization& authorization, const std::string& entry_id, std::int64_t cents,
                     const std::string& now) {
    if (cents <= 0) return;
    auto q = db.prepare("INSERT INTO fund_use_authorization_uses (authorization_id, entry_id, cents) VALUES (?, ?, ?)");
    bind_parameters(*q, authorization.id, entry_id, cents);
    q->exec();
    if (cents < authorization.remaining_cents()) return;
    auto done = db.prepare("UPDATE fund_use_authorizations SET status = 'used', updated_at = ? WHERE id = ?");
    bind_parameters(*done, now, authorization.id);
    done->exec();
}

void use_up_project_authorizations(Database& db, const std::string& syndicate_id, const std::string& project_id, const std::string& now) {
    auto q = db.prepare(
        "UPDATE fund_use_authorizations SET status = 'used', updated_at = ? WHERE syndicate_id = ? AND project_id = ? AND status = 'authorized'");
    bind_parameters(*q, now, syndicate_id, project_id);
    q->exec();
}

}  // namespace syndic::accounting
