// What closing a fiscal year asks of the modules built on accounting (ToolTable::question): the
// assessment notices still drafts in the year (no year closes with them), and the annual meetings
// still to be called whose notice's package takes the year's statements (art. 1087). Each module
// fills its own member; an empty one answers nothing.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct ClosingAnswers {
    // The numbers of the fiscal year's draft notices (assessment-notices).
    std::function<std::vector<std::string>(Database& db, const std::string& syndicate_id, int fiscal_year)> draft_notices;
    // The annual meetings (aga) not yet called, to be held after `after` (meetings).
    std::function<std::vector<std::string>(Database& db, const std::string& syndicate_id, const std::string& after)> meetings_to_call;
};
inline constexpr const char* closing_question = "what closing a fiscal year asks";

}  // namespace syndic::accounting
