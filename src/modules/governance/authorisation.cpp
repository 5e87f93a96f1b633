#include "modules/governance/authorisation.hpp"

#include <SQLiteCpp/Statement.h>

#include <stdexcept>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
#include "modules/governance/quorum_snapshot.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::governance {

namespace {

const char* body_word(DecisionBody body) {
    switch (body) {
        case DecisionBody::general: return "general";
        case DecisionBody::board: return "board";
        case DecisionBody::either: return "either";
    }
    return "either";
}

// What the resolutions table says of a resolution: who decided and when, and its votes. A
// resolution of a meeting is the body of its meeting (board for a board meeting, general for aga
// and aga-special) and is decided on the meeting's day; a written resolution (no meeting) carries
// its body, source and day of decision in its own columns (meetings migration 002 made room for them).
struct Decision {
    std::optional<std::string> meeting_id;
    std::string body, source;
    std::optional<std::string> decided_on;  // its own (written), else its meeting's day
    bool day_recorded = false;              // the resolution carries its day (a written one, once signed by all)
    bool adjourned_meeting = false;         // its meeting was reconvened after an adjournment (art. 1089)
    std::string meeting_status;             // its meeting's status ("" for a written resolution)
    VoteTally tally;
};

std::optional<std::int64_t> optional_integer(SQLite::Statement& q, int column) {
    if (q.getColumn(column).isNull()) return std::nullopt;
    return q.getColumn(column).getInt64();
}

VoteTally read_tally(SQLite::Statement& q, int first) {
    VoteTally t;
    t.majority = q.getColumn(first).getString();
    t.recorded = q.getColumn(first + 1).getInt() != 0;
    t.votes_for = Fraction::from_units(q.getColumn(first + 2).getInt64());
    t.votes_against = Fraction::from_units(q.getColumn(first + 3).getInt64());
    t.votes_abstain = Fraction::from_units(q.getColumn(first + 4).getInt64());
    t.ballots_recorded = q.getColumn(first + 5).getInt() != 0;
    t.headcount_for = optional_integer(q, first + 6);
    t.headcount_entitled = optional_integer(q, first + 7);
    t.quorum = read_snapshot(optional_text(q, first + 8));
    return t;
}

std::optional<Decision> find_decision(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT r.meeting_id, coalesce(r.body, CASE m.type WHEN 'board' THEN 'board' ELSE 'general' END), "
        "coalesce(r.source, CASE WHEN r.meeting_id IS NULL THEN 'written' ELSE 'meeting' END), "
        "r.decided_on, m.scheduled_at, coalesce(m.quorum_rule, 'standard'), coalesce(m.status, ''), "
        "r.majority_required, r.votes_recorded, r.votes_for, r.votes_against, r.votes_abstain, r.ballots_recorded, "
        "r.headcount_for, r.headcount_entitled, r.quorum "
        "FROM resolutions r LEFT JOIN meetings m ON m.id = r.meeting_id AND m.syndicate_id = r.syndicate_id "
        "WHERE r.id = ? AND r.syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    Decision d;
    d.meeting_id = optional_text(*q, 0);
    d.body = q->getColumn(1).getString();
    d.source = q->getColumn(2).getString();
    d.day_recorded = !q->getColumn(3).isNull();
    if (d.day_recorded) d.decided_on = q->getColumn(3).getString();
    else if (!q->getColumn(4).isNull()) d.decided_on = montreal_date(stored_instant(q->getColumn(4).getString()));
    d.adjourned_meeting = q->getColumn(5).getString() == "adjourned";
    d.meeting_status = q->getColumn(6).getString();
    d.tally = read_tally(*q, 7);
    return d;
}

// Whether the resolution passed. A meeting's resolution: by its votes (resolution_outcome). A
// written resolution is passed once every signature is in, which its day of decision records
// (record_written_resolution sets it on the last signature, catalogue §3.2).
std::string outcome_of(const Decision& d) {
    if (d.source == "written") return d.day_recorded ? "passed" : "pending";
    return resolution_outcome(d.tally);
}

// Check 2: a meeting's resolution is a decision once its meeting is held (or its minutes sent); a
// written one once adopted (its day of decision recorded with the last signature).
void require_decided(const Decision& d, const std::string& resolution_id, const std::string& field) {
    const bool decided = d.source == "written" ? d.day_recorded : d.meeting_status == "held" || d.meeting_status == "minutes-sent";
    if (decided) return;
    auto refusal = DomainError(codes::meeting_not_held,
                               d.source == "written"
                                   ? "Written resolution " + resolution_id + " is not adopted: it lacks signatures of those "
                                     "entitled to vote (art. 354), so it decides nothing yet."
                                   : "Resolution " + resolution_id + " belongs to a meeting that is " + d.meeting_status +
                                         ", not held: it decides nothing until the meeting is held.")
                       .at(field);
    if (d.source != "written") refusal.with("status", d.meeting_status);
    throw refusal;
}

// Check 4: the quorum snapshot kept with its votes says quorum was reached.
void require_quorum(const Decision& d, const std::string& resolution_id, const std::string& field) {
    const auto& q = d.tally.quorum;
    if (q && q->reached) return;
    auto refusal = DomainError(codes::quorum_not_reached,
                               q ? "Quorum was not reached when the votes on resolution " + resolution_id +
                                       " were recorded: it cannot authorise an act."
                                 : "No quorum was recorded with the votes on resolution " + resolution_id +
                                       ": record them again with the attendance, so the quorum is kept with them.")
                       .at(field);
    if (q) {
        const bool directors = q->basis == "directors";
        const auto figure = [&](Fraction f) { return directors ? static_cast<double>(f.units() / Fraction::units_per_percent) : f.to_percent(); };
        refusal.with("votesPresent", figure(q->votes_present)).with("required", figure(q->required)).with("basis", q->basis);
    }
    throw refusal;
}

// Check 5: taken by the body the act needs.
void require_body(const Decision& d, DecisionBody body, const std::string& resolution_id, const std::string& field) {
    if (body == DecisionBody::either || d.body == body_word(body)) return;
    throw DomainError(codes::wrong_decision_body,
                      body == DecisionBody::general
                          ? "Resolution " + resolution_id + " is a decision of the board; this act needs a decision "
                            "of the co-owners (a general meeting or their written resolution)."
                          : "Resolution " + resolution_id + " is a decision of the co-owners; this act is the "
                            "board's to decide (a board meeting or the directors' written resolution).")
        .at(field)
        .with("body", d.body)
        .with("requiredBody", std::string(body_word(body)));
}

Authorisation authorisation_of(const ToolCall& call, const Decision& d, const std::string& resolution_id) {
    Authorisation a;
    a.resolution_id = resolution_id;
    a.body = d.body;
    a.source = d.source;
    a.majority = d.tally.majority;
    a.meeting_id = d.meeting_id;
    a.decided_on = d.decided_on.value_or(montreal_date(call.clock.now()));
    a.contestable_until = add_calendar_days(a.decided_on, contestation_days);
    return a;
}

}  // namespace

void require_resolution_exists(const ToolCall& call, const std::string& resolution_id, const std::string& field) {
    if (!find_decision(call.db, call.caller.syndicate_id, resolution_id))
        throw record_not_found("resolutions", resolution_id, field);
}

void require_meeting_exists(const ToolCall& call, const std::string& meeting_id, const std::string& field) {
    require_record_exists(call.db, call.caller.syndicate_id, "meetings", meeting_id, field);
}

Authorisation require_passed_resolution(const ToolCall& call, const std::string& resolution_id, DecisionBody body,
                                        std::string_view minimum_majority, const std::string& field) {
    const int needed = majority_rank(minimum_majority);
    if (needed < 0) throw std::logic_error("unknown majority " + std::string(minimum_majority));
    // 1. It exists.
    const auto decision = find_decision(call.db, call.caller.syndicate_id, resolution_id);
    if (!decision) throw record_not_found("resolutions", resolution_id, field);
    const auto& d = *decision;
    // 2. It is a decision: its meeting is held, or the written resolution is adopted.
    require_decided(d, resolution_id, field);
    // 3. It passed, on the votes present or represented (resolution_outcome).
    const auto result = outcome_of(d);
    if (result != "passed")
        throw DomainError(codes::resolution_not_passed,
                          "Resolution " + resolution_id + " is " + result + ", not passed; only a passed resolution " +
                              "authorises the act.")
            .at(field)
            .with("outcome", result);
    // 4. Quorum was reached when its votes were recorded (written resolutions need none).
    if (d.source != "written") require_quorum(d, resolution_id, field);
    // 5. The right body decided.
    require_body(d, body, resolution_id, field);
    // 6. Its majority is at least what the act needs; an adopted written resolution, signed by all
    // entitled to vote (art. 354), meets every majority.
    const auto& majority = d.tally.majority;
    if (d.source != "written" && majority_rank(majority) < needed)
        throw DomainError(codes::majority_insufficient,
                          "Resolution " + resolution_id + " was put to a " + majority +
                              " majority; this act needs at least a " + std::string(minimum_majority) +
                              " majority (simple < absolute < double < special).")
            .at(field)
            .with("majorityRequired", majority)
            .with("majorityNeeded", std::string(minimum_majority));
    // 7. At a reconvened meeting, an act of art. 1097 or more needs those present to have held a
    // majority of all votes (art. 1089 para 2).
    if (d.adjourned_meeting && needed >= majority_rank("absolute") && d.tally.quorum && !d.tally.quorum->majority_of_all_votes)
        throw DomainError(codes::quorum_not_reached,
                          "Resolution " + resolution_id + " was taken at a meeting reconvened after an adjournment, where "
                          "those present or represented did not hold a majority of all votes: an act of art. 1097 or "
                          "more cannot rest on it (art. 1089 para 2).")
            .at(field)
            .with("rule", "adjourned")
            .with("votesPresent", d.tally.quorum->votes_present.to_percent())
            .with("votingBase", d.tally.quorum->voting_base.to_percent());
    return authorisation_of(call, d, resolution_id);
}

}  // namespace syndic::governance
