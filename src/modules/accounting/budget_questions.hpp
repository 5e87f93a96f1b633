// What the accounts ask of the budget, which the funds module (built on accounting) answers
// (ToolTable::question): the fiscal year's budget compared with the actuals up to a day, and the
// budget forecast of a year, for the financial statements (art. 1087). Empty while no module
// answers: the statements then say no budget.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>

namespace syndic {
class Database;
}

namespace syndic::accounting {

struct BudgetAnswers {
    // The budget of `fiscal_year` line by line against the actuals from its start to `to`.
    std::function<std::optional<nlohmann::json>(Database& db, const std::string& syndicate_id, int fiscal_year, const std::string& to)>
        comparison;
    // The budget forecast of `fiscal_year`: its lines and contributions by fund.
    std::function<std::optional<nlohmann::json>(Database& db, const std::string& syndicate_id, int fiscal_year)> forecast;
};
inline constexpr const char* budget_question = "the budget of a fiscal year";

}  // namespace syndic::accounting
