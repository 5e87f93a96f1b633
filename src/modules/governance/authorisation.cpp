#include "modules/governance/authorisation.hpp"

#include <SQLiteCpp/Statement.h>

#include <stdexcept>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/common.hpp"
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
    if (const auto base = optional_integer(q, first + 8)) t.voting_base = Fraction::from_units(*base);
    if (!q.getColumn(first + 9).isNull()) t.majority_of_all_votes = q.getColumn(first + 9).getInt() != 0;
    return t;
}

std::optional<Decision> find_decision(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT r.meeting_id, coalesce(r.body, CASE m.type WHEN 'board' THEN 'board' ELSE 'general' END), "
        "coalesce(r.source, CASE WHEN r.meeting_id IS NULL THEN 'written' ELSE 'meeting' END), "
        "r.decided_on, m.scheduled_at, coalesce(m.quorum_rule, 'standard'), "
        "r.majority_required, r.votes_recorded, r.votes_for, r.votes_against, r.votes_abstain, r.ballots_recorded, "
        "r.headcount_for, r.headcount_entitled, r.voting_base_units, r.majority_of_all_votes "
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
    d.tally = read_tally(*q, 6);
    return d;
}

// Whether the resolution passed. A meeting's resolution: by its votes (resolution_outcome). A
// written resolution is passed once every signature is in, which its day of decision records
// (record_written_resolution sets it on the last signature, catalogue §3.2).
std::string outcome_of(const Decision& d) {
    if (d.source == "written") return d.day_recorded ? "passed" : "pending";
    return resolution_outcome(d.tally);
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
    const auto decision = find_decision(call.db, call.caller.syndicate_id, resolution_id);
    if (!decision) throw record_not_found("resolutions", resolution_id, field);
    const auto& majority = decision->tally.majority;

    if (body != DecisionBody::either && decision->body != body_word(body))
        throw DomainError(codes::wrong_decision_body,
                          body == DecisionBody::general
                              ? "Resolution " + resolution_id + " is a decision of the board; this act needs a decision "
                                "of the co-owners (a general meeting or their written resolution)."
                              : "Resolution " + resolution_id + " is a decision of the co-owners; this act is the "
                                "board's to decide (a board meeting or the directors' written resolution).")
            .at(field)
            .with("body", decision->body)
            .with("requiredBody", std::string(body_word(body)));

    if (majority_rank(majority) < needed)
        throw DomainError(codes::majority_insufficient,
                          "Resolution " + resolution_id + " was put to a " + majority +
                              " majority; this act needs at least a " + std::string(minimum_majority) +
                              " majority (simple < absolute < double < special).")
            .at(field)
            .with("majorityRequired", majority)
            .with("majorityNeeded", std::string(minimum_majority));

    const auto result = outcome_of(*decision);
    if (result != "passed")
        throw DomainError(codes::resolution_not_passed,
                          "Resolution " + resolution_id + " is " + result + ", not passed; only a passed resolution " +
                              "authorises the act.")
            .at(field)
            .with("outcome", result);

    Authorisation a;
    a.resolution_id = resolution_id;
    a.body = decision->body;
    a.source = decision->source;
    a.majority = majority;
    a.meeting_id = decision->meeting_id;
    a.decided_on = decision->decided_on.value_or(montreal_date(call.clock.now()));
    a.contestable_until = add_calendar_days(a.decided_on, contestation_days);
    // A reconvened meeting's quorum rule (adjourn_meeting), and whether those present held a
    // majority of all votes when the votes were recorded (true where the question does not arise).
    a.adjourned_meeting = decision->adjourned_meeting;
    a.majority_of_all_votes = decision->tally.majority_of_all_votes.value_or(true);
    return a;
}

}  // namespace syndic::governance
