// What a board meeting records (catalogue §3.2 "Board meetings"; arts. 1084, 324-326, 335 ff.):
// the directors' attendance (present or absent, no proxy), their votes as numbers of directors and
// their ballots, one vote each, an interested director abstaining. The handlers of
// record_attendance, record_votes and record_ballots come here for a meeting of type board.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "modules/governance/resolution_outcome.hpp"
#include "modules/meetings/store.hpp"
#include "tools/registry.hpp"

namespace syndic::meetings {

// A row of a co-owners' meeting's attendance or ballots (`what`) names a co-owner: a directorId is
// VALIDATION_FAILED (once the director is found: another syndicate's id is not found), and so is a
// row without coOwnerId.
void require_co_owner_row(const ToolCall& call, const Arguments& row, const std::string& what);

// The attendees rows of record_attendance at board meeting `m`: each a director in office on the
// meeting's day (DIRECTOR_NOT_FOUND otherwise), present or absent, listed once.
void record_board_attendance(const ToolCall& call, const Meeting& m);

// The votes of record_votes at board meeting `m`, checked (whole numbers of directors, adding up
// to at most the directors present who may vote on the resolution), and the quorum snapshot to
// keep with them.
governance::QuorumSnapshot checked_board_votes(Database& db, const std::string& syndicate_id, const Meeting& m,
                                               const Resolution& votes, const std::string& taken_at);

// record_ballots at board meeting `m` on resolution `r`: each director present, in office and not
// interested casts one vote; totals, head count and outcome follow.
nlohmann::json record_board_ballots(const ToolCall& call, const Meeting& m, const Resolution& r);

}  // namespace syndic::meetings
