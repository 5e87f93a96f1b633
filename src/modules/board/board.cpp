// get_board (catalogue §4.3): the board as it stands on a day, read from the directors' mandates,
// the declaration's board size (art. 1084), the accounts (art. 1086's flag), the manager's mandate and
// the insurance policies; and the module's tool registrations.
#include "modules/board/board.hpp"
#include "modules/governance/in_office.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

#include "modules/board/tools.hpp"
#include "modules/co_owners/co_owners.hpp"
#include "modules/common.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic {

namespace board {

using nlohmann::json;

namespace {

// Terms ending within this many days are flagged (catalogue §4.3).
constexpr int terms_ending_days = 90;

// The directors' liability insurance: a directors-and-officers policy in force on `as_of`.
json directors_insurance(Database& db, const std::string& syndicate_id, const std::string& as_of) {
    auto q = db.prepare(
        "SELECT id, insurer, policy_number, end_date FROM insurance_policies WHERE syndicate_id = ?1 "
        "AND kind = 'directors-and-officers' AND deleted_at IS NULL AND start_date <= ?2 AND end_date > ?2 "
        "ORDER BY end_date DESC, id LIMIT 1");
    bind_parameters(*q, syndicate_id, as_of);
    if (!q->executeStep())
        return {{"status", "missing"}, {"policyId", nullptr}, {"insurer", nullptr}, {"policyNumber", nullptr}, {"endDate", nullptr}};
    return {{"status", "active"},
            {"policyId", q->getColumn(0).getString()},
            {"insurer", q->getColumn(1).getString()},
            {"policyNumber", q->getColumn(2).getString()},
            {"endDate", q->getColumn(3).getString()}};
}

}  // namespace

json get_board(const ToolCall& call) {
    const auto& syndicate = call.caller.syndicate_id;
    const auto as_of = date_argument(call.arguments(), "asOf").value_or(today(call));
    const auto rules = board_rules(call.db, syndicate);

    // The directors in office that day: their term begun, their mandate not yet ended.
    std::vector<std::string> ids;
    for (const auto& d : governance::directors_in_office(call.db, syndicate, as_of)) ids.push_back(d.id);
    json directors = json::array(), terms_ending = json::array(), in_arrears = json::array();
    json officers = {{"president", nullptr}, {"vicePresidents", json::array()}, {"secretary", nullptr}, {"treasurer", nullptr}};
    for (const auto& id : ids) {
        auto d = director_json(call.db, syndicate, id, as_of);
        const std::string role = d["role"];
        if (role == "vice-president") officers["vicePresidents"].push_back(id);
        else if (role != "director") officers[role] = id;
        if (d["termEnd"].is_string()) {
            const int days_left = calendar_days_between(as_of, d["termEnd"].get<std::string>());
            if (days_left <= terms_ending_days)
                terms_ending.push_back({{"directorId", id}, {"name", d["name"]}, {"termEnd", d["termEnd"]}, {"daysLeft", days_left}});
        }
        // Art. 1086: the syndicate may replace them; a flag, never an end of the mandate.
        if (d["inArrears"].get<bool>())
            in_arrears.push_back({{"directorId", id}, {"name", d["name"]}, {"arrearsSince", d["arrearsSince"]}, {"replaceable", true}});
        directors.push_back(std::move(d));
    }
    const auto filled = static_cast<std::int64_t>(directors.size());
    const auto seats = rules.size_max.value_or(rules.size_min);
    return {{"asOf", as_of},
            {"boardSize", {{"min", rules.size_min}, {"max", rules.size_max ? json(*rules.size_max) : json(nullptr)}}},
            {"directors", std::move(directors)},
            {"officers", std::move(officers)},
            {"seatsFilled", filled},
            {"vacancies", seats > filled ? seats - filled : 0},
            {"belowMinimum", filled < rules.size_min},
            {"termsEnding", std::move(terms_ending)},
            {"directorsInArrears", std::move(in_arrears)},
            {"manager", mandate_in_force(call.db, syndicate, as_of)},
            {"directorsInsurance", directors_insurance(call.db, syndicate, as_of)}};
}

}  // namespace board

void register_board_module(ToolTable& table) {
    table.bind("get_board", board::get_board);
    table.bind("appoint_director", board::appoint_director);
    table.bind("update_director", board::update_director);
    table.bind("end_director_mandate", board::end_director_mandate);
    table.bind("record_interest_disclosure", board::record_interest_disclosure);
    table.bind("list_interest_disclosures", board::list_interest_disclosures);
    table.bind("set_management_mandate", board::set_management_mandate);
    // delete_co_owner: a director who is no longer a co-owner leaves the board (co_owners.hpp).
    table.question<CoOwnerArchivedAnswers>(co_owner_archived_question)->push_back(board::end_mandates_of_former_co_owner);
}

}  // namespace syndic
