#include "modules/meetings/authorisation.hpp"

#include <SQLiteCpp/Statement.h>

#include <array>
#include <stdexcept>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/store.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

namespace {

constexpr std::array<const char*, 4> ladder{"simple", "absolute", "double", "special"};

const char* body_word(DecisionBody body) {
    switch (body) {
        case DecisionBody::general: return "general";
        case DecisionBody::board: return "board";
        case DecisionBody::either: return "either";
    }
    return "either";
}

// What the resolutions table says of a resolution beyond its votes: who decided and when. A
// resolution of a meeting is the body of its meeting (board for a board meeting, general for aga
// and aga-special) and is decided on the meeting's day; a written resolution (no meeting) carries
// its body, source and day of decision in its own columns (meetings migration 002 made room for them).
struct Decision {
    std::optional<std::string> meeting_id;
    std::string body, source;
    std::optional<std::string> decided_on;  // its own (written), else its meeting's day
    bool day_recorded = false;              // the resolution carries its day (a written one, once signed by all)
    bool adjourned_meeting = false;         // its meeting was reconvened after an adjournment (art. 1089)
};

std::optional<Decision> find_decision(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(
        "SELECT r.meeting_id, coalesce(r.body, CASE m.type WHEN 'board' THEN 'board' ELSE 'general' END), "
        "coalesce(r.source, CASE WHEN r.meeting_id IS NULL THEN 'written' ELSE 'meeting' END), "
        "r.decided_on, m.scheduled_at, coalesce(m.quorum_rule, 'standard') "
        "FROM resolutions r LEFT JOIN meetings m ON m.id = r.meeting_id AND m.syndicate_id = r.syndicate_id "
        "WHERE r.id = ? AND r.syndicate_id = ?");
    q->bind(1, id);
    q->bind(2, syndicate_id);
    if (!q->executeStep()) return std::nullopt;
    Decision d;
    if (!q->getColumn(0).isNull()) d.meeting_id = q->getColumn(0).getString();
    d.body = q->getColumn(1).getString();
    d.source = q->getColumn(2).getString();
    d.day_recorded = !q->getColumn(3).isNull();
    if (d.day_recorded) d.decided_on = q->getColumn(3).getString();
    else if (!q->getColumn(4).isNull()) d.decided_on = montreal_date(stored_instant(q->getColumn(4).getString()));
    d.adjourned_meeting = q->getColumn(5).getString() == "adjourned";
    return d;
}

DomainError not_found(const std::string& id, const std::string& field) {
    return DomainError(codes::resolution_not_found, "No resolution with id " + id + " in this syndicate.").at(field);
}

// Whether the resolution passed. A meeting's resolution: the module's outcome rule (decisions 6).
// A written resolution is passed once every signature is in, which its day of decision records
// (record_written_resolution sets it on the last signature, catalogue §3.2).
std::string outcome_of(const Resolution& r, const Decision& d) {
    if (d.source == "written") return d.day_recorded ? "passed" : "pending";
    return outcome(r);
}

}  // namespace

int majority_rank(std::string_view majority) {
    for (std::size_t i = 0; i < ladder.size(); ++i)
        if (majority == ladder[i]) return static_cast<int>(i);
    return -1;
}

void require_resolution_exists(const ToolCall& call, const std::string& resolution_id, const std::string& field) {
    if (!find_decision(call.db, call.caller.syndicate_id, resolution_id)) throw not_found(resolution_id, field);
}

Authorisation require_passed_resolution(const ToolCall& call, const std::string& resolution_id, DecisionBody body,
                                        std::string_view minimum_majority, const std::string& field) {
    const int needed = majority_rank(minimum_majority);
    if (needed < 0) throw std::logic_error("unknown majority " + std::string(minimum_majority));
    const auto& syndicate = call.caller.syndicate_id;
    const auto decision = find_decision(call.db, syndicate, resolution_id);
    const auto resolution = find_resolution(call.db, syndicate, resolution_id);
    if (!decision || !resolution) throw not_found(resolution_id, field);

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

    if (majority_rank(resolution->majority) < needed)
        throw DomainError(codes::majority_insufficient,
                          "Resolution " + resolution_id + " was put to a " + resolution->majority +
                              " majority; this act needs at least a " + std::string(minimum_majority) +
                              " majority (simple < absolute < double < special).")
            .at(field)
            .with("majorityRequired", resolution->majority)
            .with("majorityNeeded", std::string(minimum_majority));

    const auto result = outcome_of(*resolution, *decision);
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
    a.majority = resolution->majority;
    a.meeting_id = decision->meeting_id;
    a.decided_on = decision->decided_on.value_or(montreal_date(call.clock.now()));
    a.contestable_until = add_calendar_days(a.decided_on, contestation_days);
    // A reconvened meeting's quorum rule (adjourn_meeting), and whether those present held a
    // majority of all votes when the votes were recorded (true where the question does not arise).
    a.adjourned_meeting = decision->adjourned_meeting;
    a.majority_of_all_votes = resolution->majority_of_all_votes.value_or(true);
    return a;
}

}  // namespace syndic::meetings
