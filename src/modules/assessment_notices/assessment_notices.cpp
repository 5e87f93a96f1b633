#include "modules/assessment_notices/assessment_notices.hpp"

#include "modules/accounting/closing_questions.hpp"
#include "modules/assessment_notices/notice_store.hpp"
#include "modules/assessment_notices/tools.hpp"

namespace syndic {

void register_assessment_notices_module(ToolTable& table) {
    table.bind("list_assessment_notices", assessment_notices::list_assessment_notices);
    table.bind("get_assessment_notice", assessment_notices::get_assessment_notice);
    table.bind("generate_assessment_notices", assessment_notices::generate_assessment_notices);
    table.bind("issue_assessment_notices", assessment_notices::issue_assessment_notices);
    table.bind("create_special_assessment", assessment_notices::create_special_assessment);
    table.bind("cancel_assessment_notice", assessment_notices::cancel_assessment_notice);
    table.bind("resend_assessment_notice", assessment_notices::resend_assessment_notice);
    table.question<accounting::ClosingAnswers>(accounting::closing_question)->draft_notices = assessment_notices::draft_numbers;
}

}  // namespace syndic
