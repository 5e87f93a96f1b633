// Declaration amendments read as records (catalogue §3.1 DeclarationAmendment): the amendment, the
// consents given and the fractions it changed. get_declaration lists them; the amendment tool
// answers with one.
#include <SQLiteCpp/Statement.h>

#include "core/error.hpp"
#include "modules/common.hpp"
#include "modules/declaration/tools.hpp"
#include "modules/record_exists.hpp"
#include "storage/bind.hpp"
#include "storage/database.hpp"

namespace syndic::declaration {

using nlohmann::json;

namespace {

constexpr const char* amendment_columns =
    "id, part, summary, resolution_id, decided_on, contestable_until, deed_signed_on, registration_number, "
    "registered_on, document_id, status, created_at, updated_at";

json read_amendment(Database& db, SQLite::Statement& q) {
    const std::string id = q.getColumn(0).getString();
    json consents = json::array();
    {
        auto c = db.prepare("SELECT co_owner_id, document_id FROM amendment_consents WHERE amendment_id = ? ORDER BY rowid");
        c->bind(1, id);
        while (c->executeStep())
            consents.push_back({{"coOwnerId", c->getColumn(0).getString()}, {"documentId", nullable_text(c->getColumn(1))}});
    }
    json changes = json::array();
    {
        auto c = db.prepare(
            "SELECT unit_id, before_units, after_units FROM amendment_fraction_changes WHERE amendment_id = ? ORDER BY rowid");
        c->bind(1, id);
        while (c->executeStep())
            changes.push_back({{"unitId", c->getColumn(0).getString()},
                               {"before", percent(Fraction::from_units(c->getColumn(1).getInt64()))},
                               {"after", percent(Fraction::from_units(c->getColumn(2).getInt64()))}});
    }
    return {{"id", id},
            {"part", q.getColumn(1).getString()},
            {"summary", q.getColumn(2).getString()},
            {"resolutionId", q.getColumn(3).getString()},
            {"decidedOn", q.getColumn(4).getString()},
            {"contestableUntil", q.getColumn(5).getString()},
            {"consents", std::move(consents)},
            {"fractionChanges", std::move(changes)},
            {"deedSignedOn", nullable_text(q.getColumn(6))},
            {"registrationNumber", nullable_text(q.getColumn(7))},
            {"registeredOn", nullable_text(q.getColumn(8))},
            {"documentId", nullable_text(q.getColumn(9))},
            {"status", q.getColumn(10).getString()},
            {"createdAt", shown_time(q.getColumn(11))},
            {"updatedAt", shown_time(q.getColumn(12))}};
}

}  // namespace

json amendment_json(Database& db, const std::string& syndicate_id, const std::string& id) {
    auto q = db.prepare(std::string("SELECT ") + amendment_columns +
                        " FROM declaration_amendments WHERE id = ? AND syndicate_id = ?");
    bind_parameters(*q, id, syndicate_id);
    if (!q->executeStep()) return nullptr;
    return read_amendment(db, *q);
}

json amendments_json(Database& db, const std::string& syndicate_id) {
    auto q = db.prepare(std::string("SELECT ") + amendment_columns +
                        " FROM declaration_amendments WHERE syndicate_id = ? ORDER BY decided_on, created_at, id");
    q->bind(1, syndicate_id);
    json out = json::array();
    while (q->executeStep()) out.push_back(read_amendment(db, *q));
    return out;
}

void require_amendment(Database& db, const std::string& syndicate_id, const std::string& id, const std::string& field) {
    require_record_exists(db, syndicate_id, "declaration_amendments", id, field);
}

void require_admin(const ToolCall& call, const std::string& act) {
    if (!call.caller.is_admin())
        throw DomainError(codes::admin_required, "Only a syndicate admin may " + act + ".");
}

}  // namespace syndic::declaration
