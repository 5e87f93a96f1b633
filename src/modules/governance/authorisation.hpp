// The check every act that needs "a passed resolution" makes (catalogue §0 "Authorising
// decisions", §5 L10): the resolution exists in the caller's syndicate, was taken by the right
// body (the co-owners' general meeting, or the board), to a majority at least as strong as the act
// needs, and passed; and that a meeting another record names exists. The declaration and the
// board ask here. Reads the resolutions and the meetings (the meetings module's rows, never
// written here); not JSON-RPC.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "modules/governance/resolution_outcome.hpp"
#include "tools/registry.hpp"

namespace syndic::governance {

// Who must have decided: the co-owners (a general meeting, aga or aga-special, or a written
// resolution of the co-owners), the board (a board meeting or a written resolution of the
// directors), or either.
enum class DecisionBody { general, board, either };

// What an authorised act may need to know of the decision behind it.
struct Authorisation {
    std::string resolution_id;
    std::string body;       // "general" or "board"
    std::string source;     // "meeting" or "written"
    std::string majority;   // the resolution's majorityRequired
    std::optional<std::string> meeting_id;  // null for a written resolution
    std::string decided_on;         // the Montreal day of the decision: the meeting's, or the last signature's
    std::string contestable_until;  // decided_on + 90 days (art. 1103)
    // (Art. 1089 para 2 at a reconvened meeting is the central check's 7th: an act it reaches is
    // authorised.)
    // Still open to an action in annulment on `today` (on or before contestable_until).
    bool contestable_on(const std::string& today) const { return today <= contestable_until; }
};

// The resolution `resolution_id` of the caller's syndicate, refused when it is not fit to
// authorise the act (catalogue §0 "Authorising decisions", the seven checks in their order), every
// refusal at `field`:
// 1. RESOLUTION_NOT_FOUND (404): no such resolution in the syndicate;
// 2. MEETING_NOT_HELD (409): its meeting is not held (nor its minutes sent), or the written
//    resolution is not adopted (data: status);
// 3. RESOLUTION_NOT_PASSED (422): pending or rejected, by resolution_outcome (data: outcome);
// 4. QUORUM_NOT_REACHED (422): the quorum snapshot kept with its votes says not reached, or none
//    was kept (data: votesPresent, required, basis); written resolutions need none;
// 5. WRONG_DECISION_BODY (422): taken by the board where the co-owners must decide, or the
//    reverse (data: body, requiredBody);
// 6. MAJORITY_INSUFFICIENT (422): put to a weaker majority than `minimum_majority` (data:
//    majorityRequired, majorityNeeded); an adopted written resolution meets every majority;
// 7. QUORUM_NOT_REACHED (422, data.rule adjourned): at a reconvened meeting, an act of `absolute`
//    or more and those present did not hold a majority of all votes (art. 1089 para 2).
// `minimum_majority` is a word of the ladder (a logic_error otherwise: the caller's bug).
Authorisation require_passed_resolution(const ToolCall& call, const std::string& resolution_id, DecisionBody body,
                                        std::string_view minimum_majority, const std::string& field);

// RESOLUTION_NOT_FOUND at `field` unless the syndicate has the resolution (whatever its state):
// for callers that check every reference before any rule.
void require_resolution_exists(const ToolCall& call, const std::string& resolution_id, const std::string& field);

// MEETING_NOT_FOUND at `field` unless the syndicate has the meeting (a board member's interest
// disclosed at it).
void require_meeting_exists(const ToolCall& call, const std::string& meeting_id, const std::string& field);

}  // namespace syndic::governance
