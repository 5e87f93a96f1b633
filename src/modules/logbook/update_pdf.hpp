// The board's yearly update of the logbook as a PDF (record_logbook_revision without a report): the
// logbook's status, the works not done with their reasons, the overdue maintenance, the inventory
// by condition and the 25-year plan of major works, year by year, as a board hands it to its
// fund-study preparer. In French or English. Knows layout words and money formats.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "modules/documents/pdf_writer.hpp"

namespace syndic::logbook {

// `status` is get_logbook's answer, `plan` get_major_works_plan's, `revision` the update recorded;
// `names` maps component ids to names.
PdfDocument update_document(const nlohmann::json& status, const nlohmann::json& plan, const nlohmann::json& revision,
                            const nlohmann::json& names, const std::string& syndicate, const std::string& language);

}  // namespace syndic::logbook
