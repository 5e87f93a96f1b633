// The board's yearly update of the logbook as a PDF (record_logbook_revision without a report): the
// logbook's status, the works not done with their reasons, the overdue maintenance, the inventory
// of the components and the 25-year plan of major works, year by year, as a board hands it to its
// fund-study preparer. In French or English. Knows layout words and money formats.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "modules/documents/pdf_writer.hpp"

namespace syndic::logbook {

// `status` is get_logbook's answer, `plan` get_major_works_plan's, `revision` the update recorded;
// `components` the active components as list_logbook_components shows them, next replacement first.
PdfDocument update_document(const nlohmann::json& status, const nlohmann::json& plan, const nlohmann::json& revision,
                            const nlohmann::json& components, const std::string& syndicate, const std::string& language);

}  // namespace syndic::logbook
