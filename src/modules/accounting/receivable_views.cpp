#include "modules/accounting/receivable_views.hpp"

#include <SQLiteCpp/Statement.h>

#include <stdexcept>

#include "core/clock.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

json standing_json(const Standing& s) {
    return {{"asOf", s.as_of},
            {"balanceCents", s.balance_cents},
            {"overdueCents", s.overdue_all_cents},
            {"overdueCommonExpenseCents", s.overdue_cents},
            {"overdueSince", s.overdue_since ? json(*s.overdue_since) : json(nullptr)},
            {"daysOverdue", s.days_overdue},
            {"votingSuspended", s.voting_suspended},
            {"inArrears", s.in_arrears},
            {"hypothecEligible", s.hypothec_eligible},
            {"goodStanding", s.good_standing},
            {"creditCents", s.credit_cents}};
}

void Aging::add(int days, std::int64_t cents) {
    (days <= 30 ? days0to30 : days <= 60 ? days31to60 : days <= 90 ? days61to90 : over90) += cents;
}

void Aging::add(const Aging& o) {
    days0to30 += o.days0to30;
    days31to60 += o.days31to60;
    days61to90 += o.days61to90;
    over90 += o.over90;
}

json Aging::to_json() const {
    return {{"days0to30", days0to30}, {"days31to60", days31to60}, {"days61to90", days61to90}, {"over90", over90}};
}

Aging aging_of(const std::vector<ChargeOnDay>& charges, const std::string& as_of) {
    Aging aging;
    for (const auto& c : charges)
        if (c.unpaid_cents > 0 && c.due_on < as_of) aging.add(calendar_days_between(c.due_on, as_of), c.unpaid_cents);
    return aging;
}

std::string unit_number(Database& db, const std::string& unit_id) {
    auto q = db.prepare("SELECT number FROM units WHERE id = ?");
    bind_parameters(*q, unit_id);
    return q->executeStep() ? q->getColumn(0).getString() : std::string();
}

json payment_json(Database& db, const std::string& syndicate_id, const std::string& payment_id) {
    auto q = db.prepare(
        "SELECT p.id, p.unit_id, p.payer_co_owner_id, p.received_on, p.amount_cents, p.method, p.reference, p.deposit_account_id, "
        "p.designated_charge_ids, p.creditor_consent, p.status, p.reversed_on, p.reversal_reason, p.nsf_fee_charge_id, p.entry_id, "
        "p.created_at, coalesce((SELECT sum(a.amount_cents) FROM payment_allocations a WHERE a.payment_id = p.id AND a.released_on IS NULL), 0) "
        "FROM payments p WHERE p.id = ? AND p.syndicate_id = ?");
    bind_parameters(*q, payment_id, syndicate_id);
    if (!q->executeStep()) throw std::logic_error("no payment " + payment_id);
    const bool reversed = q->getColumn(10).getString() == "reversed";
    const auto amount = q->getColumn(4).getInt64();
    json p = {{"id", q->getColumn(0).getString()},
              {"unitId", q->getColumn(1).getString()},
              {"unitNumber", unit_number(db, q->getColumn(1).getString())},
              {"payerCoOwnerId", nullable_text(q->getColumn(2))},
              {"receivedOn", q->getColumn(3).getString()},
              {"amountCents", amount},
              {"method", q->getColumn(5).getString()},
              {"reference", nullable_text(q->getColumn(6))},
              {"depositAccountId", q->getColumn(7).getString()},
              {"designatedChargeIds", json::parse(q->getColumn(8).getString())},
              {"creditorConsent", q->getColumn(9).getInt64() != 0},
              {"allocations", json::array()},
              // A reversed payment imputes nothing and leaves no credit.
              {"unappliedCents", reversed ? 0 : amount - q->getColumn(16).getInt64()},
              {"status", q->getColumn(10).getString()},
              {"reversedOn", nullable_text(q->getColumn(11))},
              {"reversalReason", nullable_text(q->getColumn(12))},
              {"nsfFeeChargeId", nullable_text(q->getColumn(13))},
              {"entryId", q->getColumn(14).getString()},
              {"createdAt", shown_time(q->getColumn(15))}};
    auto a = db.prepare(
        "SELECT a.charge_id, c.unit_id, c.kind, c.description, c.due_on, a.fund, a.amount_cents, a.applied_on, a.seq, a.released_on "
        "FROM payment_allocations a JOIN charges c ON c.id = a.charge_id WHERE a.payment_id = ? AND NOT EXISTS ("
        "SELECT 1 FROM journal_entries r WHERE r.id = a.release_entry_id AND r.reverses_entry_id = a.entry_id) "
        "ORDER BY a.seq, CASE a.fund WHEN 'operating' THEN 0 WHEN 'contingency' THEN 1 ELSE 2 END");
    bind_parameters(*a, payment_id);
    auto& rows = p["allocations"];
    std::int64_t last_seq = -1;
    while (a->executeStep()) {
        if (a->getColumn(8).getInt64() != last_seq) {
            last_seq = a->getColumn(8).getInt64();
            rows.push_back({{"chargeId", a->getColumn(0).getString()},
                            {"unitId", a->getColumn(1).getString()},
                            {"kind", a->getColumn(2).getString()},
                            {"description", a->getColumn(3).getString()},
                            {"dueOn", a->getColumn(4).getString()},
                            {"appliedOn", a->getColumn(7).getString()},
                            {"releasedOn", nullable_text(a->getColumn(9))},
                            {"amountCents", 0},
                            {"funds", json::array()}});
        }
        auto& row = rows.back();
        row["amountCents"] = row["amountCents"].get<std::int64_t>() + a->getColumn(6).getInt64();
        row["funds"].push_back({{"fund", a->getColumn(5).getString()}, {"amountCents", a->getColumn(6).getInt64()}});
    }
    return p;
}

json charge_json(Database& db, const std::string& syndicate_id, const std::string& charge_id) {
    auto q = db.prepare(
        "SELECT c.id, c.unit_id, c.kind, c.assessment_notice_id, c.source_type, c.source_id, c.description, c.posted_on, c.due_on, "
        "c.amount_cents, c.cancelled_on, c.entry_id, c.created_at, coalesce((SELECT sum(a.amount_cents) FROM payment_allocations a "
        "JOIN payments p ON p.id = a.payment_id WHERE a.charge_id = c.id AND p.status = 'posted' AND a.released_on IS NULL), 0) "
        "FROM charges c WHERE c.id = ? AND c.syndicate_id = ?");
    bind_parameters(*q, charge_id, syndicate_id);
    if (!q->executeStep()) throw std::logic_error("no charge " + charge_id);
    const auto amount = q->getColumn(9).getInt64();
    const auto paid = q->getColumn(13).getInt64();
    const auto kind = q->getColumn(2).getString();
    json c = {{"id", q->getColumn(0).getString()},
              {"unitId", q->getColumn(1).getString()},
              {"unitNumber", unit_number(db, q->getColumn(1).getString())},
              {"kind", kind},
              {"assessmentNoticeId", nullable_text(q->getColumn(3))},
              {"sourceType", nullable_text(q->getColumn(4))},
              {"sourceId", nullable_text(q->getColumn(5))},
              {"description", q->getColumn(6).getString()},
              {"postedOn", q->getColumn(7).getString()},
              {"dueOn", q->getColumn(8).getString()},
              {"amountCents", amount},
              {"fundLines", json::array()},
              {"paidCents", paid},
              {"status", !q->getColumn(10).isNull() ? "cancelled" : paid >= amount ? "paid" : "open"},
              {"isCommonExpense", is_common_expense(kind)},
              {"entryId", q->getColumn(11).getString()},
              {"createdAt", shown_time(q->getColumn(12))}};
    auto f = db.prepare("SELECT fund, amount_cents FROM charge_fund_lines WHERE charge_id = ? "
                        "ORDER BY CASE fund WHEN 'operating' THEN 0 WHEN 'contingency' THEN 1 ELSE 2 END");
    bind_parameters(*f, charge_id);
    while (f->executeStep()) c["fundLines"].push_back({{"fund", f->getColumn(0).getString()}, {"amountCents", f->getColumn(1).getInt64()}});
    return c;
}

}  // namespace syndic::accounting
