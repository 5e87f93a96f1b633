#include "modules/meetings/board_acts.hpp"

#include <SQLiteCpp/Statement.h>
#include <nlohmann/json.hpp>

#include <set>

#include "modules/common.hpp"
#include "modules/governance/in_office.hpp"
#include "modules/meetings/board_roll.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/meetings/presenter.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::meetings {

using nlohmann::json;

namespace {

// The director a row names: directorId given, coOwnerId not (a board meeting is the directors'),
// listed once, in office on the meeting's day.
const BoardSeat& named_director(Database& db, const std::string& syndicate_id, const BoardRoll& roll, const Arguments& row,
                                std::set<std::string>& seen) {
    // Every record named exists, before any rule.
    if (row.given("coOwnerId"))
        require_record_exists(db, syndicate_id, "co_owners", row.text("coOwnerId"), row.pointer("coOwnerId"), RecordState::active);
    if (row.given("coOwnerId"))
        throw invalid_argument(row.pointer("coOwnerId"), "is for a co-owners' meeting",
                               "A board meeting is the directors': name each by directorId (get_board lists them).");
    if (!row.given("directorId"))
        throw invalid_argument(row.pointer("directorId"), "is required at a board meeting",
                               "A board meeting is the directors': name each by directorId (get_board lists them).");
    const std::string& id = row.text("directorId");
    if (!seen.insert(id).second)
        throw invalid_argument(row.pointer("directorId"), "is listed twice", "Director " + id + " is listed twice.");
    const auto* seat = roll.find(id);
    if (!seat || !seat->in_office)
        throw DomainError(governance::codes::director_not_found,
                          "No director in office on " + roll.day + " (the meeting's day) has id " + id + ".")
            .at(row.pointer("directorId"))
            .with("day", roll.day);
    return *seat;
}

bool whole(Fraction f) { return f.units() % Fraction::percent(1).units() == 0; }

}  // namespace

void require_co_owner_row(const ToolCall& call, const Arguments& row, const std::string& what) {
    if (row.given("directorId")) {
        // Every record named exists, before any rule.
        require_record_exists(call.db, call.caller.syndicate_id, "directors", row.text("directorId"), row.pointer("directorId"));
        throw invalid_argument(row.pointer("directorId"), "is for a board meeting",
                               "A co-owners' meeting's " + what + " are the co-owners': name each by coOwnerId.");
    }
    if (!row.given("coOwnerId"))
        throw invalid_argument(row.pointer("coOwnerId"), "is required", "Name each co-owner by coOwnerId.");
}

void record_board_attendance(const ToolCall& call, const Meeting& m) {
    const auto roll = board_roll(call.db, call.caller.syndicate_id, m);
    std::set<std::string> seen;
    const auto now = to_utc_iso(call.clock.now());
    for (const auto& row : call.arguments().rows("attendees")) {
        const auto& seat = named_director(call.db, call.caller.syndicate_id, roll, row, seen);
        if (row.text("attendance") == "proxy" || row.given("proxyHolder"))
            throw invalid_argument(row.pointer(row.given("proxyHolder") ? "proxyHolder" : "attendance"),
                                   "is not for a board meeting",
                                   "Directors attend a board meeting in person: present or absent, no proxy.");
        auto q = call.db.prepare(
            "INSERT INTO board_attendees (meeting_id, director_id, syndicate_id, name, attendance, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (meeting_id, director_id) DO UPDATE SET "
            "name = excluded.name, attendance = excluded.attendance, recorded_at = excluded.recorded_at");
        bind_parameters(*q, m.id, seat.director_id, call.caller.syndicate_id, seat.name, row.text("attendance"), now);
        q->exec();
    }
}

governance::QuorumSnapshot checked_board_votes(Database& db, const std::string& syndicate_id, const Meeting& m,
                                               const Resolution& votes, const std::string& taken_at) {
    const std::pair<const char*, Fraction> given[] = {
        {"/votesFor", votes.votes_for}, {"/votesAgainst", votes.votes_against}, {"/votesAbstain", votes.votes_abstain}};
    for (const auto& [field, value] : given)
        if (!whole(value))
            throw invalid_argument(field, "is not a whole number of directors",
                                   "At a board meeting each director has one vote: the votes are numbers of directors.");
    const auto roll = board_roll(db, syndicate_id, m);
    const auto interested = interested_directors(db, syndicate_id, votes.id);
    const auto base = board_base(roll, interested);
    const auto cast = votes.votes_for + votes.votes_against + votes.votes_abstain;
    if (cast > base)
        throw invalid_argument("/votesFor", "with votesAgainst and votesAbstain exceeds the directors present who may vote",
                               "The votes cast (" + std::to_string(directors_in(cast)) +
                                   ") exceed the directors present who may vote on the resolution (" +
                                   std::to_string(directors_in(base)) +
                                   "; a director who declared an interest in it abstains; record the attendance first).")
            .with("represented", base.to_percent());
    return board_snapshot(roll, interested, taken_at);
}

json record_board_ballots(const ToolCall& call, const Meeting& m, const Resolution& found) {
    const auto a = call.arguments();
    const auto& syndicate = call.caller.syndicate_id;
    const auto roll = board_roll(call.db, syndicate, m);
    const auto interested = interested_directors(call.db, syndicate, found.id);
    std::set<std::string> seen;
    std::vector<std::pair<std::string, std::string>> cast;  // director, choice
    for (const auto& row : a.rows("ballots")) {
        const auto& seat = named_director(call.db, call.caller.syndicate_id, roll, row, seen);
        if (!seat.present())
            throw DomainError(codes::co_owner_not_present,
                              seat.name + " is not recorded present at the board meeting (record_attendance first).")
                .at(row.pointer("directorId"))
                .with("directorId", seat.director_id);
        if (interested.count(seat.director_id))
            throw DomainError(codes::conflict_of_interest,
                              seat.name + " declared an interest in this resolution and abstains (arts. 324-326): "
                                          "no ballot, and out of its base.")
                .at(row.pointer("directorId"))
                .with("directorId", seat.director_id);
        cast.emplace_back(seat.director_id, row.text("choice"));
    }
    const std::string stamp = to_utc_iso(call.clock.now());
    if (a.flag("replace", true)) {
        auto q = call.db.prepare("DELETE FROM board_ballots WHERE resolution_id = ?");
        bind_parameters(*q, found.id);
        q->exec();
    }
    for (const auto& [director, choice] : cast) {
        auto q = call.db.prepare(
            "INSERT INTO board_ballots (resolution_id, director_id, syndicate_id, choice, recorded_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (resolution_id, director_id) DO UPDATE SET choice = excluded.choice, recorded_at = excluded.recorded_at");
        bind_parameters(*q, found.id, director, syndicate, choice, stamp);
        q->exec();
    }

    // The totals of every ballot now recorded, one vote each.
    Resolution r = found;
    r.recorded = r.ballots_recorded = true;
    r.votes_for = r.votes_against = r.votes_abstain = Fraction();
    json ballots = json::array();
    std::int64_t heads_for = 0;
    auto q = call.db.prepare("SELECT director_id, choice FROM board_ballots WHERE resolution_id = ? ORDER BY recorded_at, director_id");
    bind_parameters(*q, found.id);
    while (q->executeStep()) {
        const std::string choice = q->getColumn(1).getString();
        (choice == "for" ? r.votes_for : choice == "against" ? r.votes_against : r.votes_abstain) += Fraction::percent(1);
        heads_for += choice == "for" ? 1 : 0;
        ballots.push_back({{"resolutionId", found.id},
                           {"directorId", q->getColumn(0).getString()},
                           {"choice", choice},
                           {"votes", 1},
                           {"castBy", "owner"}});
    }
    std::int64_t entitled = 0;
    for (const auto& s : roll.seats) entitled += s.in_office && !interested.count(s.director_id) ? 1 : 0;
    r.headcount_for = heads_for;
    r.headcount_entitled = entitled;
    r.headcount_basis = "persons";
    r.quorum = board_snapshot(roll, interested, stamp);
    store_ballot_totals(call.db, r, stamp);
    touch(call.db, m.id, call.clock);

    json result = resolution_json(*find_resolution(call.db, syndicate, found.id), &m);
    result["ballots"] = std::move(ballots);
    result["headcountEntitled"] = entitled;
    result["votingBase"] = roll.in_office;
    return result;
}

}  // namespace syndic::meetings
