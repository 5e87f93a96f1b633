// The financial statements and the budget forecast as PDFs the co-owners read (art. 1087, the
// annual meeting's package): per fund the balance sheet and the income statement, the statement of
// debts and claims in totals (no debtor named), the budget compared; the next year's forecast on its
// own. In French or English. Knows layout words and money formats; the PDF writer lays it out.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "modules/documents/pdf_writer.hpp"

namespace syndic::accounting {

// The statements `report` (financial_report's shape) of `syndicate`.
PdfDocument statements_document(const nlohmann::json& report, const std::string& syndicate, const std::string& language);

// The budget forecast `forecast` (BudgetAnswers::forecast's shape) of `syndicate`.
PdfDocument forecast_document(const nlohmann::json& forecast, const std::string& syndicate, const std::string& language);

}  // namespace syndic::accounting
