// Who is one person in the register (catalogue §3.0, samePersonAs): a co-owner record is one person
// on one unit, and a person holding two units has two records joined by samePersonAs. Records
// joined (transitively, through archived records too) are one person: the art. 1098 head count
// counts persons (the meetings module), and a director "stops being a co-owner" when the person
// holds no active record (the board). The co-owners module owns the answer. Knows storage; not JSON.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::co_owners {

// The person each co-owner record of the syndicate belongs to: records joined by samePersonAs
// (transitively, through archived records too) share one key; an unlinked record is its own key.
struct Persons {
    std::map<std::string, std::string> key_of;
    bool any_linked = false;
};
Persons persons_of(Database& db, const std::string& syndicate_id);

// The other active co-owner records of the person `co_owner_id` belongs to (itself excluded).
std::vector<std::string> other_active_records(Database& db, const std::string& syndicate_id, const std::string& co_owner_id);

// samePersonAs as a call gives it for the record `self_id` ("" for a new record): another active
// co-owner record of the syndicate, else CO_OWNER_NOT_FOUND at `field`; the record itself is
// VALIDATION_FAILED. nullopt (absent or null) passes.
void check_same_person_as(Database& db, const std::string& syndicate_id, const std::optional<std::string>& same_person_as,
                          const std::string& self_id, const std::string& field);

}  // namespace syndic::co_owners
