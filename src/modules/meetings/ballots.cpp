// record_ballots (catalogue §3.2): each co-owner's vote on a resolution, weighed by their votes on
// the voting roll at that moment; the totals, the head count and the outcome follow. The one way
// a double majority (art. 1098) is decided.
#include "modules/meetings/ballots.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "modules/co_owners/persons.hpp"
#include "modules/common.hpp"
#include "modules/meetings/board_acts.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/frozen_roll.hpp"
#include "modules/meetings/presenter.hpp"
#include "modules/meetings/rules.hpp"
#include "modules/meetings/store.hpp"
#include "modules/meetings/voting_roll.hpp"
#include "modules/record_exists.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

using nlohmann::json;

namespace {

// The voter of one ballot row, checked: listed once, a co-owner of the syndicate, recorded present
// or by proxy, not suspended. Returns the ballot weighed by the roll.
Ballot checked_ballot(const ToolCall& call, const VotingRoll& roll, const Arguments& row, std::set<std::string>& seen) {
    require_co_owner_row(call, row, "ballots");
    const std::string field = row.pointer("coOwnerId");
    const std::string& id = row.text("coOwnerId");
    if (!seen.insert(id).second) throw invalid_argument(field, "is listed twice", "Co-owner " + id + " is listed twice.");
    const auto* entry = roll.find(id);
    if (!entry) {
        if (!active_co_owner(call.db, call.caller.syndicate_id, id))
            throw record_not_found("co_owners", id, field, RecordState::active);
        throw DomainError(codes::co_owner_not_present, "Co-owner " + id + " is not recorded present or by proxy at the meeting.")
            .at(field)
            .with("coOwnerId", id);
    }
    if (!entry->represented())
        throw DomainError(codes::co_owner_not_present,
                          entry->name + " is not recorded present or by proxy at the meeting (record_attendance first).")
            .at(field)
            .with("coOwnerId", id);
    if (entry->status == "suspended-arrears") {
        auto refusal = DomainError(codes::vote_suspended,
                                   entry->name + " has common expenses unpaid more than 3 months and cannot vote until "
                                   "they are paid (art. 1094).")
                           .at(field)
                           .with("coOwnerId", id);
        if (entry->overdue_since) refusal.with("overdueSince", *entry->overdue_since);
        throw refusal;
    }
    return Ballot{id, row.text("choice"), *entry->attendance == "proxy" ? "proxy" : "owner", entry->votes};
}

// The art. 1098 head count by person (catalogue §3.2): co-owner records joined by samePersonAs are
// one person, entitled when one of their records on the roll may vote, and for when every one of
// those records voted for. While no record of the syndicate is linked, each record is a person.
struct HeadCount {
    std::int64_t entitled = 0, for_ = 0;
    std::string basis = "records";
};

HeadCount head_count(const VotingRoll& roll, const std::vector<Ballot>& ballots, const co_owners::Persons& persons) {
    HeadCount h;
    h.basis = persons.any_linked ? "persons" : "records";
    std::map<std::string, bool> all_for;  // person -> every entitled record of theirs voted for
    for (const auto& e : roll.entries) {
        if (!e.may_vote() || e.fraction.units() == 0) continue;
        const auto key = persons.key_of.count(e.co_owner_id) ? persons.key_of.at(e.co_owner_id) : e.co_owner_id;
        const bool voted_for = std::any_of(ballots.begin(), ballots.end(), [&](const Ballot& b) {
            return b.co_owner_id == e.co_owner_id && b.choice == "for";
        });
        auto [it, fresh] = all_for.emplace(key, voted_for);
        if (!fresh) it->second = it->second && voted_for;
    }
    h.entitled = static_cast<std::int64_t>(all_for.size());
    for (const auto& [person, yes] : all_for) h.for_ += yes ? 1 : 0;
    return h;
}

}  // namespace

json record_ballots(const ToolCall& call) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const std::string resolution_id = a.text("resolutionId");
    auto found = find_resolution(call.db, syndicate, resolution_id);
    if (found && a.has("meetingId") && a.text("meetingId") != found->meeting_id) found.reset();
    if (!found || found->meeting_id.empty())
        throw DomainError(codes::resolution_not_found, "No resolution of a meeting with id " + resolution_id +
                                                           " in this syndicate.")
            .at("/resolutionId");
    const auto m = require_meeting(call.db, syndicate, found->meeting_id, "/resolutionId");
    require_status(m, {"notice-sent", "held"}, "recording ballots");
    const auto now = call.clock.now();
    require_meeting_day(m, now, "recording its ballots", "/resolutionId");
    if (m.type == "board") return record_board_ballots(call, m, *found);
    freeze_roll(call.db, syndicate, m, now);  // the first votes freeze the roll
    const auto roll = voting_roll(call.db, syndicate, m, roll_day(m, now));

    std::set<std::string> seen;
    std::vector<Ballot> cast;
    for (const auto& row : a.rows("ballots")) cast.push_back(checked_ballot(call, roll, row, seen));
    const std::string stamp = to_utc_iso(now);
    if (a.flag("replace", true)) delete_ballots(call.db, found->id);
    for (const auto& b : cast) upsert_ballot(call.db, syndicate, found->id, b, stamp);

    // The totals of every ballot now recorded; what a double majority is measured against, now.
    Resolution r = *found;
    r.recorded = r.ballots_recorded = true;
    r.votes_for = r.votes_against = r.votes_abstain = Fraction();
    const auto recorded = ballots_of(call.db, found->id);
    for (const auto& b : recorded) {
        if (b.choice == "for") {
            r.votes_for += b.votes;
        } else if (b.choice == "against") {
            r.votes_against += b.votes;
        } else {
            r.votes_abstain += b.votes;
        }
    }
    const auto heads = head_count(roll, recorded, co_owners::persons_of(call.db, syndicate));
    r.headcount_for = heads.for_;
    r.headcount_entitled = heads.entitled;
    r.headcount_basis = heads.basis;
    r.quorum = quorum_of(call.db, syndicate, m, roll).snapshot(stamp);
    store_ballot_totals(call.db, r, stamp);
    touch(call.db, m.id, call.clock);

    json result = resolution_json(*find_resolution(call.db, syndicate, found->id), &m);
    json ballots = json::array();
    for (const auto& b : recorded)
        ballots.push_back({{"resolutionId", found->id},
                           {"coOwnerId", b.co_owner_id},
                           {"choice", b.choice},
                           {"votes", percent(b.votes)},
                           {"castBy", b.cast_by}});
    result["ballots"] = std::move(ballots);
    result["headcountEntitled"] = *r.headcount_entitled;
    result["votingBase"] = percent(r.quorum->voting_base);
    return result;
}

}  // namespace syndic::meetings
