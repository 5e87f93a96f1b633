#include "modules/contractors/contractors.hpp"

#include <nlohmann/json.hpp>

#include <string>

#include "core/error.hpp"
#include "core/text.hpp"
#include "modules/record_table.hpp"
#include "storage/database.hpp"

namespace syndic {

namespace {

using enum FieldType;
const RecordTable contractors{
    "contractors",
    {{"name", "name", required_text},
     {"trade", "trade", required_text},
     {"contactName", "contact_name", text},
     {"email", "email", text},
     {"phone", "phone", text},
     {"rbqLicence", "rbq_licence", text},
     {"neq", "neq", text},
     {"insuranceExpiry", "insurance_expiry", date},
     {"professionalOrder", "professional_order", text},
     {"notes", "notes", text},
     {"insuranceExpired", "CASE WHEN r.insurance_expiry IS NOT NULL THEN r.insurance_expiry <= " SYNDIC_TODAY " END",
      boolean, FieldRole::computed},
     {"searchText", "search_text", text, FieldRole::hidden},
     {"sortKey", "sort_key", text, FieldRole::hidden}},
};

// The digits of a number people write with spaces or hyphens ("1234 567 890", "5678-1234-01"),
// when there are exactly ten of them and nothing else; "" otherwise.
std::string ten_digits(const std::string& text) {
    std::string digits;
    for (const char c : text) {
        if (c >= '0' && c <= '9') digits += c;
        else if (c != ' ' && c != '-') return "";
    }
    return digits.size() == 10 ? digits : "";
}

void check_contractor(const ToolCall& call, const nlohmann::json& record, nlohmann::json& values) {
    const std::string id = record.value("id", "");
    if (values.contains("rbqLicence") && values["rbqLicence"].is_string()) {
        const auto given = values["rbqLicence"].get<std::string>();
        const auto d = ten_digits(given);
        if (d.empty())
            throw DomainError(codes::invalid_rbq_licence,
                              "'" + given + "' is not an RBQ licence number: it has 10 digits, e.g. 5678-1234-01.")
                .at("/rbqLicence");
        values["rbqLicence"] = d.substr(0, 4) + "-" + d.substr(4, 4) + "-" + d.substr(8, 2);
    }
    if (values.contains("neq") && values["neq"].is_string()) {
        const auto given = values["neq"].get<std::string>();
        const auto d = ten_digits(given);
        if (d.empty())
            throw DomainError(codes::invalid_neq,
                              "'" + given + "' is not a Quebec enterprise number (NEQ): it has 10 digits, e.g. 1171234567.")
                .at("/neq");
        values["neq"] = d;
        auto q = call.db.prepare(
            "SELECT name FROM contractors WHERE syndicate_id = ? AND neq = ? AND deleted_at IS NULL AND id <> ?");
        q->bind(1, call.caller.syndicate_id);
        q->bind(2, d);
        q->bind(3, id);
        if (q->executeStep())
            throw DomainError(codes::duplicate_neq,
                              "The NEQ " + d + " is already that of " + q->getColumn(0).getString() + " in the register.")
                .at("/neq");
    }
    if (values.contains("name") || values.contains("trade")) {
        const auto after = merged(record, values);
        const auto name = after["name"].get<std::string>();
        // The trade filter reads the trade back as what follows the name and the line feed.
        values["sortKey"] = fold_for_search(name);
        values["searchText"] = values["sortKey"].get<std::string>() + "\n" + fold_for_search(after["trade"].get<std::string>());
    }
}

nlohmann::json list_contractors(const ToolCall& call) {
    const auto a = call.arguments();
    return list_records(call, contractors,
                        // search_text is sort_key (the name), a line feed, then the trade.
                        "(?2 IS NULL OR instr(r.search_text, ?2) > 0) AND "
                        "(?3 IS NULL OR instr(substr(r.search_text, length(r.sort_key) + 2), ?3) > 0) AND "
                        "(?4 IS NULL OR (r.insurance_expiry <= " SYNDIC_TODAY ") = ?4)",
                        "r.sort_key, r.id", [&](SQLite::Statement& q) {
                            if (a.has("search")) q.bind(2, fold_for_search(trim(a.text("search"))));
                            if (a.has("trade")) q.bind(3, fold_for_search(trim(a.text("trade"))));
                            if (a.has("insuranceExpired")) q.bind(4, a.flag("insuranceExpired", false) ? 1 : 0);
                        });
}

nlohmann::json create_contractor(const ToolCall& call) { return create_from_arguments(call, contractors, check_contractor); }

nlohmann::json update_contractor(const ToolCall& call) { return update_from_arguments(call, contractors, check_contractor); }

nlohmann::json delete_contractor(const ToolCall& call) { return archive_record(call, contractors, call.arguments().text("id")); }

}  // namespace

void register_contractors_module(ToolTable& table) {
    table.bind("list_contractors", list_contractors);
    table.bind("create_contractor", create_contractor);
    table.bind("update_contractor", update_contractor);
    table.bind("delete_contractor", delete_contractor);
}

}  // namespace syndic
