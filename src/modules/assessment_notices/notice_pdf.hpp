// A notice of assessment as a PDF a co-owner reads (catalogue §4.5): the syndicate, the notice's
// number, its addressees, what each unit of the lot owes each fund for the year, the instalments
// with their due dates, and how arrears are treated; in French or English. Knows layout words and
// money formats; the PDF writer lays it out.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "modules/documents/pdf_writer.hpp"

namespace syndic::assessment_notices {

// The document of the notice `notice` (notice_json's shape), for `syndicate` (its name and address),
// with the arrears interest rate as the reader writes it ("5 %") and how to pay (the setting
// paymentInstructions, as the syndicate wrote it; "" when it is not set).
PdfDocument notice_document(const nlohmann::json& notice, const std::string& syndicate, const std::string& address,
                            const std::string& language, const std::string& issued_on, const std::string& interest_rate,
                            const std::string& payment_instructions);

}  // namespace syndic::assessment_notices
