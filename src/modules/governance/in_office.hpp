// Who is a director in office on a day (catalogue §4.3): appointed from term_start on, until the
// mandate ends (ended_on). A term that has run out does not end a mandate: it continues until the
// director is replaced or the mandate is ended (art. 339 C.c.Q.). get_board, the notices of board
// meetings and the signers of the board's written resolutions all ask here; the minutes ask who a
// meeting's resolutions appointed. Reads the board module's directors (never writes them) and
// their co-owner records; not JSON.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace syndic {
class Database;
}

namespace syndic::governance {

struct DirectorInOffice {
    std::string id;
    std::string co_owner_id;  // "" for an outside director
    std::string name;
    std::optional<std::string> email;     // the director's own, else their co-owner record's
    std::optional<std::string> language;  // their co-owner record's; none for an outside director
    std::string role = "director";        // president | vice-president | secretary | treasurer | director
};

// Officers first (president, vice-presidents, secretary, treasurer), then by name.
std::vector<DirectorInOffice> directors_in_office(Database& db, const std::string& syndicate_id, const std::string& day);

// A director appointed on a resolution (an election by the co-owners, a board's appointment), as
// the register holds them now: their office and term.
struct AppointedDirector {
    std::string resolution_id, name, role, term_start;
    std::optional<std::string> term_end;
};
// Those appointed on the resolutions of meeting `meeting_id`, officers first, then by name.
std::vector<AppointedDirector> directors_appointed_at(Database& db, const std::string& syndicate_id,
                                                      const std::string& meeting_id);

// A director's id that names no director of the syndicate (the board module declares the code).
// The core codes stay reachable as governance::codes:: too.
namespace codes {
using namespace ::syndic::codes;
inline constexpr const char* director_not_found = "DIRECTOR_NOT_FOUND";
}

}  // namespace syndic::governance
