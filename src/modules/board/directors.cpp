// appoint_director, update_director and end_director_mandate (catalogue §4.3): directors elected
// by the co-owners' meeting (art. 1096) or appointed by the board to a vacancy when the
// declaration allows it, within the declaration's board size, one president, secretary and
// treasurer at a time, for the declaration's term or 1 year (art. 339); a co-owner in arrears is
// appointed with a warning (art. 1086 lets the syndicate replace them) unless a by-law clause bars
// them; an ended mandate is kept as history, and removal is the co-owners' decision (art. 1096).
#include <SQLiteCpp/Statement.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/ids.hpp"
#include "modules/board/codes.hpp"
#include "modules/board/tools.hpp"
#include "modules/common.hpp"
#include "modules/governance/authorisation.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"
#include "storage/bind.hpp"

namespace syndic::board {

using nlohmann::json;

namespace {

struct CoOwnerContact {
    std::string name;
    std::optional<std::string> email, phone;
};

// The co-owner's name and contact, or CO_OWNER_NOT_FOUND (archived ones too).
CoOwnerContact require_co_owner(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT first_name || ' ' || last_name, email, phone FROM co_owners "
        "WHERE id = ? AND syndicate_id = ? AND deleted_at IS NULL");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) throw record_not_found("co_owners", id, "/coOwnerId", RecordState::active);
    CoOwnerContact c{q->getColumn(0).getString(), std::nullopt, std::nullopt};
    if (!q->getColumn(1).isNull()) c.email = q->getColumn(1).getString();
    if (!q->getColumn(2).isNull()) c.phone = q->getColumn(2).getString();
    return c;
}

// The end of the term a board appointment fills: that of the latest mandate ended before its term
// ran out (resignation, removal, death...) whose term ends on or after `from`; nullopt when none.
std::optional<std::string> vacated_term_end(Database& db, const std::string& syndicate_id, const std::string& from) {
    auto q = db.prepare(
        "SELECT term_end FROM directors WHERE syndicate_id = ? AND status = 'ended' AND end_reason <> 'term' "
        "AND term_end IS NOT NULL AND term_end >= ? ORDER BY ended_on DESC, updated_at DESC LIMIT 1");
    bind_parameters(*q, syndicate_id, from);
    if (!q->executeStep()) return std::nullopt;
    return q->getColumn(0).getString();
}

// Who is appointed: a co-owner where the declaration requires one, a name for an outside
// director, not a director already.
void check_appointee(const ToolCall& call, const BoardRules& rules, const std::optional<std::string>& co_owner_id,
                     const std::optional<CoOwnerContact>& co_owner, const std::optional<std::string>& name) {
    if (!co_owner_id && rules.must_be_co_owners)
        throw DomainError(codes::co_owner_required,
                          "The declaration requires directors to be co-owners: name the co-owner (coOwnerId).")
            .at("/coOwnerId");
    if (!co_owner && (!name || name->empty()))
        throw invalid_argument("/name", "is required for an outside director",
                               "Name the director: a co-owner (coOwnerId) or an outside person (name).");
    if (!co_owner_id) return;
    auto q = call.db.prepare("SELECT 1 FROM directors WHERE syndicate_id = ? AND co_owner_id = ? AND status = 'active'");
    bind_parameters(*q, call.caller.syndicate_id, *co_owner_id);
    if (q->executeStep())
        throw invalid_argument("/coOwnerId", "is already a director",
                               co_owner->name + " is already a director; change the office with update_director.");
}

// The decision behind the appointment: the co-owners' passed resolution for an election, the
// board's for a vacancy where the declaration lets the board fill one.
void check_appointing_decision(const ToolCall& call, const BoardRules& rules, const std::string& appointed_by,
                               const std::optional<std::string>& resolution_id) {
    if (appointed_by != "meeting" && appointed_by != "board-vacancy") return;
    const bool board = appointed_by == "board-vacancy";
    if (!resolution_id)
        throw DomainError(syndic::codes::resolution_required,
                          board ? "A board appointment to a vacancy needs the board's passed resolution (resolutionId)."
                                : "An election by the co-owners needs their passed resolution (resolutionId, art. 1096).")
            .at("/resolutionId");
    if (board && !rules.vacancy_filled_by_board)
        throw DomainError(syndic::codes::wrong_decision_body,
                          "The declaration does not let the board fill a vacancy (vacancyFilledByBoard): the "
                          "co-owners' meeting elects the director.")
            .at("/appointedBy")
            .with("body", "board")
            .with("requiredBody", "general");
    governance::require_passed_resolution(call, *resolution_id,
                                        board ? governance::DecisionBody::board : governance::DecisionBody::general,
                                        "simple", "/resolutionId");
}

// A seat and the office: the board is not full (boardSize.max), and a single office is free.
void check_seat(const ToolCall& call, const BoardRules& rules, const std::string& role) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto seated = active_director_count(call.db, syndicate);
    if (rules.size_max && seated >= *rules.size_max)
        throw DomainError(codes::board_full, "The board already has " + std::to_string(seated) +
                                                 " directors, the most the declaration allows (boardSize.max).")
            .with("max", *rules.size_max)
            .with("activeDirectors", seated);
    check_single_office(call.db, syndicate, role, "", "/role");
}

// A term that ends before it starts is refused.
void require_term_order(const std::string& term_start, const std::optional<std::string>& term_end) {
    if (term_end && *term_end < term_start)
        throw DomainError(syndic::codes::invalid_date_range,
                          "The term ends on " + *term_end + ", before it starts on " + term_start + ".")
            .at("/termEnd")
            .with("termStart", term_start)
            .with("termEnd", *term_end);
}

// The term's end: the rest of the vacated one for a board appointment, else the one given, else
// the declaration's length.
std::string appointed_term_end(const ToolCall& call, const BoardRules& rules, const std::string& appointed_by,
                                              const std::string& term_start, std::optional<std::string> term_end) {
    if (appointed_by == "board-vacancy")
        if (const auto vacated = vacated_term_end(call.db, call.caller.syndicate_id, term_start)) {
            if (term_end && *term_end > *vacated)
                throw DomainError(syndic::codes::invalid_date_range,
                                  "A director the board appoints to a vacancy serves the rest of the term, which ends on " +
                                      *vacated + ".")
                    .at("/termEnd")
                    .with("termEnd", *term_end)
                    .with("vacatedTermEnd", *vacated);
            if (!term_end) term_end = vacated;
        }
    // Art. 339: the declaration's length, 1 year when the by-laws are silent; null asks for it too.
    return term_end ? *term_end : default_term_end(rules, term_start);
}

}  // namespace

json appoint_director(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto co_owner_id = a.optional_text("coOwnerId");
    const auto resolution_id = a.optional_text("resolutionId");
    const std::string role = a.text("role");
    const std::string appointed_by = a.text("appointedBy");

    // Every record named exists, before any rule.
    std::optional<CoOwnerContact> co_owner;
    if (co_owner_id) co_owner = require_co_owner(call.db, syndicate, *co_owner_id);
    if (resolution_id) governance::require_resolution_exists(call, *resolution_id, "/resolutionId");

    const auto term_start = *date_argument(a, "termStart");
    const auto term_given = date_argument(a, "termEnd");
    require_term_order(term_start, term_given);
    const auto rules = board_rules(call.db, syndicate);
    auto name = a.patch_text("name");
    check_appointee(call, rules, co_owner_id, co_owner, name);
    check_appointing_decision(call, rules, appointed_by, resolution_id);

    // Art. 1086: a co-owner in arrears may be appointed (the syndicate may replace them), unless a
    // by-law clause bars them.
    const auto arrears = co_owner_id ? co_owner_arrears(call.db, syndicate, *co_owner_id, today(call)) : ArrearsFlags{};
    if (co_owner) check_eligible(rules, arrears, co_owner->name, "/coOwnerId");
    check_seat(call, rules, role);
    const auto term_end = appointed_term_end(call, rules, appointed_by, term_start, term_given);

    if (!name || name->empty()) name = co_owner->name;
    auto email = a.patch_text("email");
    auto phone = a.patch_text("phone");
    if (!email && co_owner) email = co_owner->email;
    if (!phone && co_owner) phone = co_owner->phone;

    const auto id = new_record_id();
    auto q = call.db.prepare(
        "INSERT INTO directors (id, syndicate_id, co_owner_id, name, email, phone, role, appointed_by, resolution_id, "
        "term_start, term_end, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?12, ?12)");
    bind_parameters(*q, id, syndicate, nonempty_text(co_owner_id), *name, nonempty_text(email), nonempty_text(phone), role,
                    appointed_by, nonempty_text(resolution_id), term_start, term_end, to_utc_iso(call.clock.now()));
    q->exec();
    auto result = director_json(call.db, syndicate, id, today(call));
    result["warnings"] = json::array();
    if (arrears.in_arrears)
        result["warnings"].push_back(*name + " has owed common expenses since " + *arrears.arrears_since +
                                     ": appointed, and the syndicate may replace a director who neglects to pay (art. 1086).");
    return result;
}

json update_director(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = a.text("id");

    const auto status = require_director(call.db, syndicate, id, "/id");
    const auto current = director_json(call.db, syndicate, id, today(call));
    if (status == "ended")
        throw DomainError(codes::already_ended, "The mandate of " + current["name"].get<std::string>() + " ended on " +
                                                    current["endedOn"].get<std::string>() + "; it is kept as it was.")
            .at("/id")
            .with("endedOn", current["endedOn"].get<std::string>());
    if (a.has("role")) check_single_office(call.db, syndicate, a.text("role"), id, "/role");
    const std::string term_start = current["termStart"];
    // null asks for the default length again (art. 339).
    const auto term_end = a.has("termEnd") ? std::optional(date_argument(a, "termEnd").value_or(
                                                 default_term_end(board_rules(call.db, syndicate), term_start)))
                                           : std::nullopt;
    if (term_end && *term_end < term_start)
        throw DomainError(syndic::codes::invalid_date_range,
                          "The term ends on " + *term_end + ", before it starts on " + term_start + ".")
            .at("/termEnd")
            .with("termStart", term_start)
            .with("termEnd", *term_end);

    // The fields given, each changed only when it differs.
    std::string sets;
    std::vector<std::optional<std::string>> values;
    auto change = [&](const char* key, const char* column, const std::optional<std::string>& value) {
        if (!a.has(key)) return;
        const json shown = value && !value->empty() ? json(*value) : json(nullptr);
        if (shown == current[key]) return;
        sets += std::string(column) + " = ?, ";
        values.push_back(value);
    };
    if (a.has("role")) change("role", "role", a.text("role"));
    change("email", "email", a.patch_text("email"));
    change("phone", "phone", a.patch_text("phone"));
    change("termEnd", "term_end", term_end);
    if (!sets.empty()) {
        auto q = call.db.prepare("UPDATE directors SET " + sets + "updated_at = ? WHERE id = ?");
        int index = 1;
        for (const auto& v : values) bind_nonempty_or_null(*q, index++, v);
        q->bind(index++, to_utc_iso(call.clock.now()));
        q->bind(index, id);
        q->exec();
    }
    return director_json(call.db, syndicate, id, today(call));
}

json end_director_mandate(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string id = a.text("id");
    const std::string reason = a.text("endReason");
    const auto resolution_id = a.optional_text("resolutionId");
    const auto document_id = a.optional_text("documentId");

    const auto status = require_director(call.db, syndicate, id, "/id");
    if (resolution_id) governance::require_resolution_exists(call, *resolution_id, "/resolutionId");
    if (document_id) require_document(call.db, syndicate, *document_id, "/documentId");
    const auto current = director_json(call.db, syndicate, id, today(call));
    if (status == "ended")
        throw DomainError(codes::already_ended, "The mandate of " + current["name"].get<std::string>() +
                                                    " already ended on " + current["endedOn"].get<std::string>() + ".")
            .at("/id")
            .with("endedOn", current["endedOn"].get<std::string>());
    const auto ended_on = *date_argument(a, "endedOn");
    const std::string term_start = current["termStart"];
    if (ended_on < term_start)
        throw DomainError(syndic::codes::invalid_date_range,
                          "The mandate cannot end on " + ended_on + ", before its term started on " + term_start + ".")
            .at("/endedOn")
            .with("termStart", term_start)
            .with("endedOn", ended_on);
    if (reason == "disqualified") {
        ArrearsFlags flags{current["inArrears"].get<bool>(), std::nullopt};
        if (current["arrearsSince"].is_string()) flags.arrears_since = current["arrearsSince"].get<std::string>();
        check_disqualified_reason(board_rules(call.db, syndicate), flags, current["name"], "/endReason");
    }
    // Art. 1096: the co-owners elect the directors, and they alone remove them.
    if (reason == "removal") {
        if (!resolution_id)
            throw DomainError(syndic::codes::resolution_required,
                              "A director is removed by the co-owners' meeting: give its passed resolution "
                              "(resolutionId, art. 1096).")
                .at("/resolutionId");
        governance::require_passed_resolution(call, *resolution_id, governance::DecisionBody::general, "simple",
                                            "/resolutionId");
    }

    auto q = call.db.prepare(
        "UPDATE directors SET status = 'ended', ended_on = ?, end_reason = ?, end_resolution_id = ?, end_document_id = ?, "
        "updated_at = ? WHERE id = ?");
    bind_parameters(*q, ended_on, reason, nonempty_text(resolution_id), nonempty_text(document_id),
                    to_utc_iso(call.clock.now()), id);
    q->exec();

    auto result = director_json(call.db, syndicate, id, today(call));
    const auto remaining = active_director_count(call.db, syndicate);
    result["activeDirectors"] = remaining;
    result["quorumAtRisk"] = remaining < board_rules(call.db, syndicate).size_min;
    return result;
}

}  // namespace syndic::board
