#include "modules/assessment_notices/notice_store.hpp"

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/error.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::assessment_notices {

using nlohmann::json;

Notice require_notice(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    auto q = db.prepare(
        "SELECT id, number, kind, unit_id, status, language, fiscal_year, total_cents, addressees FROM assessment_notices "
        "WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep())
        throw DomainError("ASSESSMENT_NOTICE_NOT_FOUND", "No assessment notice with id " + id + " in this syndicate.").at(field);
    return {q->getColumn(0).getString(), q->getColumn(1).getString(), q->getColumn(2).getString(), q->getColumn(3).getString(),
            q->getColumn(4).getString(), q->getColumn(5).getString(), q->getColumn(6).getInt(), q->getColumn(7).getInt64(),
            json::parse(q->getColumn(8).getString())};
}

json addressees_of(Database& db, const std::string& syndicate_id, const std::vector<std::string>& units) {
    auto q = db.prepare(
        "SELECT id, first_name || ' ' || last_name, email, language FROM co_owners WHERE syndicate_id = ?1 AND deleted_at IS NULL "
        "AND unit_id IN (SELECT value FROM json_each(?2)) ORDER BY is_primary DESC, sort_key, id");
    bind_parameters(*q, syndicate_id, accounting::id_set(units));
    json out = json::array();
    while (q->executeStep())
        out.push_back({{"coOwnerId", q->getColumn(0).getString()}, {"name", q->getColumn(1).getString()},
                       {"email", nullable_text(q->getColumn(2))}, {"language", q->getColumn(3).getString()}});
    return out;
}

std::string next_number(Database& db, const std::string& syndicate_id, int fiscal_year) {
    auto q = db.prepare(
        "SELECT coalesce(max(CAST(substr(number, 6) AS INTEGER)), 0) + 1 FROM assessment_notices WHERE syndicate_id = ? AND fiscal_year = ?");
    bind_parameters(*q, syndicate_id, static_cast<std::int64_t>(fiscal_year));
    q->executeStep();
    char text[32];
    std::snprintf(text, sizeof text, "%d-%03lld", fiscal_year, static_cast<long long>(q->getColumn(0).getInt64()));
    return text;
}

std::vector<std::string> draft_numbers(Database& db, const std::string& syndicate_id, int fiscal_year) {
    auto q = db.prepare("SELECT number FROM assessment_notices WHERE syndicate_id = ? AND fiscal_year = ? AND status = 'draft' ORDER BY number");
    bind_parameters(*q, syndicate_id, static_cast<std::int64_t>(fiscal_year));
    std::vector<std::string> out;
    while (q->executeStep()) out.push_back(q->getColumn(0).getString());
    return out;
}

json notice_json(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT id, number, fiscal_year, kind, budget_id, special_assessment_id, unit_id, addressees, total_cents, status, issued_at, "
        "document_ids, language, cancel_reason, created_at, updated_at FROM assessment_notices WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw std::logic_error("no assessment notice " + id);
    const auto total = q->getColumn(8).getInt64();
    json n = {{"id", q->getColumn(0).getString()},
              {"number", q->getColumn(1).getString()},
              {"fiscalYear", q->getColumn(2).getInt64()},
              {"kind", q->getColumn(3).getString()},
              {"budgetId", nullable_text(q->getColumn(4))},
              {"specialAssessmentId", nullable_text(q->getColumn(5))},
              {"unitId", q->getColumn(6).getString()},
              {"unitNumber", accounting::unit_number(db, q->getColumn(6).getString())},
              {"addressees", json::parse(q->getColumn(7).getString())},
              {"lines", json::array()},
              {"totalCents", total},
              {"installments", json::array()},
              {"status", q->getColumn(9).getString()},
              {"issuedAt", shown_time(q->getColumn(10))},
              {"documentIds", json::parse(q->getColumn(11).getString())},
              {"language", q->getColumn(12).getString()},
              {"cancelReason", nullable_text(q->getColumn(13))},
              {"createdAt", shown_time(q->getColumn(14))},
              {"updatedAt", shown_time(q->getColumn(15))}};
    auto lines = db.prepare(
        "SELECT unit_id, fund, description, amount_cents, basis, common_portion_id FROM assessment_notice_lines WHERE notice_id = ? "
        "ORDER BY line_no");
    bind_parameters(*lines, id);
    while (lines->executeStep())
        n["lines"].push_back({{"unitId", lines->getColumn(0).getString()}, {"unitNumber", accounting::unit_number(db, lines->getColumn(0).getString())},
                              {"fund", lines->getColumn(1).getString()}, {"description", lines->getColumn(2).getString()},
                              {"amountCents", lines->getColumn(3).getInt64()}, {"basis", lines->getColumn(4).getString()},
                              {"commonPortionId", nullable_text(lines->getColumn(5))}});
    // Instalments by number: their due date, amount, amount by fund, and the charges they became.
    auto inst = db.prepare(
        "SELECT number, due_on, fund, sum(amount_cents), json_group_array(DISTINCT charge_id) FILTER (WHERE charge_id IS NOT NULL) "
        "FROM assessment_notice_instalments WHERE notice_id = ? GROUP BY number, fund ORDER BY number, "
        "CASE fund WHEN 'operating' THEN 0 WHEN 'contingency' THEN 1 ELSE 2 END");
    bind_parameters(*inst, id);
    std::map<std::int64_t, json> by_number;
    while (inst->executeStep()) {
        auto& i = by_number[inst->getColumn(0).getInt64()];
        if (i.is_null()) i = {{"number", inst->getColumn(0).getInt64()}, {"dueOn", inst->getColumn(1).getString()}, {"amountCents", 0},
                              {"byFund", json::object()}, {"chargeIds", json::array()}};
        i["amountCents"] = i["amountCents"].get<std::int64_t>() + inst->getColumn(3).getInt64();
        i["byFund"][inst->getColumn(2).getString()] = inst->getColumn(3).getInt64();
        if (!inst->getColumn(4).isNull())
            for (const auto& c : json::parse(inst->getColumn(4).getString()))
                if (std::find(i["chargeIds"].begin(), i["chargeIds"].end(), c) == i["chargeIds"].end()) i["chargeIds"].push_back(c);
    }
    for (auto& [_, i] : by_number) n["installments"].push_back(std::move(i));
    n["specialAssessment"] = nullptr;
    if (!q->getColumn(5).isNull()) {
        auto s = db.prepare("SELECT title, reason, fund, decided_on FROM special_assessments WHERE id = ?");
        bind_parameters(*s, q->getColumn(5).getString());
        if (s->executeStep())
            n["specialAssessment"] = {{"id", q->getColumn(5).getString()}, {"title", s->getColumn(0).getString()},
                                      {"reason", s->getColumn(1).getString()}, {"fund", s->getColumn(2).getString()},
                                      {"decidedOn", s->getColumn(3).getString()}};
    }
    // Paid: what posted payments imputed to the notice's charges.
    auto paid = db.prepare(
        "SELECT coalesce(sum(a.amount_cents), 0) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id JOIN charges c "
        "ON c.id = a.charge_id WHERE c.assessment_notice_id = ? AND p.status = 'posted' AND a.released_on IS NULL");
    bind_parameters(*paid, id);
    paid->executeStep();
    const auto paid_cents = paid->getColumn(0).getInt64();
    n["paidCents"] = paid_cents;
    n["balanceCents"] = n["status"] == "issued" ? total - paid_cents : 0;
    return n;
}

}  // namespace syndic::assessment_notices
