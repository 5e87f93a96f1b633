#include "modules/accounting/receivables.hpp"

#include <nlohmann/json.hpp>

#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <stdexcept>

#include "core/ids.hpp"
#include "modules/accounting/imputation.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/co_owners/persons.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

namespace {

// The income account a charge of `kind` is earned in, in its fund.
std::string income_role(const std::string& kind) {
    if (kind == "contribution") return "contributions";
    if (kind == "special") return "special-contributions";
    if (kind == "interest" || kind == "fee" || kind == "penalty") return "interest-penalties";
    if (kind == "deposit") return "deposits";
    return "other-income";  // reservation, deductible-recovery, other
}

}  // namespace

std::string id_set(const std::vector<std::string>& ids) { return nlohmann::json(ids).dump(); }

std::string lot_root(Database& db, const std::string& syndicate_id, const std::string& unit_id) {
    // The co-owners are looked up by unit alone (the link is the syndicate's, so are its unit's
    // co-owners): with a syndicate_id term and no ANALYZE statistics, SQLite read the syndicate's
    // every co-owner by name instead (200 units: a third of a voting roll's time).
    auto q = db.prepare(
        "SELECT l.apartment_id FROM unit_links l WHERE l.unit_id = ?1 AND l.syndicate_id = ?2 AND NOT EXISTS ("
        "SELECT 1 FROM co_owners c WHERE c.unit_id = ?1 AND c.deleted_at IS NULL)");
    bind_parameters(*q, unit_id, syndicate_id);
    return q->executeStep() ? q->getColumn(0).getString() : unit_id;
}

std::vector<std::string> lot_units(Database& db, const std::string& syndicate_id, const std::string& root) {
    std::vector<std::string> units{root};
    auto q = db.prepare(
        "SELECT l.unit_id FROM unit_links l JOIN units u ON u.id = l.unit_id WHERE l.apartment_id = ?1 AND l.syndicate_id = ?2 "
        "AND u.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM co_owners c WHERE c.unit_id = l.unit_id AND c.deleted_at IS NULL) "
        "ORDER BY l.unit_id");
    bind_parameters(*q, root, syndicate_id);
    while (q->executeStep()) units.push_back(q->getColumn(0).getString());
    return units;
}

Lots syndicate_lots(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare(
        "SELECT u.id, u.deleted_at IS NULL, l.apartment_id, EXISTS (SELECT 1 FROM co_owners c WHERE c.unit_id = u.id "
        "AND c.deleted_at IS NULL) FROM units u LEFT JOIN unit_links l ON l.unit_id = u.id "
        "AND l.syndicate_id = ?1 WHERE u.syndicate_id = ?1 ORDER BY u.id");
    bind_parameters(*q, syndicate_id);
    Lots lots;
    while (q->executeStep()) {
        auto unit = q->getColumn(0).getString();
        const bool linked = !q->getColumn(2).isNull() && q->getColumn(3).getInt() == 0;
        auto root = linked ? q->getColumn(2).getString() : unit;
        if (linked && q->getColumn(1).getInt() == 1) lots.linked_of[root].push_back(unit);
        lots.root_of.emplace(std::move(unit), std::move(root));
    }
    return lots;
}

std::string Lots::root(const std::string& unit_id) const {
    const auto it = root_of.find(unit_id);
    return it == root_of.end() ? unit_id : it->second;
}

std::vector<std::string> Lots::units(const std::string& root) const {
    std::vector<std::string> out{root};
    if (const auto it = linked_of.find(root); it != linked_of.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    return out;
}

std::vector<std::string> person_lots(Database& db, const std::string& syndicate_id, const std::string& co_owner_id,
                                     const co_owners::Persons& persons) {
    std::vector<std::string> roots;
    const auto key = persons.key_of.find(co_owner_id);
    auto q = db.prepare("SELECT id, unit_id, deleted_at IS NULL FROM co_owners WHERE syndicate_id = ? ORDER BY id");
    bind_parameters(*q, syndicate_id);
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        const bool self = id == co_owner_id;
        const bool same_person = key != persons.key_of.end() && q->getColumn(2).getInt() == 1 && persons.key_of.at(id) == key->second;
        if (!self && !same_person) continue;
        auto root = lot_root(db, syndicate_id, q->getColumn(1).getString());
        if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(std::move(root));
    }
    return roots;
}

bool is_common_expense(const std::string& kind) { return kind == "contribution" || kind == "special"; }

std::int64_t Debt::outstanding() const {
    std::int64_t total = 0;
    for (const auto& [_, cents] : unpaid) total += cents;
    return total;
}

std::string create_charge(Database& db, const std::string& syndicate_id, const ChargeDraft& draft, const std::string& now) {
    std::int64_t amount = 0;
    for (const auto& share : draft.funds) {
        if (share.cents <= 0) throw std::logic_error("a charge's fund share must be above 0 cents");
        amount += share.cents;
    }
    if (amount <= 0) throw std::logic_error("a charge needs a fund share");
    const auto id = new_record_id();
    EntryDraft entry{draft.posted_on, draft.description, draft.entry_source, {}, std::nullopt, std::nullopt};
    for (const auto& share : draft.funds) {
        auto receivable = make_line(system_account(db, syndicate_id, share.fund, "receivables"), share.cents, 0);
        receivable.unit_id = draft.unit_id;
        receivable.charge_id = id;
        entry.lines.push_back(std::move(receivable));
        auto income = make_line(system_account(db, syndicate_id, share.fund, income_role(draft.kind)), 0, share.cents);
        income.unit_id = draft.unit_id;
        income.charge_id = id;
        entry.lines.push_back(std::move(income));
    }
    const auto entry_id = post_entry(db, syndicate_id, entry, now);
    auto q = db.prepare(
        "INSERT INTO charges (id, syndicate_id, unit_id, kind, assessment_notice_id, source_type, source_id, description, posted_on, "
        "due_on, amount_cents, entry_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*q, id, syndicate_id, draft.unit_id, draft.kind, draft.assessment_notice_id, draft.source_type, draft.source_id,
                    draft.description, draft.posted_on, draft.due_on, amount, entry_id, now);
    q->exec();
    auto line = db.prepare("INSERT INTO charge_fund_lines (charge_id, fund, amount_cents) VALUES (?, ?, ?)");
    for (const auto& share : draft.funds) {
        line->reset();
        bind_parameters(*line, id, share.fund, share.cents);
        line->exec();
    }
    apply_credit_from(db, syndicate_id, lot_root(db, syndicate_id, draft.unit_id), draft.posted_on, now);
    return id;
}

std::vector<Debt> open_debts(Database& db, const std::string& syndicate_id, const std::vector<std::string>& unit_ids,
                             const std::string& day) {
    auto q = db.prepare(
        "SELECT c.id, c.unit_id, c.kind, c.due_on, c.description, c.amount_cents, p.id, p.due_on, p.kind, f.fund, f.amount_cents - coalesce(("
        "  SELECT sum(a.amount_cents) FROM payment_allocations a JOIN payments y ON y.id = a.payment_id "
        "  WHERE a.charge_id = c.id AND a.fund = f.fund AND y.status = 'posted' AND a.released_on IS NULL), 0) "
        "FROM charge_settlements s CROSS JOIN charges c ON c.id = s.charge_id JOIN charge_fund_lines f ON f.charge_id = c.id "
        "LEFT JOIN charges p ON c.source_type = 'charge' AND p.id = c.source_id "
        "WHERE s.unit_id IN (SELECT value FROM json_each(?2)) AND s.settled_on = '9999-12-31' "
        "AND c.syndicate_id = ?1 AND c.cancelled_on IS NULL AND c.posted_on <= ?3 "
        "ORDER BY c.due_on, c.id, f.fund");
    bind_parameters(*q, syndicate_id, id_set(unit_ids), day);
    std::vector<Debt> out;
    while (q->executeStep()) {
        const auto id = q->getColumn(0).getString();
        if (out.empty() || out.back().id != id) {
            Debt d;
            d.id = id;
            d.unit_id = q->getColumn(1).getString();
            d.kind = q->getColumn(2).getString();
            d.due_on = q->getColumn(3).getString();
            d.description = q->getColumn(4).getString();
            d.amount_cents = q->getColumn(5).getInt64();
            d.principal_id = optional_text(*q, 6);
            d.principal_due_on = optional_text(*q, 7);
            d.principal_kind = optional_text(*q, 8);
            out.push_back(std::move(d));
        }
        const auto unpaid = q->getColumn(10).getInt64();
        if (unpaid > 0) out.back().unpaid[q->getColumn(9).getString()] = unpaid;
    }
    std::erase_if(out, [](const Debt& d) { return d.outstanding() == 0; });
    return out;
}

}  // namespace syndic::accounting
