#include "modules/assessment_notices/assessment_notices.hpp"

#include "modules/assessment_notices/tools.hpp"

namespace syndic {

void register_assessment_notices_module(ToolTable& table) {
    table.bind("list_assessment_notices", assessment_notices::list_assessment_notices);
    table.bind("get_assessment_notice", assessment_notices::get_assessment_notice);
    table.bind("generate_assessment_notices", assessment_notices::generate_assessment_notices);
    table.bind("issue_assessment_notices", assessment_notices::issue_assessment_notices);
}

}  // namespace syndic
