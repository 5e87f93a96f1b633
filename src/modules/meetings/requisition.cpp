#include "modules/meetings/requisition.hpp"

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/fraction.hpp"
#include "modules/common.hpp"
#include "modules/meetings/codes.hpp"
#include "modules/record_exists.hpp"

namespace syndic::meetings {

using nlohmann::json;

void require_requisitioned_type(const std::string& meeting_type) {
    if (meeting_type == "aga" || meeting_type == "aga-special") return;
    throw DomainError(codes::not_a_general_meeting,
                      "A requisition calls a general meeting of the co-owners (art. 352); this meeting would be a board meeting.")
        .at("/requisition")
        .with("type", meeting_type);
}

std::optional<std::string> checked_requisition(Database& db, const std::string& syndicate_id, const std::string& meeting_type,
                                               const json& value, const std::string& today) {
    if (value.is_null()) return std::nullopt;
    require_requisitioned_type(meeting_type);
    const std::string received_on = value["receivedOn"];
    if (!is_calendar_date(received_on))
        throw invalid_argument("/requisition/receivedOn", "is not a calendar date", "receivedOn must be a day, YYYY-MM-DD.");
    if (received_on > today)
        throw invalid_argument("/requisition/receivedOn", "is in the future",
                               "The requisition was received on " + received_on + ", after today (" + today + ").");
    const auto& ids = value["coOwnerIds"];
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string field = "/requisition/coOwnerIds/" + std::to_string(i);
        const std::string id = ids[i];
        for (std::size_t j = 0; j < i; ++j)
            if (ids[j] == ids[i]) throw invalid_argument(field, "is listed twice", "Co-owner " + id + " is listed twice.");
        if (!active_co_owner(db, syndicate_id, id)) throw record_not_found("co_owners", id, field, RecordState::active);
    }
    return json{{"receivedOn", received_on}, {"coOwnerIds", ids}}.dump();
}

json requisition_json(Database& db, const std::string& syndicate_id, const Meeting& m, Instant now) {
    if (!m.requisition) return nullptr;
    json out = json::parse(*m.requisition);
    // Votes are fractions (art. 1090); a co-owner who has left since holds none.
    auto votes = Fraction::from_units(0);
    for (const auto& id : out["coOwnerIds"])
        if (const auto share = active_co_owner(db, syndicate_id, id.get<std::string>()))
            votes += Fraction::from_units(share->fraction_units);
    const std::string call_by = add_calendar_days(out["receivedOn"].get<std::string>(), requisition_call_days);
    const std::optional<std::string> called_on =
        m.notice_sent_at ? std::optional(montreal_date(stored_instant(*m.notice_sent_at))) : std::nullopt;
    out["votesPercent"] = votes.to_percent();
    out["holdsTenPercent"] = votes >= Fraction::percent(requisition_votes_percent);
    out["callBy"] = call_by;
    out["calledOn"] = called_on ? json(*called_on) : json(nullptr);
    out["late"] = called_on.value_or(montreal_date(now)) > call_by;
    return out;
}

}  // namespace syndic::meetings
