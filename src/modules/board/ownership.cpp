// A director who stops being a co-owner (catalogue §3.0, §4.3): when delete_co_owner archives a
// record, the declaration requires directors to be co-owners (directorsMustBeCoOwners) and the
// person (their records joined by samePersonAs) holds no other active record, the mandate of every
// director in office who is that person ends that day, reason ownership-ended. The board answers
// the question the co-owners module asks (co_owners.hpp), so the register never includes the board.
#include <SQLiteCpp/Statement.h>

#include <algorithm>

#include "core/clock.hpp"
#include "modules/board/tools.hpp"
#include "modules/co_owners/persons.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::board {

using nlohmann::json;

json end_mandates_of_former_co_owner(const ToolCall& call, const std::string& co_owner_id) {
    const auto& syndicate = call.caller.syndicate_id;
    if (!board_rules(call.db, syndicate).must_be_co_owners) return nullptr;
    if (!co_owners::other_active_records(call.db, syndicate, co_owner_id).empty()) return nullptr;
    const auto persons = co_owners::persons_of(call.db, syndicate);
    const auto& person = persons.key_of.at(co_owner_id);

    struct Mandate {
        std::string id, term_start;
    };
    std::vector<Mandate> ending;
    {
        auto q = call.db.prepare(
            "SELECT id, co_owner_id, term_start FROM directors WHERE syndicate_id = ? AND status = 'active' "
            "AND co_owner_id IS NOT NULL ORDER BY id");
        bind_parameters(*q, syndicate);
        while (q->executeStep())
            if (const auto it = persons.key_of.find(q->getColumn(1).getString()); it != persons.key_of.end() && it->second == person)
                ending.push_back({q->getColumn(0).getString(), q->getColumn(2).getString()});
    }
    if (ending.empty()) return nullptr;
    const auto day = today(call);
    json ended = json::array();
    for (const auto& m : ending) {
        // A mandate not begun yet ends on the day it would have begun (never before its term).
        auto q = call.db.prepare(
            "UPDATE directors SET status = 'ended', ended_on = ?, end_reason = 'ownership-ended', updated_at = ? WHERE id = ?");
        bind_parameters(*q, std::max(day, m.term_start), to_utc_iso(call.clock.now()), m.id);
        q->exec();
        ended.push_back(director_json(call.db, syndicate, m.id, day));
    }
    return {{"directorMandatesEnded", std::move(ended)}};
}

}  // namespace syndic::board
