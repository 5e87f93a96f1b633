// The open projects that work on the logbook's components: a question the logbook asks and the
// projects module answers (ToolTable::question), so the logbook never includes the projects built on
// it. The 25-year plan counts them at what the contingency fund has still to pay for them; a
// component an open project works on is not archived.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace syndic {
class Database;
}

namespace syndic::logbook {

struct OpenProject {
    std::string id, number, title;
    std::optional<std::string> planned_end;
    std::int64_t contingency_to_pay_cents = 0;  // its contingency funding not yet invoiced
    std::vector<std::string> component_ids;
};

// The syndicate's projects neither closed nor cancelled (nor archived), oldest first; none while no
// module answers.
using OpenProjects = std::function<std::vector<OpenProject>(Database& db, const std::string& syndicate_id)>;
inline constexpr const char* open_projects_question = "open projects on the logbook's components";

}  // namespace syndic::logbook
