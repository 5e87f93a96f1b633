// Who is a director in office on a day (catalogue §4.3): appointed from term_start on, until the
// mandate ends (ended_on). A term that has run out does not end a mandate: it continues until the
// director is replaced or the mandate is ended (art. 339 C.c.Q.). get_board, the notices of board
// meetings and the signers of the board's written resolutions all ask here.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::board {

struct DirectorInOffice {
    std::string id;
    std::string co_owner_id;  // "" for an outside director
    std::string name;
    std::optional<std::string> email;     // the director's own, else their co-owner record's
    std::optional<std::string> language;  // their co-owner record's; none for an outside director
};

// Officers first (president, vice-presidents, secretary, treasurer), then by name.
std::vector<DirectorInOffice> directors_in_office(Database& db, const std::string& syndicate_id, const std::string& day);

}  // namespace syndic::board
