// record_declaration_amendment (catalogue §3.1): an amendment of the declaration adopted by the
// co-owners, then, named by its id, its registration at the Land Registry. The decision must be a
// passed resolution of the co-owners to the majority its part needs (art. 1096 for the by-laws,
// 1097 for the constituting act and the descriptive statement, 1098 for a change of destination);
// a change of a unit's relative value needs the written consent of its co-owners (art. 1102) and
// starts from the fraction the unit has (FRACTION_CHANGED_SINCE); the fractions change in the same
// transaction and keep their sum within 99.5-100.5 (decisions 5).
#include <SQLiteCpp/Statement.h>

#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "core/text.hpp"
#include "modules/co_owners/active.hpp"
#include "modules/common.hpp"
#include "modules/list_query.hpp"
#include "modules/declaration/codes.hpp"
#include "modules/declaration/tools.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/units/unit_shares.hpp"
#include "modules/units/units.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::declaration {

using nlohmann::json;

namespace {

// The majority an amendment needs, by what it changes.
std::string majority_needed(const std::string& part, bool destination_change) {
    if (destination_change) return "double";    // art. 1098: 3/4 of co-owners holding 90 % of all votes
    if (part == "by-laws") return "simple";     // art. 1096: by-laws are changed by a majority of the votes cast
    return "absolute";                          // art. 1097: 3/4 of the votes present or represented
}

struct Change {
    std::string unit_id, number, pointer;  // pointer: the change's item in fractionChanges
    Fraction before, after;
    Fraction stated_before;  // the fraction the amendment says the unit has
};

// The active co-owners of a unit's lot (the apartment and its linked units), who hold its vote.
std::vector<std::string> lot_co_owners(Database& db, const std::string& syndicate_id, const std::string& unit_id) {
    const auto lot = lot_of(db, unit_id);
    auto q = db.prepare(
        "SELECT c.id FROM co_owners c WHERE c.syndicate_id = ?1 AND c.deleted_at IS NULL AND c.unit_id IN ("
        "SELECT id FROM units WHERE id = ?2 AND syndicate_id = ?1 UNION ALL "
        "SELECT l.unit_id FROM unit_links l WHERE l.apartment_id = ?2) ORDER BY c.id");
    bind_parameters(*q, syndicate_id, lot);
    std::vector<std::string> out;
    while (q->executeStep()) out.push_back(q->getColumn(0).getString());
    return out;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
    return out;
}

// Registration of an amendment already adopted: its deed, number, day and document.
json register_amendment(const ToolCall& call, const std::string& id) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    for (const char* key : {"part", "summary", "resolutionId", "consents", "fractionChanges", "destinationChange"})
        if (a.has(key))
            throw invalid_argument(a.pointer(key), "cannot change once adopted",
                                   std::string("An adopted amendment keeps its decision: only its registration "
                                               "(deedSignedOn, registrationNumber, registeredOn, documentId) is added; ") +
                                       key + " cannot be given with id.");
    auto current = amendment_json(call.db, syndicate, id);
    json merged = current;
    for (const char* key : {"deedSignedOn", "registrationNumber", "registeredOn", "documentId"})
        if (a.has(key)) merged[key] = a.given(key) ? json(trim(a.text(key))) : json(nullptr);
    const bool registered = merged["registrationNumber"].is_string() && merged["registeredOn"].is_string();
    if (current["status"] == "registered" && !registered)
        throw DomainError(codes::invalid_status_transition,
                          "The amendment is registered; its registration number and day cannot be cleared.")
            .at(a.has("registrationNumber") ? "/registrationNumber" : "/registeredOn")
            .with("status", "registered");
    auto q = call.db.prepare(
        "UPDATE declaration_amendments SET deed_signed_on = ?, registration_number = ?, registered_on = ?, "
        "document_id = ?, status = ?, updated_at = ? WHERE id = ?");
    const auto text_or_null = [&](const char* key) {
        return merged[key].is_null() ? std::nullopt : std::optional(merged[key].get<std::string>());
    };
    bind_parameters(*q, text_or_null("deedSignedOn"), text_or_null("registrationNumber"), text_or_null("registeredOn"),
                    text_or_null("documentId"), registered ? "registered" : "adopted", to_utc_iso(call.clock.now()), id);
    q->exec();
    // Registered by this call: the event says so (a change of the deed's day alone says nothing).
    if (registered && current["status"] != "registered")
        call.name_event("declaration.amendment_registered", "declaration-amendment", id);
    return amendment_json(call.db, syndicate, id);
}

// The records an amendment names, each checked to exist before any rule: the consenting
// co-owners and their documents, the units whose fractions change (each once), the document.
struct AmendmentRecords {
    std::set<std::string> consenting;  // the co-owners whose written consent is given
    std::vector<Change> changes;
};

AmendmentRecords require_amendment_records(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    AmendmentRecords named;
    for (const auto& consent : a.rows("consents")) {
        const std::string& co_owner = consent.text("coOwnerId");
        if (!co_owners::is_active_co_owner(call.db, syndicate, co_owner))
            throw record_not_found("co_owners", co_owner, consent.pointer("coOwnerId"), RecordState::active);
        named.consenting.insert(co_owner);
        if (const auto document = consent.optional_text("documentId"))
            require_record_exists(call.db, syndicate, "documents", *document, consent.pointer("documentId"));
    }
    std::set<std::string> changed_units;
    for (const auto& change : a.rows("fractionChanges")) {
        const std::string& unit = change.text("unitId");
        const auto number = active_unit_number(call.db, syndicate, unit);
        if (!number) throw record_not_found("units", unit, change.pointer("unitId"));
        if (!changed_units.insert(unit).second)
            throw invalid_argument(change.pointer("unitId"), "is named twice", "Unit " + *number + " is named twice in fractionChanges.");
        auto q = call.db.prepare("SELECT fraction_units FROM units WHERE id = ?");
        q->bind(1, unit);
        q->executeStep();
        named.changes.push_back({unit, *number, change.pointer("before"), Fraction::from_units(q->getColumn(0).getInt64()),
                                 Fraction::from_percent(change.number("after")), Fraction::from_percent(change.number("before"))});
    }
    if (a.has("documentId") && !a.is_null("documentId"))
        require_record_exists(call.db, syndicate, "documents", a.text("documentId"), "/documentId");
    return named;
}

// The co-owners' decision a new amendment rests on: a passed resolution of the general meeting to
// the majority its part needs, and at a reconvened meeting also the majority of all votes.
governance::Authorisation require_adopting_decision(const ToolCall& call, const std::optional<std::string>& resolution_id) {
    const auto a = call.arguments();
    for (const char* key : {"part", "summary"})
        if (!a.has(key))
            throw invalid_argument(a.pointer(key), "is required for a new amendment",
                                   std::string("A new amendment needs its ") + key + ".");
    if (!resolution_id)
        throw DomainError(codes::resolution_required,
                          "An amendment of the declaration is adopted by the co-owners: give the passed resolution "
                          "(resolutionId).")
            .at("/resolutionId");
    const auto needed = majority_needed(a.text("part"), a.flag("destinationChange", false));
    // At a meeting reconvened for want of quorum, art. 1097 and 1098 matters also need the
    // majority of all votes (art. 1089 para 2): the central check's 7th refuses them.
    return governance::require_passed_resolution(call, *resolution_id, governance::DecisionBody::general, needed,
                                                 "/resolutionId");
}

// Each change names the fraction the unit has now: an amendment drawn up on fractions since changed
// (a rebalance, another amendment, update_unit) is stale, and applying its `after` would undo them.
void require_current_fractions(const std::vector<Change>& changes) {
    for (const auto& c : changes)
        if (c.stated_before != c.before)
            throw DomainError(codes::fraction_changed_since,
                              "Unit " + c.number + "'s fraction is " + c.before.to_string() + "%, not the " +
                                  c.stated_before.to_string() + "% this change starts from: it changed since the amendment "
                                                                "was drawn up. Read the unit's fraction again.")
                .at(c.pointer)
                .with("unitId", c.unit_id)
                .with("currentPercent", figure(c.before));
}

// Art. 1102: each co-owner whose unit's relative value changes consents in writing.
void require_fraction_consents(const ToolCall& call, const std::set<std::string>& consenting,
                               const std::vector<Change>& changes) {
    std::vector<std::string> units_lacking, numbers_lacking, co_owners_lacking;
    for (const auto& c : changes) {
        if (c.after == c.before) continue;
        bool lacking = false;
        for (const auto& co_owner : lot_co_owners(call.db, call.caller.syndicate_id, c.unit_id))
            if (!consenting.count(co_owner)) {
                co_owners_lacking.push_back(co_owner);
                lacking = true;
            }
        if (lacking) {
            units_lacking.push_back(c.unit_id);
            numbers_lacking.push_back(c.number);
        }
    }
    if (!units_lacking.empty())
        throw DomainError(codes::amendment_consent_missing,
                          "The relative value of unit(s) " + joined(numbers_lacking) +
                              " changes: each of their co-owners must consent in writing (art. 1102), and some have "
                              "not: " + joined(co_owners_lacking) + ".")
            .at("/consents")
            .with("unitIds", joined(units_lacking))
            .with("unitNumbers", joined(numbers_lacking))
            .with("coOwnerIds", joined(co_owners_lacking));
}

// The fractions change now, and their sum stays within 99.5-100.5; each lot's co-owners keep
// their share of it.
void apply_fraction_changes(const ToolCall& call, const std::vector<Change>& changes, const std::string& now) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto sum_before = unit_fraction_sum(call.db, syndicate).sum;
    auto sum_after = sum_before;
    for (const auto& c : changes) sum_after += c.after - c.before;
    if (!changes.empty() && !fraction_sum_in_range(sum_after))
        throw DomainError(codes::fraction_sum_out_of_range,
                          "These fraction changes would bring the units' sum to " + sum_after.to_string() +
                              "%, outside 99.5-100.5.")
            .at("/fractionChanges")
            .with("currentSum", figure(sum_before))
            .with("resultingSum", figure(sum_after))
            .with("min", figure(fraction_sum_min))
            .with("max", figure(fraction_sum_max));
    std::map<std::string, std::pair<Fraction, Fraction>> lots;
    for (const auto& c : changes) lots.emplace(lot_of(call.db, c.unit_id), std::pair<Fraction, Fraction>{});
    for (auto& [lot_id, fractions] : lots) {
        auto q = call.db.prepare(
            "SELECT coalesce(sum(fraction_units), 0) FROM units WHERE syndicate_id = ?1 AND deleted_at IS NULL AND "
            "(id = ?2 OR id IN (SELECT unit_id FROM unit_links WHERE apartment_id = ?2))");
        bind_parameters(*q, syndicate, lot_id);
        q->executeStep();
        fractions.first = Fraction::from_units(q->getColumn(0).getInt64());
        fractions.second = fractions.first;
    }
    for (const auto& c : changes) {
        lots[lot_of(call.db, c.unit_id)].second += c.after - c.before;
        auto q = call.db.prepare("UPDATE units SET fraction_units = ?, updated_at = ? WHERE id = ?");
        bind_parameters(*q, c.after.units(), now, c.unit_id);
        q->exec();
    }
    for (const auto& [lot_id, fractions] : lots)
        scale_lot_co_owners(call.db, syndicate, lot_id, fractions.first, fractions.second, now);
}

// The amendment's row, its consents and its fraction changes; returns its id.
std::string insert_amendment(const ToolCall& call, const governance::Authorisation& decision, const AmendmentRecords& named,
                             const std::string& now) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto id = new_record_id();
    {
        auto q = call.db.prepare(
            "INSERT INTO declaration_amendments (id, syndicate_id, part, summary, resolution_id, decided_on, "
            "contestable_until, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'adopted', ?, ?)");
        bind_parameters(*q, id, syndicate, a.text("part"), a.nonblank("summary"),
                        decision.resolution_id, decision.decided_on, decision.contestable_until, now, now);
        q->exec();
    }
    for (const auto& c : call.arguments().rows("consents")) {
        auto q = call.db.prepare(
            "INSERT INTO amendment_consents (amendment_id, co_owner_id, syndicate_id, document_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING");
        bind_parameters(*q, id, c.text("coOwnerId"), syndicate, c.optional_text("documentId"));
        q->exec();
    }
    for (const auto& c : named.changes) {
        auto q = call.db.prepare(
            "INSERT INTO amendment_fraction_changes (amendment_id, unit_id, syndicate_id, before_units, after_units) "
            "VALUES (?, ?, ?, ?, ?)");
        bind_parameters(*q, id, c.unit_id, syndicate, c.before.units(), c.after.units());
        q->exec();
    }
    return id;
}

// The new amendment as recorded; with its registration when the call gave it at once (an
// amendment recorded after the fact).
json recorded_amendment(const ToolCall& call, const std::string& id) {
    const auto a = call.arguments();
    if (!(a.has("registrationNumber") || a.has("registeredOn") || a.has("deedSignedOn") ||
          a.has("documentId")))
        return amendment_json(call.db, call.caller.syndicate_id, id);
    json only = json::object();
    for (const char* key : {"deedSignedOn", "registrationNumber", "registeredOn", "documentId"})
        if (a.has(key)) only[key] = a.value(key);
    const ToolCall registration{only,         call.caller,        call.db,          call.clock,
                                call.registry, call.control, call.named_events, call.input_schema};
    return register_amendment(registration, id);
}

}  // namespace

json record_declaration_amendment(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;

    // Every record named exists, before any rule.
    if (a.has("id")) require_amendment(call.db, syndicate, a.text("id"), "/id");
    const auto resolution_id = a.optional_text("resolutionId");
    if (resolution_id) governance::require_resolution_exists(call, *resolution_id, "/resolutionId");
    const auto named = require_amendment_records(call);
    for (const char* key : {"deedSignedOn", "registeredOn"}) date_argument(a, key);

    if (a.has("id")) return register_amendment(call, a.text("id"));

    const auto decision = require_adopting_decision(call, resolution_id);
    require_current_fractions(named.changes);
    require_fraction_consents(call, named.consenting, named.changes);
    const std::string now = to_utc_iso(call.clock.now());
    apply_fraction_changes(call, named.changes, now);
    const auto id = insert_amendment(call, decision, named, now);
    call.name_event("declaration.amendment_adopted", "declaration-amendment", id);

    json result = recorded_amendment(call, id);
    json warnings = json::array();
    if (decision.contestable_on(montreal_date(call.clock.now())))
        warnings.push_back("The decision of " + decision.decided_on + " may still be contested in court until " +
                           decision.contestable_until + " (art. 1103: 90 days); acting on it before then carries that risk.");
    result["warnings"] = std::move(warnings);
    result["fractionSum"] = fraction_sum_json(unit_fraction_sum(call.db, syndicate));
    return result;
}

}  // namespace syndic::declaration
