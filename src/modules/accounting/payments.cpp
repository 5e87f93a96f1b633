// record_payment and reverse_payment (catalogue §4.4): a co-owner's payment imputed to what the
// lot owes as arts. 1569-1572 say, its credit kept for what falls due later; a payment undone
// (NSF, an error) by counter-entries, its charges reopened, an NSF fee charged when the
// declaration sets one. Both answer the lot's standing before and after.
#include <SQLiteCpp/Statement.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/accounting/codes.hpp"
#include "modules/accounting/imputation.hpp"
#include "modules/accounting/ledger.hpp"
#include "modules/accounting/receivable_views.hpp"
#include "modules/accounting/receivables.hpp"
#include "modules/accounting/standing.hpp"
#include "modules/accounting/tools.hpp"
#include "modules/co_owners/persons.hpp"
#include "modules/common.hpp"
#include "modules/declaration/parameters.hpp"
#include "modules/list_query.hpp"
#include "modules/record_exists.hpp"
#include "modules/record_table.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::accounting {

using nlohmann::json;

namespace {

// The deposit account: the one given (a bank account of the syndicate), else the operating bank.
Account deposit_account(Database& db, const std::string& syndicate_id, const Arguments& a) {
    const auto id = a.optional_text("depositAccountId");
    if (!id) return system_account(db, syndicate_id, "operating", "bank");
    auto account = require_account(db, syndicate_id, *id, "/depositAccountId");
    if (!account.is_bank)
        throw invalid_argument("/depositAccountId", "is not a bank account",
                               "The account " + account.code + " (" + account.name + ") is not a bank account: a payment lands in one.");
    return account;
}

// The debts a payment may pay: the lot's, and by designation those of the payer's other lots.
std::vector<Debt> payable_debts(Database& db, const std::string& syndicate_id, const std::vector<std::string>& lot,
                                const std::optional<std::string>& payer, const std::vector<std::string>& designated,
                                const std::string& received_on) {
    std::vector<std::string> units = lot;
    if (payer && !designated.empty())
        for (const auto& root : person_lots(db, syndicate_id, *payer, co_owners::persons_of(db, syndicate_id)))
            for (auto& u : lot_units(db, syndicate_id, root))
                if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(std::move(u));
    auto debts = open_debts(db, syndicate_id, units, received_on);
    auto check = db.prepare("SELECT unit_id, posted_on FROM charges WHERE id = ? AND syndicate_id = ?");
    for (std::size_t i = 0; i < designated.size(); ++i) {
        const auto field = "/designatedChargeIds/" + std::to_string(i);
        check->reset();
        bind_parameters(*check, designated[i], syndicate_id);
        if (!check->executeStep()) throw record_not_found("charges", designated[i], field);
        if (std::find(units.begin(), units.end(), check->getColumn(0).getString()) == units.end())
            throw invalid_argument(field, "is a charge of another lot",
                                   "The charge " + designated[i] + " is not owed by this unit's lot" +
                                       (payer ? std::string(" nor by another lot of the payer") : std::string(" (give payerCoOwnerId to pay another lot of the same person)")) +
                                       ".");
        if (check->getColumn(1).getString() > received_on)
            throw invalid_argument(field, "was not owed yet when the payment was received",
                                   "The charge " + designated[i] + " was posted on " + check->getColumn(1).getString() +
                                       ", after the payment was received (" + received_on + "): a payment pays only what was owed by then.");
    }
    // The debts of the payer's other lots are paid only when designated.
    std::erase_if(debts, [&](const Debt& d) {
        return std::find(lot.begin(), lot.end(), d.unit_id) == lot.end() &&
               std::find(designated.begin(), designated.end(), d.id) == designated.end();
    });
    return debts;
}

// The payer is a co-owner (now or formerly) of the lot: one of the person's records, whatever its
// state, is on one of the lot's units.
void require_payer_of_lot(Database& db, const std::string& syndicate_id, const std::string& payer, const std::vector<std::string>& lot) {
    const auto persons = co_owners::persons_of(db, syndicate_id);
    const auto key = persons.key_of.find(payer);
    auto q = db.prepare("SELECT id FROM co_owners WHERE syndicate_id = ?1 AND unit_id IN (SELECT value FROM json_each(?2))");
    bind_parameters(*q, syndicate_id, id_set(lot));
    while (q->executeStep()) {
        const auto holder = persons.key_of.find(q->getColumn(0).getString());
        if (key != persons.key_of.end() && holder != persons.key_of.end() && holder->second == key->second) return;
    }
    throw invalid_argument("/payerCoOwnerId", "holds no unit of this lot",
                           "The payer is recorded as a co-owner of none of the lot's units, now or formerly: a payment for a unit is "
                           "recorded for the lot's co-owner (leave payerCoOwnerId out when someone else paid).");
}

void require_not_future(const std::string& day, const std::string& today, const std::string& field, const char* what) {
    if (day <= today) return;
    throw invalid_argument(field, "is after today", std::string("A payment is ") + what + " on a day that has come: " + day +
                                                        " is after today, " + today + ".");
}

// The NSF fee to charge: none unless chargeNsfFee; then only for reason nsf (VALIDATION_FAILED) and
// only when the declaration sets one (NSF_FEE_NOT_SET).
std::optional<std::int64_t> nsf_fee_of(const ToolCall& call, const Arguments& a, const std::string& reason) {
    const bool nsf_fee = a.flag("chargeNsfFee", false);
    std::optional<std::int64_t> fee;
    if (nsf_fee) {
        if (reason != "nsf")
            throw invalid_argument("/chargeNsfFee", "is for a payment returned NSF",
                                   "An NSF fee is charged only for a payment the bank returned (reason nsf).");
        fee = declaration::arrears_parameters(call.db, call.caller.syndicate_id).nsf_fee_cents;
        if (!fee || *fee <= 0)
            throw DomainError(codes::nsf_fee_not_set,
                              "The declaration sets no NSF fee (nsfFeeCents): none can be charged. Record it with update_declaration "
                              "if the declaration provides one, or reverse without chargeNsfFee.")
                .at("/chargeNsfFee");
    }
    return fee;
}

// Posts the counter-entry of every entry the payment posted (its receipt, its credit applied
// later), dated `reversed_on`; returns the lots whose charges it paid, its own first.
std::vector<std::string> undo_payment_entries(const ToolCall& call, const std::string& id, const std::string& unit_id, const std::string& root,
                                              const std::string& reversed_on, const std::string& reason, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    // The lots whose charges the payment paid: their credit may pay what reopens.
    std::vector<std::string> lots{root};
    auto touched = call.db.prepare(
        "SELECT DISTINCT c.unit_id FROM payment_allocations a JOIN charges c ON c.id = a.charge_id WHERE a.payment_id = ?");
    bind_parameters(*touched, id);
    while (touched->executeStep()) {
        auto lot = lot_root(call.db, syndicate, touched->getColumn(0).getString());
        if (std::find(lots.begin(), lots.end(), lot) == lots.end()) lots.push_back(std::move(lot));
    }
    // Its receipt, its credit applied later and given back by cancelled charges; not what was
    // applied then undone to be planned again in order (an entry and its counter-entry).
    std::vector<std::string> entries;
    auto e = call.db.prepare(
        "WITH kept AS (SELECT a.* FROM payment_allocations a WHERE a.payment_id = ?1 AND NOT EXISTS (SELECT 1 FROM journal_entries r "
        "WHERE r.id = a.release_entry_id AND r.reverses_entry_id = a.entry_id)) "
        "SELECT entry_id FROM payments WHERE id = ?1 UNION SELECT entry_id FROM kept "
        "UNION SELECT release_entry_id FROM kept WHERE release_entry_id IS NOT NULL");
    bind_parameters(*e, id);
    while (e->executeStep()) entries.push_back(e->getColumn(0).getString());
    const std::string label = reason == "nsf" ? "Paiement retourné (sans provision)" : reason == "error" ? "Paiement annulé (saisi par erreur)"
                                                                                                      : "Paiement annulé";
    for (const auto& entry : entries)
        post_counter_entry(call.db, syndicate, entry, reversed_on, label + " — unité " + unit_number(call.db, unit_id), "reversal",
                           "/reversedOn", now);
    return lots;
}

}  // namespace

json record_payment(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto unit_id = a.text("unitId");
    require_record_exists(call.db, syndicate, "units", unit_id, "/unitId", RecordState::active);
    const auto payer = a.optional_text("payerCoOwnerId");
    // A former co-owner may still pay what the lot owed in their time.
    if (payer) require_record_exists(call.db, syndicate, "co_owners", *payer, "/payerCoOwnerId", RecordState::any);
    const auto deposit = deposit_account(call.db, syndicate, a);
    const auto received_on = *date_argument(a, "receivedOn");
    const auto today = syndic::today(call);
    require_not_future(received_on, today, "/receivedOn", "received");
    const auto designated = a.texts("designatedChargeIds");
    const auto root = lot_root(call.db, syndicate, unit_id);
    const auto lot = lot_units(call.db, syndicate, root);
    if (payer) require_payer_of_lot(call.db, syndicate, *payer, lot);
    auto debts = payable_debts(call.db, syndicate, lot, payer, designated, received_on);
    require_open_period(call.db, syndicate, received_on, "/receivedOn");

    const auto before = lot_standing(call.db, syndicate, root, today);
    const bool consent = a.flag("creditorConsent", false);
    const auto imputation = plan_imputation(debts, {a.integer("amountCents"), received_on, designated, consent});
    const auto id = new_record_id();
    const auto now = to_utc_iso(call.clock.now());
    const auto reference = a.optional_nonblank("reference");
    MoneySource source{deposit, received_on,
                       "Paiement reçu — unité " + unit_number(call.db, unit_id) + (reference ? " (" + *reference + ")" : std::string()),
                       "payment", unit_id, payer};
    const auto entry_id = post_imputation(call.db, syndicate, source, imputation, now);
    auto insert = call.db.prepare(
        "INSERT INTO payments (id, syndicate_id, unit_id, payer_co_owner_id, received_on, amount_cents, method, reference, "
        "deposit_account_id, designated_charge_ids, creditor_consent, entry_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    bind_parameters(*insert, id, syndicate, unit_id, payer, received_on, a.integer("amountCents"), a.text("method"), reference,
                    deposit.id, id_set(designated), static_cast<std::int64_t>(consent), entry_id, now);
    insert->exec();
    record_allocations(call.db, id, imputation, 0, received_on, entry_id);
    // Credit left on receivedOn meets the charges posted after it (a payment entered late).
    if (imputation.unapplied_cents > 0) apply_credit_from(call.db, syndicate, root, received_on, now);
    call.name_event("payment.received", "payment", id);
    const auto after = lot_standing(call.db, syndicate, root, today);
    const bool restored = before.voting_suspended && !after.voting_suspended;
    if (restored) call.name_event("unit.voting_restored", "unit", root);
    auto result = payment_json(call.db, syndicate, id);
    result["standingBefore"] = standing_json(before);
    result["standingAfter"] = standing_json(after);
    result["votingRestored"] = restored;
    return result;
}

json reverse_payment(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto id = a.text("id");
    require_record_exists(call.db, syndicate, "payments", id, "/id");
    auto q = call.db.prepare("SELECT unit_id, received_on, status, reversed_on FROM payments WHERE id = ?");
    bind_parameters(*q, id);
    q->executeStep();
    const auto unit_id = q->getColumn(0).getString();
    const auto received_on = q->getColumn(1).getString();
    if (q->getColumn(2).getString() == "reversed")
        throw DomainError(codes::already_reversed, "The payment " + id + " was reversed on " + q->getColumn(3).getString() + ".")
            .at("/id")
            .with("reversedOn", q->getColumn(3).getString());
    const auto reason = a.text("reason");
    const auto reversed_on = *date_argument(a, "reversedOn");
    const auto today = syndic::today(call);
    require_not_future(reversed_on, today, "/reversedOn", "reversed");
    if (reversed_on < received_on)
        throw invalid_argument("/reversedOn", "is before the payment was received",
                               "The payment was received on " + received_on + "; it is reversed on that day or later.");
    // A counter-entry never comes before the entry it undoes. What the lot's credit paid after the
    // reversal's day is planned again from that day (it may not be this payment's any more); a
    // charge cancelled later that gave part of it back is undone on that day or after.
    const auto root = lot_root(call.db, syndicate, unit_id);
    const auto now = to_utc_iso(call.clock.now());
    unapply_credit_after(call.db, syndicate, root, reversed_on, now);
    auto last = call.db.prepare(
        "SELECT max(max(a.applied_on, coalesce(a.released_on, ''))) FROM payment_allocations a WHERE a.payment_id = ? AND NOT EXISTS ("
        "SELECT 1 FROM journal_entries r WHERE r.id = a.release_entry_id AND r.reverses_entry_id = a.entry_id)");
    bind_parameters(*last, id);
    if (last->executeStep() && !last->getColumn(0).isNull() && reversed_on < last->getColumn(0).getString())
        throw invalid_argument("/reversedOn", "is before part of the payment was applied",
                               "Part of the payment paid a charge, or was given back by a cancelled charge, on " + last->getColumn(0).getString() +
                                   ": the payment is reversed on that day or later.");
    const auto fee = nsf_fee_of(call, a, reason);
    require_open_period(call.db, syndicate, reversed_on, "/reversedOn");
    const auto before = lot_standing(call.db, syndicate, root, today);
    const auto lots = undo_payment_entries(call, id, unit_id, root, reversed_on, reason, now);
    auto mark = call.db.prepare("UPDATE payments SET status = 'reversed', reversed_on = ?, reversal_reason = ? WHERE id = ?");
    bind_parameters(*mark, reversed_on, reason, id);
    mark->exec();
    call.name_event("payment.reversed", "payment", id);
    if (fee) {
        const auto charge = create_charge(call.db, syndicate,
                                          {unit_id, "fee", "Frais pour paiement sans provision", reversed_on, reversed_on, "fee",
                                           std::string("payment"), id, std::nullopt, {{"operating", *fee}}},
                                          now);
        auto link = call.db.prepare("UPDATE payments SET nsf_fee_charge_id = ? WHERE id = ?");
        bind_parameters(*link, charge, id);
        link->exec();
        call.name_event("charge.created", "charge", charge);
    }
    // Another payment's credit may pay what reopened.
    for (const auto& lot : lots) apply_credit_from(call.db, syndicate, lot, reversed_on, now);
    const auto after = lot_standing(call.db, syndicate, root, today);
    const bool suspended = !before.voting_suspended && after.voting_suspended;
    if (suspended) call.name_event("unit.voting_suspended", "unit", root);
    auto result = payment_json(call.db, syndicate, id);
    result["standingBefore"] = standing_json(before);
    result["standingAfter"] = standing_json(after);
    result["votingSuspended"] = suspended;
    return result;
}

}  // namespace syndic::accounting
